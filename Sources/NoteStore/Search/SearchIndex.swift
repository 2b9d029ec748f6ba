import GRDB

/// Keeps the full-text index `item_fts` in step with the `item` table, in the same transaction
/// as the change.
///
/// The index is an FTS5 external-content table (https://sqlite.org/fts5.html#external_content_tables):
/// it holds only the tokens, keyed by the item's rowid, and removing an entry needs the text
/// that was indexed. FTS5 gathers a transaction's tokens in memory and writes them as one
/// segment when it commits, but writes what it gathered as a small segment of its own (to be
/// merged later) whenever a statement savepoint comes, or an entry comes for a smaller rowid
/// than the one before it. So the store writes the index itself rather than through triggers
/// (a trigger runs in a statement savepoint, and so does `INSERT ... SELECT`), and gathers the
/// items whose text a transaction changes to write their entries at the end, in rowid order,
/// with values rather than a select: an import applying updates in the order of a log became
/// about four times faster in its index.
enum SearchIndex {
    /// The text of an item as the index holds it.
    struct Entry {
        var rowid: Int64
        var name: String
        var body: String?
    }

    /// The entries that one transaction changes, written by ``write(_:)`` before it commits.
    final class Batch {
        /// Per rowid: the entry the index holds for it now (nil: none), to remove.
        private var indexed: [Int64: Entry?] = [:]
        private var heldBytes = 0
        /// The text of rows inserted by the transaction, when the inserter gave it: written
        /// without reading the row again, unless the row changes or goes meanwhile.
        private var insertedText: [Int64: (name: String, body: String?)] = [:]
        /// Past this much old text held, the batch writes what it has (and starts again).
        private static let heldBytesLimit = 32 << 20

        /// Call before the name or body of the item `id` changes, or before its row goes.
        func willChange(_ id: String, _ db: Database) throws {
            guard let entry = try SearchIndex.entry(of: id, db) else { return }
            insertedText[entry.rowid] = nil
            guard indexed[entry.rowid] == nil else { return }
            indexed[entry.rowid] = entry
            heldBytes += entry.name.utf8.count + (entry.body?.utf8.count ?? 0)
            if heldBytes > Self.heldBytesLimit { try write(db) }
        }

        /// Call after inserting an item row; with its name and body when they are at hand.
        func inserted(rowid: Int64, text: (name: String, body: String?)? = nil) {
            if indexed[rowid] == nil { indexed[rowid] = .some(nil) }
            insertedText[rowid] = text
        }

        /// Writes the gathered entries: each old one removed, each row's current text added.
        func write(_ db: Database) throws {
            guard !indexed.isEmpty else { return }
            // Cached statements with placeholders: they run once or twice for every item a
            // save or an import changes.
            let remove = try db.cachedStatement(
                sql: "INSERT INTO item_fts(item_fts, rowid, name, body) VALUES ('delete', ?, ?, ?)")
            let add = try db.cachedStatement(sql: "INSERT INTO item_fts(rowid, name, body) VALUES (?, ?, ?)")
            let read = try db.cachedStatement(sql: "SELECT name, body FROM item WHERE rowid = ?")
            for rowid in indexed.keys.sorted() {
                if case let old?? = indexed[rowid] { try remove.execute(arguments: [rowid, old.name, old.body]) }
                if let text = insertedText[rowid] {
                    try add.execute(arguments: [rowid, text.name, text.body])
                } else if let row = try Row.fetchOne(read, arguments: [rowid]) {
                    try add.execute(arguments: [rowid, row["name"] as String, row["body"] as String?])
                }
            }
            indexed = [:]
            insertedText = [:]
            heldBytes = 0
        }
    }

    private static func entry(of id: String, _ db: Database) throws -> Entry? {
        // A cached statement with a placeholder: it runs for every item a save or an import changes.
        let row = try Row.fetchOne(
            db.cachedStatement(sql: "SELECT rowid, name, body FROM item WHERE id = ?"), arguments: [id])
        return row.map { Entry(rowid: $0["rowid"], name: $0["name"], body: $0["body"]) }
    }
}
