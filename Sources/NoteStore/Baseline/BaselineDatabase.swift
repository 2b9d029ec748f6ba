import Foundation
import Synchronization
import GRDB
import CSQLiteHardening
import GRDBSQLite

/// A baseline's database: a copy of a store (``Store/copyForBaseline(to:header:)``) with a
/// header table, read as untrusted input.
///
/// ``verify(_:)`` decides whether a file may be used before anything else reads it: the file's
/// first 100 bytes must be those of an SQLite database with 4,096-byte pages in rollback-journal
/// mode, whose size is a whole number of pages; then it is opened read-only with SQLite's
/// defensive settings (defensive mode, untrusted schema, triggers, views and extensions off,
/// cell size checks on, no memory map), its schema must be exactly the store's of a model
/// version this build reads (``readableModelVersions``) plus the header table (a trigger, a view,
/// an index or a column more or less is refused), SQLite's integrity check must pass
/// (`PRAGMA quick_check`, and the indexes checked against their tables by ``IndexCheck``, which is
/// faster than `PRAGMA integrity_check`), the migrations recorded must be the store's, ids, names
/// and bodies must follow the store's rules, and every reference between rows (a parent, an
/// attachment's note) must be to an item it holds. Only then are its header and rows read.
public final class BaselineDatabase {
    /// The table holding the header: keys and values, as text.
    static let headerTable = "baseline"
    /// The page size of every baseline: the store's.
    static let pageSize = 4096

    /// The header's keys and values.
    public let header: [String: String]
    /// The model version of its schema: one of ``readableModelVersions``.
    public private(set) var modelVersion: Int
    private(set) var queue: DatabaseQueue

    private init(header: [String: String], queue: DatabaseQueue, modelVersion: Int) {
        self.header = header
        self.queue = queue
        self.modelVersion = modelVersion
    }

    /// Upgrades the verified database, in `file` (the copy it was opened from, in the store
    /// folder), to this build's model, as a store of its version is upgraded, and reads it from
    /// there: before the records of a baseline of an older model are merged into a store, which
    /// reads them as a store of this build. Nothing when it is of this build's model.
    public func upgradeToCurrentModel(file: URL) throws {
        guard modelVersion < StoreSchema.currentModelVersion else { return }
        try queue.close()
        let writable = try DatabaseQueue(path: file.path, configuration: Self.hardenedConfiguration(readonly: false))
        try StoreSchema.baselineUpgradeMigrator.migrate(writable)
        try writable.close()
        queue = try DatabaseQueue(path: file.path, configuration: Self.hardenedConfiguration(readonly: true))
        modelVersion = StoreSchema.currentModelVersion
    }

    /// Opens and checks the database in `file`; throws ``BaselineProblem`` with the reason
    /// when it may not be used.
    public static func verify(_ file: URL) throws(BaselineProblem) -> BaselineDatabase {
        try checkFileHeader(file)
        let queue: DatabaseQueue
        do {
            queue = try DatabaseQueue(path: file.path, configuration: hardenedConfiguration(readonly: true))
        } catch {
            throw BaselineProblem("it cannot be opened as a database: \(StoreError.describe(error))")
        }
        do {
            let (header, modelVersion) = try queue.read { db throws -> ([String: String], Int) in
                let modelVersion = try checkSchema(db)
                try checkIntegrity(db, modelVersion: modelVersion, file: file)
                try checkContents(db, modelVersion: modelVersion)
                let header = Dictionary(
                    try Row.fetchAll(db, sql: "SELECT key, value FROM \(headerTable)").map {
                        ($0["key"] as String, $0["value"] as String)
                    },
                    uniquingKeysWith: { first, _ in first })
                return (header, modelVersion)
            }
            return BaselineDatabase(header: header, queue: queue, modelVersion: modelVersion)
        } catch let problem as BaselineProblem {
            try? queue.close()
            throw problem
        } catch {
            try? queue.close()
            throw BaselineProblem("it cannot be read: \(StoreError.describe(error))")
        }
    }

    /// Hands everything the baseline holds to `body`, one record at a time, as a store's
    /// snapshot orders it (``Store/snapshot()``).
    public func forEachRecord(_ body: (SnapshotRecord) throws -> Void) throws {
        try queue.read { db in try Store.forEachSnapshotRecord(db, body) }
    }

