import Foundation
import GRDB

/// Paths of names, such as `Work/Ideas/Launch plan`, for showing and finding items.
///
/// A `/` or `\` inside a name is written `\/` or `\\` in a path.
public enum ItemPath {
    /// The path component for a name.
    public static func escape(_ name: String) -> String {
        // Most names hold neither: they are their own component, without Foundation's search,
        // which a path of every item (a reference not found, the closest names looked for)
        // did twice for each name.
        guard name.utf8.contains(where: { $0 == UInt8(ascii: "\\") || $0 == UInt8(ascii: "/") }) else { return name }
        return name.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "/", with: "\\/")
    }

    /// The names in a path, with escapes undone; an empty list for an empty path.
    public static func components(of path: String) -> [String] {
        var components: [String] = []
        var current = ""
        var escaping = false
        for character in path {
            if escaping {
                current.append(character)
                escaping = false
            } else if character == "\\" {
                escaping = true
            } else if character == "/" {
                components.append(current)
                current = ""
            } else {
                current.append(character)
            }
        }
        if escaping { current.append("\\") }
        components.append(current)
        return components.map(Item.normalizedName).filter { !$0.isEmpty }
    }
}

/// The collections of a store by id, to compute paths without a query per item.
public struct CollectionIndex: Sendable {
    struct Entry: Sendable {
        let name: String
        let parent: UUID?
    }

    private let entries: [UUID: Entry]

    init(_ db: Database) throws {
        var entries: [UUID: Entry] = [:]
        let rows = try Row.fetchCursor(db, sql: "SELECT id, name, parent FROM item WHERE kind = 'collection'")
        while let row = try rows.next() {
            let (id, rowID) = try row.storeRowID(table: "item")
            entries[id] = Entry(
                name: row[Item.Columns.name],
                parent: try row.storeIDIfPresent(Item.Columns.parent, table: "item", rowID: rowID))
        }
        self.entries = entries
    }

    /// The path of a collection, or of an item inside it with `name`.
    public func path(of item: Item) -> String {
        path(name: item.name, parent: item.parent)
    }

    /// The path of an item of this name in the collection `parent` (nil: the top level).
    func path(name: String, parent: UUID?) -> String {
        var names = [ItemPath.escape(name)]
        var next = parent
        var seen: Set<UUID> = []
        while let id = next, seen.insert(id).inserted, let entry = entries[id] {
            names.append(ItemPath.escape(entry.name))
            next = entry.parent
        }
        return names.reversed().joined(separator: "/")
    }

    /// The collections of the index, each with the collection it is in (nil: the top level).
    public var parents: [UUID: UUID?] { entries.mapValues(\.parent) }

    /// The path of a collection; empty for the top level (nil) and for an id the index does
    /// not hold, as ``path(of:)`` reads it for the items inside.
    public func path(ofCollection id: UUID?) -> String {
        guard let id, let entry = entries[id] else { return "" }
        return path(
            of: Item(
                id: id, kind: .collection, name: entry.name, created: .distantPast, modified: .distantPast,
                parent: entry.parent, trashed: nil, body: nil))
    }
}

extension Store {
    /// An index of the store's collections, for computing paths.
    public func collectionIndex() throws -> CollectionIndex {
        try read { try CollectionIndex($0) }
    }

    /// The path of one item.
    public func path(of item: Item) throws -> String {
        try collectionIndex().path(of: item)
    }
}
