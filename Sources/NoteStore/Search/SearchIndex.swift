import Foundation
import GRDB
import NoteText

/// Keeps the full-text indexes, the word index `item_fts` and the trigram index
/// (``TrigramIndex``), in step with the `item` table, in the same transaction as the change.
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
/// about four times faster in its index. The link index (``LinkIndex``) follows the same
/// entries: a note's links when its body changes, its names when its name does.
enum SearchIndex {
    /// How much of a transaction's tokens FTS5 gathers in memory before it writes them as a
    /// segment of an index (its `hashsize` setting, 1 MiB unless set): at 1 MiB an import's
    /// save of 20,000 notes wrote dozens of small segments that FTS5 then merged, again and
    /// again. Kept in each index's configuration table.
    static let hashSize = 4 << 20

    /// Sets ``hashSize`` for the index `table`.
    static func setHashSize(of table: String, _ db: Database) throws {
        try db.execute(sql: "INSERT INTO \(table)(\(table), rank) VALUES ('hashsize', \(hashSize))")
    }

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
        /// The links found in the bodies of rows inserted, when the inserter gave them.
        private var insertedLinks: [Int64: BodyLinks] = [:]
        /// The item id of each row gathered, and the row of each id.
        private var ids: [Int64: String] = [:]
        private var rows: [String: Int64] = [:]
        /// Items whose history of names changed: the names they are found by are written again.
        private var renamed: Set<String> = []
        /// Rows inserted where the transaction removed a row gathered before (SQLite gives a
        /// new row the rowid of the last one when that one went): the links and names of the
        /// row that went went with it, so those of the new row are written whatever it holds.
        private var reused: Set<Int64> = []

        /// Items whose history of names this transaction started (their first version): they
        /// are found by their name alone, and their aliases.
        private var startedNames: Set<String> = []

        /// Call when a version of the item's name is added to history.
        func namesChanged(_ id: String) {
            renamed.insert(id)
        }

        /// Call when the item's first version of its name starts its history.
        func nameLineStarted(_ id: String) {
            startedNames.insert(id)
        }
        /// Past this much old text held, the batch writes what it has (and starts again), when
        /// the changes it gathered are made (``didChange(_:)``).
        private static let heldBytesLimit = 32 << 20

        /// Call before the name or body of the item `id` changes, or before its row goes; then
        /// ``didChange(_:)`` once the change is made.
        func willChange(_ id: String, _ db: Database) throws {
            // An item gathered already: its entry is known, and its row is not read again (an
            // import of many edits of a long note would read its body for each).
            if let rowid = rows[id], indexed[rowid] != nil {
                insertedText[rowid] = nil
                insertedLinks[rowid] = nil
                return
            }
            guard let entry = try SearchIndex.entry(of: id, db) else { return }
            insertedText[entry.rowid] = nil
            insertedLinks[entry.rowid] = nil
            ids[entry.rowid] = id
            rows[id] = entry.rowid
            guard indexed[entry.rowid] == nil else { return }
            indexed[entry.rowid] = entry
            heldBytes += entry.name.utf8.count + (entry.body?.utf8.count ?? 0)
        }

        /// Call after the changes announced by ``willChange(_:_:)`` are made: past
        /// ``heldBytesLimit`` of old text held, writes the entries gathered. Never before the
        /// changes: the entries would be written from the rows as they were, and the changes
        /// then lost to the index.
        func didChange(_ db: Database) throws {
            if isFull { try write(db) }
        }

        /// Whether ``didChange(_:)`` writes the entries gathered.
        var isFull: Bool { heldBytes > Self.heldBytesLimit }

        /// Call after inserting an item row; with its name and body when they are at hand, and
        /// the links found in its body when they were.
        func inserted(rowid: Int64, id: String, text: (name: String, body: String?)? = nil, links: BodyLinks? = nil) {
            if indexed[rowid] == nil { indexed[rowid] = .some(nil) } else { reused.insert(rowid) }
            insertedText[rowid] = text
            insertedLinks[rowid] = links
            ids[rowid] = id
            rows[id] = rowid
        }

        /// Writes the gathered entries: each old one removed, each row's current text added.
        func write(_ db: Database) throws {
            defer { renamed = [] }
            try writeEntries(db)
            try writeNames(db)
        }