    /// The cuts of history it records (model 7): its history holds no version below them.
    public func historyCuts() throws -> [HistoryCut] {
        guard modelVersion >= 7 else { return [] }
        return try queue.read { db in try VersionStorage.cuts(db) }
    }

    /// Whether its history holds a version.
    public func holdsVersion(of object: UUID, _ property: HistoryProperty, at stamp: ChangeStamp) throws -> Bool {
        try queue.read { db in try Replica(db: db).hasVersion(of: object, property, at: stamp) }
    }

    /// The blobs its attachments use.
    public func blobs() throws -> [String] {
        try queue.read(Self.blobsInUse)
    }

    /// The blobs the attachments of a store, or of a baseline of any model version, use, sorted.
    static func blobsInUse(_ db: Database) throws -> [String] {
        let files = try db.tableExists("file_attachment") ? " UNION SELECT sha256 FROM file_attachment" : ""
        return try String.fetchAll(db, sql: "SELECT sha256 FROM attachment\(files) ORDER BY sha256")
    }

    /// The greatest clock of each device whose changes it holds.
    public func knowledge() throws -> [UUID: UInt64] {
        try queue.read { db in
            var result: [UUID: UInt64] = [:]
            for row in try Row.fetchAll(db, sql: "SELECT device, clock FROM knowledge") {
                if let device = UUID(storeText: row["device"]) { result[device] = UInt64(bitPattern: row["clock"]) }
            }
            return result
        }
    }

    /// The store's clock in the baseline.
    public func clock() throws -> UInt64 {
        try queue.read { db in
            UInt64(try String.fetchOne(db, sql: "SELECT value FROM metadata WHERE key = 'clock'") ?? "0") ?? 0
        }
    }

