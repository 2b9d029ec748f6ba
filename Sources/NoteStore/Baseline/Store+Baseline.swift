import Foundation
import GRDB

#if canImport(Glibc)
    import Glibc
#endif

/// What a copy of the store made for a baseline held when it was made.
public struct BaselineCopy: Sendable {
    /// What sync recorded in the copy (what it had applied and exported), read in the same
    /// snapshot as the notes.
    public let sync: SyncSnapshot
    /// The store's clock in the copy.
    public let clock: UInt64
    /// The notes and collections, and the attachments, in the copy.
    public let items: Int
    public let attachments: Int
    /// Outbox rows in the copy: local saves not yet exported, whose changes it holds too.
    public let unexported: Int
    /// The model version of the copy: the store's.
    public var modelVersion = StoreSchema.currentModelVersion
    /// The cuts of history this copy made (``HistoryPruning``).
    public var cuts: [HistoryCut] = []
    /// Whether the copy records cuts of history: made now, or recorded in the store.
    public var recordsCuts = false
}

extension Store {
    /// Copies the store into `file` for a baseline: one consistent snapshot of the database
    /// (`VACUUM INTO`: the notes, their history, stamps, tombstones and the full-text index),
    /// without what belongs to this device alone (its id and the record of its file, outbox,
    /// sync's records, blob releases), with `header` in a table of its own, the knowledge of its own changes
    /// recorded (a store that starts from the copy has seen them), in rollback-journal mode and
    /// synced to disk.
    ///
    /// `retention` is given what the copy held and says what it drops of history, if anything
    /// (``HistoryPruning``). `header` is given what the copy held, and
    /// returns the header's keys and values. `file` must not exist.
    public func copyForBaseline(
        to file: URL, retention: (BaselineCopy) throws -> HistoryPruning? = { _ in nil },
        header: (BaselineCopy) throws -> [String: String]
    ) throws -> BaselineCopy {
        do {
            // Without foreign keys, VACUUM INTO copies each table's rows with their rowids
            // (SQLite's transfer optimization), which the full-text index refers to.
            var reading = Configuration()
            reading.readonly = true
            reading.foreignKeysEnabled = false
            let source = try DatabaseQueue(
                path: folder.appendingPathComponent(Self.databaseFileName).path, configuration: reading)
            try source.inDatabase { db in try db.execute(literal: "VACUUM INTO \(file.path)") }
            try source.close()
            var configuration = Configuration()
            configuration.journalMode = .default
            // As for the copy above: the VACUUM below keeps the rowids the index refers to.
            configuration.foreignKeysEnabled = false
            let copy = try DatabaseQueue(path: file.path, configuration: configuration)
            let made = try copy.write { db -> BaselineCopy in
                let sync = try SyncLedger.snapshot(db)
                let clock =
                    UInt64(try String.fetchOne(db, sql: "SELECT value FROM metadata WHERE key = 'clock'") ?? "0") ?? 0
                var made = BaselineCopy(
                    sync: sync, clock: clock,
                    items: try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM item") ?? 0,
                    attachments: try Int.fetchOne(
                        db, sql: "SELECT (SELECT COUNT(*) FROM attachment) + (SELECT COUNT(*) FROM file_attachment)")
                        ?? 0,
                    unexported: try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM outbox") ?? 0)
                try db.execute(
                    sql: """
                        DELETE FROM outbox;
                        DELETE FROM sqlite_sequence WHERE name = 'outbox';
                        DELETE FROM sync_state;
                        DELETE FROM blob_release;
                        DELETE FROM metadata \
                        WHERE key IN (
                            'device_id', 'store_file', 'device_replaced', '\(TrigramIndex.buildKey)',
                            '\(LinkIndex.buildKey)',
                            '\(ListingIndex.buildKey)'
                        );
                        """)
                // The link, trigram and listing indexes and the parts of long bodies are derived:
                // the store made from the baseline builds its own, and a baseline stays what a
                // store of its model version is to every build, its word index whole.
                try BodyParts.indexWhole(db)
                try db.execute(
                    sql: """
                        DROP TABLE IF EXISTS link;
                        DROP TABLE IF EXISTS link_name;
                        DELETE FROM grdb_migrations WHERE identifier = '\(StoreSchema.linksMigration)';
                        DROP TABLE IF EXISTS \(TrigramIndex.vocabulary);
                        DROP TABLE IF EXISTS \(TrigramIndex.table);
                        DELETE FROM grdb_migrations WHERE identifier = '\(StoreSchema.trigramsMigration)';
                        DELETE FROM grdb_migrations \
                        WHERE identifier = '\(StoreSchema.trigramsWithoutPositionsMigration)';
                        DELETE FROM grdb_migrations WHERE identifier = '\(StoreSchema.wordIndexHashSizeMigration)';
                        DROP TABLE IF EXISTS \(BodyParts.trigramVocabulary);
                        DROP TABLE IF EXISTS \(BodyParts.trigramTable);
                        DROP TABLE IF EXISTS \(BodyParts.wordTable);
                        DROP TABLE IF EXISTS \(BodyParts.table);
                        DELETE FROM grdb_migrations WHERE identifier = '\(StoreSchema.bodyPartsMigration)';
                        DROP INDEX IF EXISTS \(ListingIndex.name);
                        DELETE FROM grdb_migrations WHERE identifier = '\(StoreSchema.listingIndexMigration)';
                        DELETE FROM grdb_migrations WHERE identifier = '\(StoreSchema.deferredReferencesMigration)';
                        """)
                // References as the model version declares them: a store made from the baseline
                // defers them again when it opens.
                try StoreSchema.undeferReferences(db)
                // Sync's records are this device's alone, and no model version's: as the link index.
                try StoreSchema.dropSyncRecords(db)
                // Without properties and file attachments, the copy is of model 8, which builds
                // before them read.
                if try StoreSchema.dropUnusedModel10Tables(db) {
                    made.modelVersion = Store.baselineModelVersionWithoutProperties
                }
                try SyncLedger(db: db).noteKnowledge([deviceID: clock])
                if let pruning = try retention(made) { made.cuts = try VersionStorage.prune(pruning, db) }
                made.recordsCuts = try Bool.fetchOne(db, sql: "SELECT EXISTS (SELECT 1 FROM history_cut)")!
                // Every build reads a line that holds its contents.
                try VersionStorage.inlineApartTexts(db)
                // Texts that arrived by sync are kept in history and in the item: once is enough.
                try VersionStorage.keepTextsOnce(db)
                if try !BaselineDatabase.indexMatchesItems(db) {
                    try db.execute(sql: "INSERT INTO item_fts(item_fts) VALUES ('rebuild')")
                }
                // The index keeps what edits replaced until its segments merge: a library whose
                // notes were each edited ten times had four times the index it needs.
                try db.execute(sql: "INSERT INTO item_fts(item_fts) VALUES ('optimize')")
                try BaselineDatabase.createHeader(try header(made), db)
                return made
            }
            // Pages the copy no longer uses (the index's old segments) go, when they are many.
            let (pages, free) = try copy.read { db in
                (
                    try Int.fetchOne(db, sql: "PRAGMA page_count") ?? 0,
                    try Int.fetchOne(db, sql: "PRAGMA freelist_count") ?? 0
                )
            }
            if free > pages / 20 { try copy.writeWithoutTransaction { db in try db.execute(sql: "VACUUM") } }
            try copy.writeWithoutTransaction { db in try db.execute(sql: "PRAGMA journal_mode = DELETE") }
            try copy.close()
            try Self.syncFile(file)
            return made
        } catch let error as StoreError {
            throw error
        } catch {
            throw StoreError.database(path: file.path, underlying: error)
        }
    }

    /// Makes the store of a new device in `folder` from a verified baseline `file` (see
    /// ``BaselineDatabase/verify(_:)``), which must be in the store folder, and opens it.
    ///
    /// The baseline's blobs are written first, each fetched by `blob` (and checked against its
    /// hash); a blob that `blob` cannot give, or gives with other bytes, is left out, and the
    /// attachments that use it wait for their bytes (``blobsWithoutBytes()``). Then the file
    /// becomes the store's database, with `clock` as the store's clock and without its header,
    /// by `link(2)`: only when the store has no database yet, never replacing one. The new
    /// store makes its own device id when it opens. Throws when the store got a database
    /// meanwhile; `file` is removed in every case.
    public static func create(
        folder: URL, fromBaseline file: URL, clock: UInt64, blob: (_ sha256: String, _ destination: URL) throws -> Void
    ) throws -> Store {
        let folder = folder.standardizedFileURL
        let database = folder.appendingPathComponent(databaseFileName)
        defer { unlink(file.path) }
        try StoreFolder.prepare(folder.path)
        let blobs = BlobStore(storeFolder: folder)
        do {
            let queue = try DatabaseQueue(path: file.path)
            for sha256 in try queue.read(BaselineDatabase.blobsInUse) where !blobs.exists(sha256) {
                // A blob that cannot be had now (missing, damaged) leaves its attachments
                // waiting for their bytes: every note joins, and sync fetches them later.
                // Copied a chunk at a time into a temporary file, then checked and moved.
                try blobs.makeFolder()
                let temporary = blobs.folder.appendingPathComponent(BlobStore.temporaryName())
                guard (try? blob(sha256, temporary)) != nil else {
                    unlink(temporary.path)
                    continue
                }
                _ = try blobs.adopt(temporary.path, sha256: sha256)
            }
            try queue.write { db in
                try db.execute(sql: "DROP TABLE \(BaselineDatabase.headerTable)")
                try db.execute(literal: "UPDATE metadata SET value = \(String(clock)) WHERE key = 'clock'")
            }
            try queue.close()
            try syncFile(file)
        } catch BlobError.io(let path, let reason) {
            throw StoreError.cannotOpen(path: path, reason: reason)
        } catch let error as StoreError {
            throw error
        } catch {
            throw StoreError.database(path: file.path, underlying: error)
        }
        guard link(file.path, database.path) == 0 else {
            let reason = errno == EEXIST ? "it got a database while joining" : StoreFolder.errnoText()
            throw StoreError.cannotOpen(path: folder.path, reason: reason)
        }
        let fd = open(folder.path, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        if fd >= 0 {
            fsync(fd)
            close(fd)
        }
        return try Store(folder: folder)
    }

    /// Whether the store has its database file; a new device has none until it first opens.
    public static func hasDatabase(in folder: URL) -> Bool {
        FileManager.default.fileExists(atPath: folder.appendingPathComponent(databaseFileName).path)
    }

    static func syncFile(_ file: URL) throws {
        let fd = open(file.path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0, fsync(fd) == 0 else {
            let reason = StoreFolder.errnoText()
            if fd >= 0 { close(fd) }
            throw StoreError.cannotOpen(path: file.path, reason: reason)
        }
        close(fd)
    }
}
