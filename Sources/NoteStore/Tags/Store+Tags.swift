import Foundation
import GRDB

/// One tag and how many notes carry it.
public struct TagCount: Sendable, Equatable {
    public let tag: String
    public let notes: Int
}

extension Store {
    /// Adds tags to a note in one save; returns those it did not carry yet.
    @discardableResult
    public func tag(_ id: UUID, with tags: [String]) throws -> [String] {
        try change { try $0.tag(id, with: tags) }
    }

    /// Removes tags from a note in one save; returns those it carried.
    @discardableResult
    public func untag(_ id: UUID, _ tags: [String]) throws -> [String] {
        try change { try $0.untag(id, tags) }
    }

    /// The tags of an item, sorted.
    public func tags(of id: UUID) throws -> [String] {
        try read { try TagTable.names(of: id, $0) }
    }

    /// The tags of several items, sorted for each; items without tags are left out.
    public func tags(ofItems ids: [UUID]) throws -> [UUID: [String]] {
        guard !ids.isEmpty else { return [:] }
        return try read { try Self.tags(ofItems: ids, $0) }
    }

    /// ``tags(ofItems:)`` in a transaction of the caller's.
    static func tags(ofItems ids: [UUID], _ db: Database) throws -> [UUID: [String]] {
        guard !ids.isEmpty else { return [:] }
        var result: [UUID: [String]] = [:]
        let rows = try Row.fetchCursor(
            db.cachedStatement(
                sql: """
                    SELECT DISTINCT item, name FROM tag WHERE item IN (SELECT value FROM json_each(?)) \
                    ORDER BY item, name
                    """),
            arguments: [IDList.json(ids)])
        while let row = try rows.next() {
            guard let id = UUID(storeText: row["item"]) else { continue }
            result[id, default: []].append(row["name"])
        }
        return result
    }

    /// Every tag on a note of the store with the number of notes that carry it, by tag; with
    /// `includingTrash`, notes in the trash count too.
    public func tagCounts(includingTrash: Bool = false) throws -> [TagCount] {
        try read { db in
            try Row.fetchAll(
                db,
                sql: """
                    SELECT tag.name AS name, COUNT(DISTINCT tag.item) AS notes FROM tag JOIN item ON item.id = tag.item
                    \(includingTrash ? "" : "WHERE item.trashed IS NULL")
                    GROUP BY tag.name ORDER BY tag.name
                    """
            ).map { TagCount(tag: $0["name"], notes: $0["notes"]) }
        }
    }
}
