import Foundation
import GRDB

extension Item: FetchableRecord {
    /// The columns of ``ItemFilter/columns(includingBody:)`` that an item is read from.
    enum Columns {
        static let id = Column("id")
        static let kind = Column("kind")
        static let name = Column("name")
        static let parent = Column("parent")
        static let created = Column("created")
        static let modified = Column("modified")
        static let trashed = Column("trashed")
        static let body = Column("body")
    }

    /// Decodes an item from a row of ``ItemFilter/columns(includingBody:)``.
    ///
    /// A row whose id or parent is not an id, or whose kind is unknown, throws
    /// ``StoreError/damagedRow(table:id:problem:)``: it is never read as some other item.
    public init(row: Row) throws {
        let (id, rowID) = try row.storeRowID(table: "item")
        self.init(
            id: id,
            kind: try row.storeCase(Columns.kind, table: "item", rowID: rowID),
            name: row[Columns.name],
            created: Date(storeMilliseconds: row[Columns.created]),
            modified: Date(storeMilliseconds: row[Columns.modified]),
            parent: try row.storeIDIfPresent(Columns.parent, table: "item", rowID: rowID),
            trashed: (row[Columns.trashed] as Int64?).map(Date.init(storeMilliseconds:)),
            body: row[Columns.body])
    }

    /// The item with this id, or nil; through the statement cache, since saves and imports
    /// ask for items one at a time.
    static func fetchOne(_ db: Database, id: UUID, includingBody: Bool = true) throws -> Item? {
        try SQLRequest<Item>(
            literal: """
                SELECT \(sql: ItemFilter.columns(includingBody: includingBody)) \
                FROM item WHERE id = \(id.storeString)
                """,
            cached: true
        ).fetchOne(db)
    }
}
