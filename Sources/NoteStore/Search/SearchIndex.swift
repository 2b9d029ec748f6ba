import GRDB

/// Keeps the full-text index `item_fts` in step with the `item` table, in the same transaction
/// as the change.
///
/// The index is an FTS5 external-content table (https://sqlite.org/fts5.html#external_content_tables):
/// it holds only the tokens, keyed by the item's rowid, and removing an entry needs the text
/// that was indexed. The store writes the index itself rather than through triggers: a
/// trigger runs inside a statement savepoint, and FTS5 flushes its pending terms at every
/// savepoint, which made bulk inserts about three times slower.
enum SearchIndex {
    /// Indexes the row just inserted into `item`.
    static func addLastInsertedItem(name: String, body: String?, _ db: Database) throws {
        let statement = try db.cachedStatement(
            sql: "INSERT INTO item_fts(rowid, name, body) VALUES (last_insert_rowid(), ?, ?)")
        try statement.execute(arguments: [name, body])
    }

    /// Removes the items' entries, with the text they were indexed with; call it before the
    /// rows or their text change.
    static func remove(ids: [String], _ db: Database) throws {
        if ids.count == 1 {
            return try db.cachedStatement(sql: """
                INSERT INTO item_fts(item_fts, rowid, name, body)
                SELECT 'delete', rowid, name, body FROM item WHERE id = ?
                """).execute(arguments: [ids[0]])
        }
        try IDList.forEachChunk(of: ids) { marks, arguments in
            try db.execute(
                sql: """
                    INSERT INTO item_fts(item_fts, rowid, name, body)
                    SELECT 'delete', rowid, name, body FROM item WHERE id IN (\(marks))
                    """,
                arguments: arguments)
        }
    }

    /// Indexes the items again with their current text; call it after their text changed.
    static func add(ids: [String], _ db: Database) throws {
        if ids.count == 1 {
            return try db.cachedStatement(sql: "INSERT INTO item_fts(rowid, name, body) SELECT rowid, name, body FROM item WHERE id = ?")
                .execute(arguments: [ids[0]])
        }
        try IDList.forEachChunk(of: ids) { marks, arguments in
            try db.execute(
                sql: """
                    INSERT INTO item_fts(rowid, name, body)
                    SELECT rowid, name, body FROM item WHERE id IN (\(marks))
                    """,
                arguments: arguments)
        }
    }
}