    /// The notes and collections it holds.
    public func itemCount() throws -> Int {
        try queue.read { db in try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM item") ?? 0 }
    }

    public func close() {
        try? queue.close()
    }

    static func createHeader(_ header: [String: String], _ db: Database) throws {
        try db.execute(
            sql: "CREATE TABLE \(headerTable) (key TEXT PRIMARY KEY NOT NULL, value TEXT NOT NULL) WITHOUT ROWID")
        for (key, value) in header.sorted(by: { $0.key < $1.key }) {
            try db.execute(literal: "INSERT INTO \(sql: headerTable)(key, value) VALUES (\(key), \(value))")
        }
    }

    /// Whether the full-text index has an entry for each item, by rowid, and none other (it
    /// refers to items by rowid).
    static func indexMatchesItems(_ db: Database) throws -> Bool {
        let items = try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM item") ?? 0
        let entries = try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM item_fts_docsize") ?? 0
        let strays =
            try Int.fetchOne(
                db,
                sql: """
                    SELECT COUNT(*) FROM item_fts_docsize \
                    WHERE NOT EXISTS (SELECT 1 FROM item WHERE item.rowid = item_fts_docsize.id)
                    """
            ) ?? 0
        return items == entries && strays == 0
    }

    // MARK: Checks

    private static func checkFileHeader(_ file: URL) throws(BaselineProblem) {
        guard let handle = try? FileHandle(forReadingFrom: file) else { throw BaselineProblem("it cannot be opened") }
        defer { try? handle.close() }
        let bytes = [UInt8]((try? handle.read(upToCount: 100)) ?? Data())
        let size = (try? handle.seekToEnd()) ?? 0
        guard bytes.count == 100, bytes.starts(with: Array("SQLite format 3\0".utf8)) else {
            throw BaselineProblem("it is not an SQLite database")
        }
        let pageSize = Int(bytes[16]) << 8 | Int(bytes[17])
        guard pageSize == Self.pageSize else {
            throw BaselineProblem("its page size is \(pageSize == 1 ? 65536 : pageSize) bytes, not \(Self.pageSize)")
        }
        guard bytes[18] == 1, bytes[19] == 1 else { throw BaselineProblem("it is not in rollback-journal mode") }
        // Text in UTF-8, as a store writes it: the check of its indexes compares text as bytes.
        guard bytes[56..<60].elementsEqual([0, 0, 0, 1]) else { throw BaselineProblem("its text is not in UTF-8") }
        let pages = bytes[28..<32].reduce(UInt64(0)) { $0 << 8 | UInt64($1) }
        guard size > 0, size % UInt64(pageSize) == 0, pages == size / UInt64(pageSize) else {
            throw BaselineProblem("its size (\(size) bytes) is not the \(pages) pages its header counts")
        }
    }

    /// SQLite's defensive settings; read-only, also cell size checks, no memory map and queries
    /// only.
    private static func hardenedConfiguration(readonly: Bool) -> Configuration {
        var configuration = Configuration()
        configuration.readonly = readonly
        configuration.foreignKeysEnabled = false
        configuration.prepareDatabase { db in
            let code = notes_sqlite_harden(db.sqliteConnection)
            guard code == SQLITE_OK else {
                throw DatabaseError(
                    resultCode: ResultCode(rawValue: code), message: "cannot set SQLite's defensive options")
            }
            if readonly {
                try db.execute(sql: "PRAGMA cell_size_check = ON; PRAGMA mmap_size = 0; PRAGMA query_only = ON")
            }
        }
        return configuration
    }

    /// The model versions of the baselines this build reads: its own, and those from model 4
    /// (baselines written before tags) on, which become a store of this version when a device
    /// joins from one.
    public static let readableModelVersions = StoreSchema.storeModelVersions.filter { $0 >= 4 }

    /// What `sqlite_schema` of a baseline of a readable model version holds, but root pages,
    /// with the migrations a store of that version has recorded: made when first asked for, by
    /// migrating a database in memory to that version, and kept.
    private static func expectedSchema(of version: Int) throws -> ExpectedSchema {
        if let known = expectedSchemas.withLock({ $0[version] }) { return known }
        let queue = try DatabaseQueue()
        let migration = "v\(version)"
        try StoreSchema.migrator.migrate(queue, upTo: migration)
        let made = ExpectedSchema(
            schema: try queue.write { db in
                try createHeader([:], db)
                return try schema(db)
            },
            migrations: Array(StoreSchema.migrator.migrations.prefix { $0 != migration }) + [migration])
        expectedSchemas.withLock { $0[version] = made }
        return made
    }

    /// The readable model versions in the order a baseline's schema is compared with theirs:
    /// those of the baselines this build writes first (without properties, and with them), so
    /// that the schemas of the others are made only for a baseline of theirs, or one that
    /// matches none.
    private static let versionsInCheckOrder =
        [Store.baselineModelVersionWithoutProperties, StoreSchema.currentModelVersion]
        + readableModelVersions.sorted(by: >).filter {
            $0 != Store.baselineModelVersionWithoutProperties && $0 != StoreSchema.currentModelVersion
        }

    private static let expectedSchemas = Mutex<[Int: ExpectedSchema]>([:])

    private struct ExpectedSchema: Sendable {
        let schema: [SchemaEntry]
        let migrations: [String]
    }

    private struct SchemaEntry: Equatable, Sendable {
        let type: String
        let name: String
        let table: String
        let sql: String?
    }

    private static func schema(_ db: Database) throws -> [SchemaEntry] {
        try Row.fetchAll(db, sql: "SELECT type, name, tbl_name, sql FROM sqlite_schema ORDER BY type, name").map {
            SchemaEntry(type: $0["type"], name: $0["name"], table: $0["tbl_name"], sql: $0["sql"])
        }
    }

    /// Checks that the schema is exactly that of a readable model version; returns it.
    private static func checkSchema(_ db: Database) throws -> Int {
        let found = try schema(db)
        for version in versionsInCheckOrder where try expectedSchema(of: version).schema == found { return version }
        let expected = try expectedSchema(of: StoreSchema.currentModelVersion).schema
        let names = Set(expected.map(\.name))
        if let extra = found.first(where: { !names.contains($0.name) }) {
            throw BaselineProblem("its schema has a \(extra.type) '\(extra.name)' that a store does not have")
        }
        let foundNames = Set(found.map(\.name))
        if let missing = expected.first(where: { !foundNames.contains($0.name) }) {
            throw BaselineProblem("its schema lacks the \(missing.type) '\(missing.name)'")
        }
        let differing = found.first { entry in !expected.contains(entry) }
        throw BaselineProblem(
            "its schema defines '\(differing?.name ?? "?")' otherwise than "
                + "a store of model version \(StoreSchema.currentModelVersion)"
        )
    }

    /// SQLite's quick check (pages, records, NOT NULL and CHECK constraints), then the indexes
    /// against their tables (``IndexCheck``): together what its integrity check does, faster.
    /// Tables without rowids, and the lines of history (model 8: their index, and each line
    /// read, ``HistoryLineCheck``), are checked on a second connection to `file` while this one
    /// checks the others.
    private static func checkIntegrity(_ db: Database, modelVersion: Int, file: URL) throws {
        let messages = try String.fetchAll(db, sql: "PRAGMA quick_check(3)")
        guard messages == ["ok"] else {
            throw BaselineProblem("it fails SQLite's integrity check: \(messages.joined(separator: "; "))")
        }
        let beside = BackgroundWork {
            let queue = try DatabaseQueue(path: file.path, configuration: hardenedConfiguration(readonly: true))
            defer { try? queue.close() }
            return try queue.read { db in
                try IndexCheck.problemInTablesWithRowids(db, including: { $0 == HistoryLineCheck.table })
                    ?? IndexCheck.problemInTablesWithoutRowids(db)
                    ?? (modelVersion >= 8 ? HistoryLineCheck.problem(db) : nil)
            }
        }
        let found = Result { try IndexCheck.problemInTablesWithRowids(db, including: { $0 != HistoryLineCheck.table }) }
        let foundBeside = beside.wait()
        if let problem = try found.get() ?? foundBeside.get() {
            throw BaselineProblem("it fails SQLite's integrity check: \(problem)")
        }
        let expectedMigrations = try expectedSchema(of: modelVersion).migrations
        let migrations = try String.fetchAll(db, sql: "SELECT identifier FROM grdb_migrations ORDER BY identifier")
        guard migrations == expectedMigrations.sorted() else {
            throw BaselineProblem(
                "it records the migrations \(migrations), not those of a store of model version \(modelVersion)")
        }
        let model = try String.fetchOne(db, sql: "SELECT value FROM metadata WHERE key = 'model_version'")
        guard model == String(modelVersion) else {
            throw BaselineProblem("its model version is \(model ?? "missing"), not \(modelVersion)")
        }
        if try String.fetchOne(db, sql: "SELECT value FROM metadata WHERE key = 'device_id'") != nil {
            throw BaselineProblem("it holds a device id: it is a store, not a baseline")
        }
    }

    /// Properties (model 10) within the store's rules: keys, stamps, and values that read as
    /// JSON within bounds.
    private static func checkProperties(_ db: Database) throws {
        let properties = try Row.fetchCursor(
            db, sql: "SELECT item, key, stamp, value, typeof(position) AS positionType FROM property")
        while let row = try properties.next() {
            guard isStoreUUID(row["item"] as DatabaseValue), let key: String = row["key"], Property.problem(key) == nil,
                let stamp: String = row["stamp"], ChangeStamp(text: stamp) != nil, let json: String = row["value"],
                let value = PropertyValue(json: json), value.problem == nil,
                (row["positionType"] as String) == "integer"
            else { throw BaselineProblem("a property breaks the store's rules") }
        }
        let removals = try Row.fetchCursor(
            db, sql: "SELECT item, key, device, typeof(clock) AS clockType FROM property_removal")
        while let row = try removals.next() {
            guard isStoreUUID(row["item"] as DatabaseValue), let key: String = row["key"], Property.problem(key) == nil,
                isStoreUUID(row["device"] as DatabaseValue), (row["clockType"] as String) == "integer"
            else { throw BaselineProblem("a property removal breaks the store's rules") }
        }
    }

    /// Each file attachment (model 10) of an item it holds, with ids, blob name, media type,
    /// file name and caption within the store's rules.
    private static func checkFileAttachments(_ db: Database) throws {
        let dangling =
            try Bool.fetchOne(
                db,
                sql: """
                    SELECT EXISTS (SELECT 1 FROM file_attachment \
                    WHERE NOT EXISTS (SELECT 1 FROM item WHERE id = file_attachment.note))
                    """) ?? true
        guard !dangling else { throw BaselineProblem("it refers to an item it does not hold") }
        let files = try Row.fetchCursor(
            db, sql: "SELECT id, note, sha256, media_type, name, bytes, caption FROM file_attachment")
        while let row = try files.next() {
            guard isStoreUUID(row["id"] as DatabaseValue), isStoreUUID(row["note"] as DatabaseValue),
                let sha256: String = row["sha256"], BlobName.isValid(sha256),
                let mediaType: String = row["media_type"], MediaTypeSniffer.isValid(mediaType),
                (row["name"] as String?).map(Attachment.isValidFileName) ?? true,
                let bytes: Int64 = row["bytes"], bytes <= Attachment.maximumFileBytes,
                ((row["caption"] as String?)?.count ?? 0) <= Attachment.maximumCaptionLength
            else { throw BaselineProblem("a file attachment breaks the store's rules") }
        }
    }

    /// Ids in the store's form, names and bodies within the store's rules, in one pass over
    /// the items (and one over the attachments).
    private static func checkContents(_ db: Database, modelVersion: Int) throws {
        try checkItems(db)
        // The store's foreign keys: each parent, each attachment's note and each displaced
        // item is an item. Parents are looked up once each (a library has few collections),
        // not once per item as `PRAGMA foreign_key_check` does.
        let dangling =
            try Bool.fetchOne(
                db,
                sql: """
                    SELECT EXISTS (SELECT 1 FROM (SELECT DISTINCT parent FROM item WHERE parent IS NOT NULL) AS used
                            WHERE NOT EXISTS (SELECT 1 FROM item WHERE id = used.parent))
                        OR EXISTS (SELECT 1 FROM attachment \
                    WHERE NOT EXISTS (SELECT 1 FROM item WHERE id = attachment.note))
                        OR EXISTS (SELECT 1 FROM displaced \
                    WHERE NOT EXISTS (SELECT 1 FROM item WHERE id = displaced.item))
                    """) ?? true
        guard !dangling else { throw BaselineProblem("it refers to an item it does not hold") }
        let attachments = try Row.fetchCursor(db, sql: "SELECT id, note, sha256 FROM attachment")
        while let row = try attachments.next() {
            guard isStoreUUID(row["id"] as DatabaseValue), isStoreUUID(row["note"] as DatabaseValue),
                let sha256: String = row["sha256"],
                sha256.utf8.allSatisfy({ (48...57).contains($0) || (97...102).contains($0) })
            else { throw BaselineProblem("an attachment breaks the store's rules") }
        }
        if modelVersion >= 10 { try checkFileAttachments(db) }
        guard modelVersion >= 5 else { return }
        let tags = try Row.fetchCursor(db, sql: "SELECT item, name, stamp FROM tag")
        while let row = try tags.next() {
            guard isStoreUUID(row["item"] as DatabaseValue), let name: String = row["name"], Tag.problem(name) == nil,
                let stamp: String = row["stamp"], ChangeStamp(text: stamp) != nil
            else { throw BaselineProblem("a tag breaks the store's rules") }
        }
        let removals = try Row.fetchCursor(
            db, sql: "SELECT item, name, device, typeof(clock) AS clockType FROM tag_removal")
        while let row = try removals.next() {
            guard isStoreUUID(row["item"] as DatabaseValue), let name: String = row["name"], Tag.problem(name) == nil,
                isStoreUUID(row["device"] as DatabaseValue), (row["clockType"] as String) == "integer"
            else { throw BaselineProblem("a tag removal breaks the store's rules") }
        }
        if modelVersion >= 10 { try checkProperties(db) }
        // Model 8 checks its cuts with its lines (``HistoryLineCheck``).
        guard modelVersion == 7 else { return }
        let cuts = try Row.fetchCursor(
            db,
            sql: """
                SELECT typeof(object) AS objectType, length(object) AS objectLength,
                    typeof(stamp) AS stampType, length(stamp) AS stampLength,
                    EXISTS (SELECT 1 FROM history WHERE history.object = history_cut.object
                        AND history.property = history_cut.property AND history.stamp = history_cut.stamp) AS hasVersion
                FROM history_cut
                """)
        while let row = try cuts.next() {
            guard (row["objectType"] as String) == "blob", (row["objectLength"] as Int) == 16,
                (row["stampType"] as String) == "blob",
                (row["stampLength"] as Int) == HistoryEncoding.stampSize, row["hasVersion"] as Bool
            else { throw BaselineProblem("a cut of history breaks the store's rules") }
        }
    }

    /// Each item's ids in the store's form, its name and the size of its body within the
    /// store's rules; and the full-text index with an entry for each item, by rowid, and no
    /// other (it refers to items by rowid). One pass over the items in the order of their
    /// rowids, in step with one over the index's entries, on SQLite's own calls: the items of
    /// a large baseline are most of its rows.
    private static func checkItems(_ db: Database) throws {
        let itemStatement = try db.makeStatement(
            sql: "SELECT rowid, id, parent, name, length(CAST(body AS BLOB)) FROM item ORDER BY rowid")
        let entryStatement = try db.makeStatement(sql: "SELECT id FROM item_fts_docsize ORDER BY id")
        let items = itemStatement.sqliteStatement
        let entries = entryStatement.sqliteStatement
        defer {
            sqlite3_reset(items)
            sqlite3_reset(entries)
            withExtendedLifetime((itemStatement, entryStatement)) {}
        }
        while try RawStatement.step(items) {
            guard try RawStatement.step(entries), sqlite3_column_int64(entries, 0) == sqlite3_column_int64(items, 0)
            else {
                throw BaselineProblem("its full-text index is not of its items")
            }
            guard isStoreUUID(items, 1), sqlite3_column_type(items, 2) == SQLITE_NULL || isStoreUUID(items, 2) else {
                throw BaselineProblem("an item id breaks the store's rules")
            }
            guard isValidName(items, 3) else { throw BaselineProblem("an item's name breaks the store's rules") }
            guard sqlite3_column_int64(items, 4) <= Item.maximumBodyBytes else {
                throw BaselineProblem("a body is larger than the store allows")
            }
        }
        guard try !RawStatement.step(entries) else { throw BaselineProblem("its full-text index is not of its items") }
    }

    /// Whether column `column` of the row is text that is a UUID as the store writes ids.
    private static func isStoreUUID(_ row: OpaquePointer, _ column: Int32) -> Bool {
        guard sqlite3_column_type(row, column) == SQLITE_TEXT, let text = sqlite3_column_text(row, column) else {
            return false
        }
        return isStoreUUID(UnsafeBufferPointer(start: text, count: Int(sqlite3_column_bytes(row, column))))
    }

    /// Whether column `column` of the row is text in UTF-8 that is a name as a store keeps it.
    private static func isValidName(_ row: OpaquePointer, _ column: Int32) -> Bool {
        guard sqlite3_column_type(row, column) == SQLITE_TEXT, let text = sqlite3_column_text(row, column) else {
            return false
        }
        let bytes = UnsafeBufferPointer(start: text, count: Int(sqlite3_column_bytes(row, column)))
        if isPlainName(bytes) { return true }
        guard let name = String(validating: bytes, as: UTF8.self) else { return false }
        return isValidName(name)
    }

    /// Whether a name is printable ASCII, 1 to 500 characters, with no space at either end:
    /// a name that needs no closer look.
    private static func isPlainName(_ utf8: UnsafeBufferPointer<UInt8>) -> Bool {
        !utf8.isEmpty && utf8.count <= Item.maximumNameLength && utf8.allSatisfy({ (0x20...0x7E).contains($0) })
            && utf8.first != 0x20 && utf8.last != 0x20
    }

    /// Whether a value is a UUID as the store writes ids: 36 lowercase characters with dashes.
    private static func isStoreUUID(_ value: DatabaseValue) -> Bool {
        guard case let .string(text) = value.storage else { return false }
        return Array(text.utf8).withUnsafeBufferPointer { isStoreUUID($0) }
    }

    private static func isStoreUUID(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        guard bytes.count == 36 else { return false }
        for (index, byte) in bytes.enumerated() {
            if [8, 13, 18, 23].contains(index) {
                guard byte == UInt8(ascii: "-") else { return false }
            } else if !((48...57).contains(byte) || (97...102).contains(byte)) {
                return false
            }
        }
        return true
    }

    /// A name as a store keeps it: trimmed, 1 to 500 characters, no line break, control or
    /// bidirectional formatting character. Printable ASCII needs no closer look.
    private static func isValidName(_ name: String) -> Bool {
        if Array(name.utf8).withUnsafeBufferPointer({ isPlainName($0) }) { return true }
        return Item.normalizedName(name) == name && (1...Item.maximumNameLength).contains(name.count)
            && !name.contains(where: \.isNewline) && ControlCharacters.first(in: name) == nil
    }
}

/// Why a baseline's database may not be used.
public struct BaselineProblem: Error, CustomStringConvertible, Sendable {
    public let description: String

    init(_ description: String) {
        self.description = description
    }

    public init(text description: String) {
        self.description = description
    }
}
