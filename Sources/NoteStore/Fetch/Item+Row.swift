import Foundation
import GRDB

extension Item {
    /// Decodes an item from a row of ``ItemFilter/columns(includingBody:)``.
    init(row: Row) {
        let kind = ItemKind(rawValue: row[1]) ?? .note
        self.init(
            id: UUID(storeText: row[0]) ?? UUID(),
            kind: kind,
            name: row[2],
            created: Date(storeMilliseconds: row[4]),
            modified: Date(storeMilliseconds: row[5]),
            parent: (row[3] as String?).flatMap(UUID.init(storeText:)),
            trashed: (row[6] as Int64?).map(Date.init(storeMilliseconds:)),
            body: row[7])
    }

    static func fetchAll(_ db: Database, sql: String, arguments: StatementArguments = []) throws -> [Item] {
        try Row.fetchCursor(db, sql: sql, arguments: arguments).map(Item.init(row:)).reduce(into: []) {
            $0.append($1)
        }
    }

    static func fetchOne(_ db: Database, id: UUID, includingBody: Bool = true) throws -> Item? {
        let statement = try db.cachedStatement(
            sql: "SELECT \(ItemFilter.columns(includingBody: includingBody)) FROM item WHERE id = ?")
        return try Row.fetchOne(statement, arguments: [id.storeString]).map(Item.init(row:))
    }
}