        private func writeEntries(_ db: Database) throws {
            guard !indexed.isEmpty else { return }
            // Cached statements with placeholders: they run once or twice for every item a
            // save or an import changes.
            let remove = try db.cachedStatement(
                sql: "INSERT INTO item_fts(item_fts, rowid, name, body) VALUES ('delete', ?, ?, ?)")
            let add = try db.cachedStatement(sql: "INSERT INTO item_fts(rowid, name, body) VALUES (?, ?, ?)")
            let read = try db.cachedStatement(sql: "SELECT name, body FROM item WHERE rowid = ?")
            let itemByID = try db.cachedStatement(sql: "SELECT 1 FROM item WHERE id = ?")
            // While the trigram index is being built, items it has not reached are the build's.
            let trigramsThrough = try TrigramIndex.builtThrough(db) ?? Int64.max
            let parts = try BodyParts.exist(db)
            // The aliases of every item gathered, read together once a name is to be written:
            // a query for each item was 3% of an import's save.
            var aliases: [UUID: PropertyValue]?
            for rowid in indexed.keys.sorted() {
                let old = indexed[rowid] ?? nil
                var now: (name: String, body: String?)?
                if let text = insertedText[rowid] {
                    now = text
                } else if let row = try Row.fetchOne(read, arguments: [rowid]) {
                    now = (row["name"], row["body"])
                }
                // A long body is indexed in parts, and the item's entries hold its name alone
                // (``BodyParts``): they stay as they are when neither changes.
                let oldText = parts ? BodyParts.itemText(old?.body) : old?.body
                let nowText = parts ? BodyParts.itemText(now?.body) : now?.body
                var unchanged = false
                if let old, let now {
                    unchanged = SearchIndex.sameBytes(old.name, now.name) && SearchIndex.sameBytes(oldText, nowText)
                }
                if let old, !unchanged {
                    try remove.execute(arguments: [rowid, old.name, oldText])
                    if rowid <= trigramsThrough {
                        try TrigramIndex.remove(rowid: rowid, name: old.name, body: oldText, db)
                    }
                }
                if let now, !unchanged {
                    try add.execute(arguments: [rowid, now.name, nowText])
                    if rowid <= trigramsThrough {
                        try TrigramIndex.add(rowid: rowid, name: now.name, body: nowText, db)
                    }
                }
                if parts, BodyParts.isParted(old?.body) || BodyParts.isParted(now?.body) {
                    try BodyParts.write(
                        item: rowid, from: BodyParts.isParted(old?.body) ? old?.body : nil,
                        to: BodyParts.isParted(now?.body) ? now?.body : nil, trigrams: rowid <= trigramsThrough, db)
                }
                guard let id = ids[rowid] else { continue }
                // A row that went while its item came back under another rowid (SQLite gives a
                // new row the greatest rowid there is then, plus one, which may be smaller than
                // the one that went): the entry of that rowid writes the item's links and names.
                if now == nil, try Row.fetchOne(itemByID, arguments: [id]) != nil { continue }
                let rowReused = reused.contains(rowid)
                // A new row's item has no links or names in the index: those of a row that went
                // with its id went with it (`ON DELETE CASCADE`).
                let isNew = old == nil && !rowReused
                if old == nil || rowReused || old?.body != now?.body {
                    try LinkIndex.writeLinks(
                        of: id, body: now?.body, found: insertedLinks[rowid], replacing: !isNew, db)
                }
                let historyChanged = renamed.remove(id) != nil
                if old == nil || rowReused || old?.name != now?.name || historyChanged {
                    if aliases == nil, now?.body != nil {
                        aliases = try PropertyTable.values(
                            of: Property.aliases, items: ids.values.compactMap { UUID(storeText: $0) }, db)
                    }
                    var itsAliases: PropertyValue?? = nil
                    if let aliases, let object = UUID(storeText: id) { itsAliases = .some(aliases[object]) }
                    try LinkIndex.writeNames(
                        of: id, name: now?.name, isNote: now?.body != nil, replacing: !isNew,
                        onlyCurrentName: !historyChanged && startedNames.contains(id), aliases: itsAliases, db)
                }
            }
            indexed = [:]
            insertedText = [:]
            insertedLinks = [:]
            ids = [:]
            rows = [:]
            reused = []
            startedNames = []
            heldBytes = 0
        }

        /// Writes the names of the items whose history of names changed and that no entry
        /// gathered covered (those are written with their entry).
        private func writeNames(_ db: Database) throws {
            guard !renamed.isEmpty else { return }
            let read = try db.cachedStatement(sql: "SELECT kind, name FROM item WHERE id = ?")
            for id in renamed.sorted() {
                let row = try Row.fetchOne(read, arguments: [id])
                try LinkIndex.writeNames(of: id, name: row?["name"], isNote: (row?["kind"] as String?) == "note", db)
            }
        }
    }

    /// Whether two texts have the same bytes (Swift's `==` takes canonically equivalent text
    /// as equal, which the indexes do not).
    fileprivate static func sameBytes(_ a: String?, _ b: String?) -> Bool {
        guard let a, let b else { return a == nil && b == nil }
        return a.hasSameBytes(as: b)
    }

    private static func entry(of id: String, _ db: Database) throws -> Entry? {
        // A cached statement with a placeholder: it runs for every item a save or an import changes.
        let row = try Row.fetchOne(
            db.cachedStatement(sql: "SELECT rowid, name, body FROM item WHERE id = ?"), arguments: [id])
        return row.map { Entry(rowid: $0["rowid"], name: $0["name"], body: $0["body"]) }
    }
}
