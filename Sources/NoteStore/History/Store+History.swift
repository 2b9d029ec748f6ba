import Foundation
import GRDB

/// Two concurrent versions that could not merge: the loser's text lost a region to the
/// winner's, and a conflict copy of the loser keeps it (for a body).
public struct ConflictRecord: Sendable, Equatable {
    public let object: UUID
    public let property: HistoryProperty
    public let loser: ChangeStamp
    public let winner: ChangeStamp
    /// The note made of the losing version; nil for a name, or when it was purged since.
    public let copy: UUID?
}

extension Store {
    /// Every version of an item's name and of a note's body, newest first.
    public func history(of object: UUID) throws -> [Version] {
        try read { db in
            try VersionStorage.versions(object, db).sorted {
                $0.stamp != $1.stamp ? $0.stamp > $1.stamp : $0.property < $1.property
            }
        }
    }

    /// The text of a version; nil when there is no such version.
    public func text(of object: UUID, _ property: HistoryProperty, at stamp: ChangeStamp) throws -> String? {
        try read { db in try VersionStorage.text(object, property, stamp, db) }
    }

    /// The encoded ``LineDelta`` that history keeps a version as, with the version it applies
    /// to and the size of the text it makes; nil when history keeps the version whole (or has
    /// no such version).
    public func storedDelta(
        of object: UUID, _ property: HistoryProperty, at stamp: ChangeStamp
    ) throws -> (base: ChangeStamp, lines: [UInt8], size: Int)? {
        try read { db in
            guard let entry = try VersionStorage.line(object, property, db).entry(stamp), let base = entry.deltaOf,
                let content = try entry.content
                    ?? (entry.isApart ? VersionStorage.apartContent(object, property, stamp, db) : nil)
            else { return nil }
            return (base, [UInt8](content), entry.size)
        }
    }

    /// The cuts of history the store records: for each property of an object whose older
    /// versions a baseline dropped, the version every version it holds descends from or is
    /// (their `dropped` left empty).
    public func historyCuts() throws -> [HistoryCut] {
        try read { db in try VersionStorage.cuts(db) }
    }

    /// Whether history holds a version.
    public func hasVersion(of object: UUID, _ property: HistoryProperty, at stamp: ChangeStamp) throws -> Bool {
        try read { db in try Replica(db: db).hasVersion(of: object, property, at: stamp) }
    }

    /// The cut the store records for a property of an object, if any.
    public func historyCut(of object: UUID, _ property: HistoryProperty) throws -> ChangeStamp? {
        try read { db in try VersionStorage.cut(of: object, property, db) }
    }

    /// Records cuts of history (a baseline written from this store dropped the versions below
    /// them), replacing earlier ones of the same properties; the versions stay.
    public func recordHistoryCuts(_ cuts: [HistoryCut]) throws {
        guard !cuts.isEmpty else { return }
        try write { db in
            for cut in cuts { try VersionStorage.recordCut(cut, db) }
        }
    }

    /// Bytes of history kept for an object (or for every object): as stored (in its line or
    /// apart), and a text kept once in its item (``VersionStorage``) at its size.
    public func historyBytes(of object: UUID? = nil) throws -> Int {
        try read { db in
            func bytes(_ line: HistoryLine) -> Int {
                line.entries.reduce(0) { $0 + ($1.content?.count ?? ($1.isApart ? 0 : $1.size)) }
            }
            if let object {
                let apart =
                    try Int.fetchOne(
                        db, sql: "SELECT SUM(length(content)) FROM history_text WHERE object = ?",
                        arguments: [HistoryEncoding.bytes(of: object)]) ?? 0
                return try HistoryProperty.allCases.reduce(apart) {
                    $0 + bytes(try VersionStorage.line(object, $1, db))
                }
            }
            var total = try Int.fetchOne(db, sql: "SELECT SUM(length(content)) FROM history_text") ?? 0
            let lines = try Row.fetchCursor(db, sql: "SELECT object, property, line FROM history_line")
            while let row = try lines.next() {
                guard let object = (row["object"] as Data?).flatMap(HistoryEncoding.id),
                    let property = HistoryEncoding.property(row["property"]),
                    let line = HistoryLine(object: object, property: property, decoding: row["line"], inStore: true)
                else { continue }
                total += bytes(line)
            }
            return total
        }
    }

    /// The conflicts whose winning version was saved at or after `since`, newest first.
    public func conflicts(since: Date) throws -> [ConflictRecord] {
        let bound = String(
            ChangeStamp(clock: UInt64(max(0, since.storeMilliseconds)) << 16, device: UUID()).text.prefix(16))
        return try read { db in
            try SQLRequest<Row>(
                literal: """
                    SELECT object, property, loser, winner, copy FROM conflict
                    WHERE winner >= \(bound) ORDER BY winner DESC, object, property, loser
                    """
            ).fetchAll(db).compactMap { row in
                guard let object = UUID(storeText: row["object"]),
                    let property = HistoryProperty(rawValue: row["property"]),
                    let loser = ChangeStamp(text: row["loser"]), let winner = ChangeStamp(text: row["winner"])
                else { return nil }
                return ConflictRecord(
                    object: object, property: property, loser: loser, winner: winner,
                    copy: (row["copy"] as String?).flatMap(UUID.init(storeText:)))
            }
        }
    }

    /// The ids of the items that are conflict copies.
    public func conflictCopies() throws -> Set<UUID> {
        try read { db in
            Set(
                try String.fetchAll(
                    db, sql: "SELECT copy FROM conflict WHERE copy IS NOT NULL AND copy IN (SELECT id FROM item)"
                ).compactMap(UUID.init(storeText:)))
        }
    }
}

extension ObjectContext {
    /// Makes a version of an item's name or body the current one again, on the next save: a
    /// normal edit that syncs, recorded in history as a restore.
    public func restore(_ version: Version) throws {
        guard let text = try store.text(of: version.object, version.property, at: version.stamp) else {
            throw StoreError.invalidOperation(
                item: version.object.storeString, reason: "it has no version \(version.stamp.text)")
        }
        var item = try object(with: version.object)
        switch version.property {
        case .name: item.name = text
        case .body: item.body = text
        }
        try update(item)
        restoring[version.object, default: [:]][version.property] = version.stamp
    }
}
