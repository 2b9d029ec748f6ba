import Foundation
import GRDB

/// One line of a listing: an item and its depth below the listed collection.
public struct ListingEntry: Sendable, Equatable {
    public let item: Item
    public let depth: Int

    public init(item: Item, depth: Int) {
        self.item = item
        self.depth = depth
    }
}

extension Store {
    /// The contents of a collection (or of the top level, with nil), in `sort` order, and with
    /// `recursive`, the contents of every collection below it, each after its collection.
    ///
    /// With `trash`, lists what is in the trash instead: the items trashed on their own or
    /// together with a collection (not each thing inside a trashed collection, unless
    /// `recursive`).
    public func listing(
        of collection: UUID?, recursive: Bool = false, trash: Bool = false, sort: ItemSort = .name
    ) throws -> [ListingEntry] {
        var entries: [ListingEntry] = []
        try forEachListed(of: collection, recursive: recursive, trash: trash, sort: sort) { entry, _ in
            entries.append(entry)
        }
        return entries
    }

    /// How many items ``forEachListed(of:recursive:trash:sort:tagged:_:)`` and
    /// ``forEachFetched(_:tagged:_:)`` read the tags of at once.
    static let taggedBatch = 500

    /// Calls `body` with each entry of ``listing(of:recursive:trash:sort:)``, in the same
    /// order, as it reads them: what it holds grows with the depth of the collections, never
    /// with the number of items. With `tagged`, `body` is given each item's tags too (else
    /// none), read for a few hundred entries at a time. `body` runs inside the store's read
    /// transaction and must not use the store.
    ///
    /// A recursive listing reads first the items whose collection is not listed (the listed
    /// collection itself, none, or one trashed apart from them), then, under each collection
    /// as it comes, that collection's contents, through the listing index; a statement is
    /// made for each depth and serves every collection at that depth.
    public func forEachListed(
        of collection: UUID?, recursive: Bool = false, trash: Bool = false, sort: ItemSort = .name,
        tagged: Bool = false, _ body: (ListingEntry, [String]) throws -> Void
    ) throws {
        try read { db in
            try Self.givingTags(tagged, db, of: \.item, to: body) { emit in
                try Self.forEachListed(of: collection, recursive: recursive, trash: trash, sort: sort, db, emit)
            }
        }
    }

    /// Runs `produce`, giving `body` each value it emits with the tags of its item when
    /// `tagged` (read for ``taggedBatch`` values at a time, in the caller's transaction), else
    /// none.
    static func givingTags<Value>(
        _ tagged: Bool, _ db: Database, of item: (Value) -> Item, to body: (Value, [String]) throws -> Void,
        _ produce: ((Value) throws -> Void) throws -> Void
    ) throws {
        // Escaping for the closures given to `produce`, which never keeps them.
        try withoutActuallyEscaping(body) { body in
            try withoutActuallyEscaping(item) { item in
                guard tagged else { return try produce { try body($0, []) } }
                var waiting: [Value] = []
                func flush() throws {
                    let tags = try Self.tags(ofItems: waiting.map { item($0).id }, db)
                    for value in waiting { try body(value, tags[item(value).id] ?? []) }
                    waiting.removeAll(keepingCapacity: true)
                }
                try produce { value in
                    waiting.append(value)
                    if waiting.count == taggedBatch { try flush() }
                }
                try flush()
            }
        }
    }

    private static func forEachListed(
        of collection: UUID?, recursive: Bool, trash: Bool, sort: ItemSort, _ db: Database,
        _ body: (ListingEntry) throws -> Void
    ) throws {
        guard recursive else {
            let sql: SQL
            if trash {
                sql = Self.trashRootsSQL(collection, sort: sort)
            } else {
                let scope: ItemRequest.Scope = collection.map { .children(of: $0) } ?? .topLevel
                sql = ItemFilter.sql(
                    for: ItemRequest(scope: scope, trash: .excluded, sort: sort, includesBodies: false))
            }
            let items = try Item.fetchCursor(db, SQLRequest(literal: sql))
            while let item = try items.next() { try body(ListingEntry(item: item, depth: 0)) }
            return
        }
        let listed: SQL = trash ? "item.trashed IS NOT NULL" : "item.trashed IS NULL"
        let containerListed: SQL = trash ? "container.trashed IS NOT NULL" : "container.trashed IS NULL"
        let columns = ItemFilter.columns(includingBody: false)
        let order = ItemFilter.orderBy(sort)
        // An item is listed under its collection when that collection is listed too; one whose
        // parent is not a collection (which saves refuse) is listed at the top.
        let unlisted: SQL = """
            NOT EXISTS (SELECT 1 FROM item AS container \
            WHERE container.id = item.parent AND container.kind = 'collection' AND \(containerListed))
            """
        let top: SQL
        if let collection {
            top = """
                WITH RECURSIVE subtree(id) AS (
                    SELECT id FROM item WHERE parent = \(collection.storeString)
                    UNION ALL SELECT item.id FROM item JOIN subtree ON item.parent = subtree.id)
                SELECT \(sql: columns) FROM item
                WHERE item.id IN subtree AND \(listed)
                  AND (item.parent = \(collection.storeString) OR \(unlisted))
                ORDER BY \(sql: order)
                """
        } else {
            top = """
                SELECT \(sql: columns) FROM item
                WHERE \(listed) AND (item.parent IS NULL OR \(unlisted))
                ORDER BY \(sql: order)
                """
        }
        let contentsSQL = """
            SELECT \(columns) FROM item WHERE item.parent = ? AND item.trashed IS \(trash ? "NOT NULL" : "NULL") \
            ORDER BY \(order)
            """
        // One statement a depth: the contents of one collection at a time are read at each.
        var statements: [Statement] = []
        var levels: [RecordCursor<Item>] = [try Item.fetchCursor(db, SQLRequest(literal: top))]
        while let level = levels.last {
            guard let item = try level.next() else {
                levels.removeLast()
                continue
            }
            try body(ListingEntry(item: item, depth: levels.count - 1))
            guard item.isCollection else { continue }
            if statements.count < levels.count { statements.append(try db.makeStatement(sql: contentsSQL)) }
            levels.append(
                try Item.fetchCursor(statements[levels.count - 1], arguments: [item.id.storeString]))
        }
    }

    private static func trashRootsSQL(_ collection: UUID?, sort: ItemSort) -> SQL {
        let place: SQL =
            collection.map { "item.parent = \($0.storeString)" }
            ?? "(container.id IS NULL OR container.trashed IS NULL)"
        return """
            SELECT \(sql: ItemFilter.columns(includingBody: false)) FROM item
            LEFT JOIN item AS container ON container.id = item.parent
            WHERE item.trashed IS NOT NULL
              AND \(literal: place)
            ORDER BY \(sql: ItemFilter.orderBy(sort))
            """
    }
}
