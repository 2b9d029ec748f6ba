import Foundation
import GRDB

extension Store {
    /// The saved items that match the request.
    public func fetch(_ request: ItemRequest) throws -> [Item] {
        let sql = ItemFilter.sql(for: request)
        return try read { try Item.fetchAll($0, SQLRequest(literal: sql)) }
    }

    /// Calls `body` with each saved item that matches the request, in its order, as it reads
    /// them, and with `tagged`, with its tags (else none): what it holds does not grow with
    /// the number of items. `body` runs inside the store's read transaction and must not use
    /// the store.
    public func forEachFetched(_ request: ItemRequest, tagged: Bool = false, _ body: (Item, [String]) throws -> Void)
        throws
    {
        let sql = ItemFilter.sql(for: request)
        try read { db in
            try Self.givingTags(tagged, db, of: { $0 }, to: body) { emit in
                let items = try Item.fetchCursor(db, SQLRequest(literal: sql))
                while let item = try items.next() { try emit(item) }
            }
        }
    }

    /// The number of saved items that match the request, ignoring its limit and offset.
    public func count(_ request: ItemRequest) throws -> Int {
        var request = request
        request.limit = nil
        request.offset = 0
        let sql = ItemFilter.sql(for: request)
        return try read { try Int.fetchOne($0, SQLRequest(literal: "SELECT COUNT(*) FROM (\(literal: sql))")) ?? 0 }
    }

    /// The saved item with this id.
    public func item(_ id: UUID, includingBody: Bool = true) throws -> Item {
        guard let item = try read({ try Item.fetchOne($0, id: id, includingBody: includingBody) }) else {
            throw StoreError.notFound(id)
        }
        return item
    }

    /// The model version, device id and counts, for a quick look at a store.
    public func statistics() throws -> (notes: Int, collections: Int, trashed: Int) {
        try read { db in
            let row = try Row.fetchOne(
                db,
                sql: """
                    SELECT
                        (SELECT COUNT(*) FROM item WHERE kind = 'note') AS notes,
                        (SELECT COUNT(*) FROM item WHERE kind = 'collection') AS collections,
                        (SELECT COUNT(*) FROM item WHERE trashed IS NOT NULL) AS trashed
                    """)
            return (row?["notes"] ?? 0, row?["collections"] ?? 0, row?["trashed"] ?? 0)
        }
    }
}
