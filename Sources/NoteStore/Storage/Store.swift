import Foundation
import GRDB

/// A store folder on disk: the SQLite database, and later the attachment blobs.
///
/// The folder is created on first use with mode 0700 and the database file with mode 0600.
/// The database is in WAL mode, so that the command line and a watcher process can use one
/// store at the same time: a GRDB `DatabasePool` when the store is opened to write, a
/// `DatabaseQueue` of one read-only connection when it is opened to read. Work on the objects
/// goes through an ``ObjectContext``; the store itself offers fetches, search and observation.
public final class Store: Sendable {
    /// The store folder.
    public let folder: URL
    /// This store's device id: a random UUID made when the store was created.
    public let deviceID: UUID
    /// The model version of the open store (after migration, ``currentModelVersion``).
    public let modelVersion: Int
    /// The wall clock of the store's saves, and of sync's bounds on the clocks it adopts.
    public let wallClock: WallClock
    /// The store's connections: a pool opened to write, or one read-only connection.
    let database: any DatabaseWriter
    /// Written after each commit of ``write(durable:_:)``; nil for a store opened read-only.
    let commitSignal: CommitSignal?

    /// The model version this build writes.
    public static let currentModelVersion = StoreSchema.currentModelVersion
    /// The model version of a baseline of a store without properties: what builds before
    /// properties read.
    public static let baselineModelVersionWithoutProperties = 8

    /// The database file's name inside the store folder.
    public static let databaseFileName = "store.sqlite"

    /// How a store is opened.
    public enum Access: Sendable {
        /// Reads and writes; creates and migrates the store as needed.
        case readWrite
        /// Only reads, and writes nothing on opening, when the store exists at the current
        /// model version; otherwise it is opened as `readWrite`, to be created or migrated.
        case readOnly
    }

    /// Opens the store in `folder`, creating the folder and the database when absent and
    /// migrating an older model version.
    public init(folder: URL, access: Access = .readWrite, wallClock: WallClock = .system) throws {
        self.folder = folder.standardizedFileURL
        self.wallClock = wallClock
        let path = self.folder.path
        let databasePath = self.folder.appendingPathComponent(Self.databaseFileName).path
        if access == .readOnly, let opened = try Self.openReadOnly(databasePath, storePath: path) {
            (database, deviceID, modelVersion) = opened
            commitSignal = nil
            return
        }
        try StoreFolder.prepare(path)
        try StoreFolder.createPrivateFile(databasePath, storePath: path)
        commitSignal = CommitSignal(storeFolder: self.folder)
        let pool: DatabasePool
        do {
            pool = try DatabasePool(path: databasePath, configuration: Self.configuration())
            // Every commit is synced to disk: a saved note survives a power cut. (GRDB sets
            // NORMAL when it turns WAL on, so this comes after opening.)
            try pool.writeWithoutTransaction { try $0.execute(sql: "PRAGMA synchronous = FULL") }
            database = pool
        } catch {
            throw StoreError.cannotOpen(path: path, reason: StoreError.describe(error, at: path))
        }
        let (device, version) = try Self.migrate(pool, path: path)
        modelVersion = version
        deviceID = try Self.settleIdentity(pool, device: device, databasePath: databasePath, storePath: path)
        try finishBlobReleases()
        // Leftovers of processes killed while writing a blob (a join, an import, a save).
        blobs.removeStaleTemporaryFiles()
    }

    /// One read-only connection to an existing store at the current model version, else nil.
    /// (A read-only pool would open a writer connection that never writes, besides its reader:
    /// a command that reads pays for each connection's opening.)
    private static func openReadOnly(_ databasePath: String, storePath: String) throws -> (DatabaseQueue, UUID, Int)? {
        guard FileManager.default.fileExists(atPath: databasePath) else { return nil }
        var configuration = configuration()
        configuration.readonly = true
        var opened = try? DatabaseQueue(path: databasePath, configuration: configuration)
        if opened.flatMap({ try? $0.read { _ in } }) == nil, StoreFolder.isFull(storePath), !hasWALContent(databasePath)
        {
            // No room for the shared-memory file that WAL readers need: with no write-ahead log
            // content left to read, the database file alone is the store, read as immutable.
            opened = try? DatabaseQueue(path: "file:\(databasePath)?immutable=1", configuration: configuration)
        }
        guard let database = opened else { return nil }
        // A database without `metadata` (a new one) fails the read, and opens to write.
        let found = try? database.read { db -> (String?, String?, Bool) in
            let values = try Row.fetchAll(db, sql: "SELECT key, value FROM metadata")
            let byKey = Dictionary(
                values.map { ($0["key"] as String, $0["value"] as String) }, uniquingKeysWith: { a, _ in a })
            let complete = try StoreSchema.migrator.hasCompletedMigrations(db)
            return (byKey["model_version"], byKey["device_id"], complete)
        }
        // A store without every migration (a derived table that a baseline left out) opens to
        // write, which migrates it.
        guard let (versionText, deviceText, complete) = found, complete, let versionText,
            let version = Int(versionText),
            let deviceText, let device = UUID(storeText: deviceText)
        else { return nil }
        if version > currentModelVersion {
            throw StoreError.newerModel(path: storePath, found: version, supported: currentModelVersion)
        }
        guard version == currentModelVersion else { return nil }
        return (database, device, version)
    }

    /// Whether the store's write-ahead log holds frames not yet in the database file.
    private static func hasWALContent(_ databasePath: String) -> Bool {
        let attributes = try? FileManager.default.attributesOfItem(atPath: databasePath + "-wal")
        return ((attributes?[.size] as? Int) ?? 0) > 0
    }

    /// Removes blobs that a save released just before the process stopped.
    private func finishBlobReleases() throws {
        let pending = try read { try Int.fetchOne($0, sql: "SELECT COUNT(*) FROM blob_release") ?? 0 }
        if pending > 0 { try releaseBlobs() }
    }

    /// How long a connection waits for another's lock before it gives up, in milliseconds.
    static let lockWaitMilliseconds = 10_000

    private static func configuration() -> Configuration {
        var configuration = Configuration()
        // Another connection's lock is tried again every millisecond, for up to 10 s. SQLite's
        // own timeout waits longer and longer between tries (up to 100 ms): under a steady
        // stream of saves by another process, a watcher's export then waited up to a quarter
        // of a second for a lock that was free most of the time.
        configuration.busyMode = .callback { tries in
            guard tries < Store.lockWaitMilliseconds else { return false }
            usleep(1_000)
            return true
        }
        configuration.foreignKeysEnabled = true
        configuration.prepareDatabase { db in
            db.add(function: ItemFilter.foldFunction)
            try ItemSort.registerNameCollation(db)
            SnippetFunction.register(db)
            db.add(function: TrigramIndex.containsFunction)
            // The writer keeps more pages in memory (up to 32 MiB, allocated as used): a large
            // save or import reads back the pages of the index it writes, from the WAL, else.
            if !db.configuration.readonly { try db.execute(sql: "PRAGMA cache_size = -\(Store.writerCacheKiB)") }
        }
        return configuration
    }

    private static func migrate(_ pool: DatabasePool, path: String) throws -> (UUID, Int) {
        do {
            let (isEmpty, found) = try pool.read { db -> (Bool, Int?) in
                guard try db.tableExists("metadata") else {
                    return (try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM sqlite_master") == 0, nil)
                }
                let found = try String.fetchOne(
                    db, sql: "SELECT value FROM metadata WHERE key = 'model_version'"
                ).flatMap(Int.init)
                return (false, found)
            }
            if let found, found > currentModelVersion {
                throw StoreError.newerModel(path: path, found: found, supported: currentModelVersion)
            }
            // A new store is made in one transaction; any other is migrated step by step.
            let made = try isEmpty && pool.writeWithoutTransaction { try StoreSchema.createNew($0) }
            if !made { try StoreSchema.migrator.migrate(pool) }
            return try pool.write { db in
                let version =
                    try String.fetchOne(
                        db, sql: "SELECT value FROM metadata WHERE key = 'model_version'"
                    ).flatMap(Int.init) ?? currentModelVersion
                if let text = try String.fetchOne(
                    db, sql: "SELECT value FROM metadata WHERE key = 'device_id'"),
                    let id = UUID(storeText: text)
                {
                    return (id, version)
                }
                let id = UUID()
                try db.execute(literal: "INSERT INTO metadata(key, value) VALUES ('device_id', \(id.storeString))")
                return (id, version)
            }
        } catch let error as StoreError {
            throw error
        } catch {
            throw StoreError.cannotOpen(path: path, reason: StoreError.describe(error, at: path))
        }
    }

    /// Runs a read on the store, turning database errors into ``StoreError``.
    func read<T>(_ body: (Database) throws -> T) throws -> T {
        do {
            return try database.read(body)
        } catch let error as StoreError {
            throw error
        } catch {
            throw StoreError.database(path: folder.path, underlying: error)
        }
    }

    /// The page cache of the writer, in KiB.
    static let writerCacheKiB = 32 * 1024

    /// Runs `body` with the writer's page cache raised to `mebibytes` (allocated as used), for
    /// a bulk import of many saves: fewer pages of the indexes it writes are read back and
    /// written again. The cache is as before afterwards.
    public func withWriterCache<T>(mebibytes: Int, _ body: () throws -> T) throws -> T {
        try database.writeWithoutTransaction { try $0.execute(sql: "PRAGMA cache_size = -\(mebibytes * 1024)") }
        defer {
            try? database.writeWithoutTransaction { try $0.execute(sql: "PRAGMA cache_size = -\(Self.writerCacheKiB)") }
        }
        return try body()
    }

    /// Runs one write transaction, turning database errors into ``StoreError``.
    ///
    /// A durable transaction (the default) is synced to disk before this returns. One that is
    /// not (`synchronous = NORMAL` for its commit) is atomic all the same and seen at once by
    /// every connection; a power cut (not a crash of the process) can undo it, together with
    /// any other such transaction after the last durable one, never half of it.
    ///
    /// Afterwards, committed or not, the store's ``CommitSignal`` tells watching processes to
    /// check for a commit.
    func write<T>(durable: Bool = true, _ body: (Database) throws -> T) throws -> T {
        defer { commitSignal?.send() }
        do {
            guard !durable else { return try database.write(body) }
            return try database.writeWithoutTransaction { db in
                try db.cachedStatement(sql: "PRAGMA synchronous = NORMAL").execute()
                let outcome = Result { () throws -> T in
                    var result: T?
                    try db.inTransaction {
                        result = try body(db)
                        return .commit
                    }
                    return result!
                }
                // Every other transaction stays durable.
                try db.cachedStatement(sql: "PRAGMA synchronous = FULL").execute()
                return try outcome.get()
            }
        } catch let error as StoreError {
            throw error
        } catch {
            throw StoreError.database(path: folder.path, underlying: error)
        }
    }

    /// Runs `body` in one transaction after another, each of which a power cut may undo (as
    /// ``write(durable:_:)`` with `durable` false), until it returns true: derived work that
    /// a read must see done (``finishLinkIndex()``), named by `work` in the error of a store
    /// that cannot be written. A store opened read-only does it through
    /// a connection opened for it alone, so that read commands open without writing as
    /// before and only those that need the work write.
    func writeParts(finishing work: String, _ body: (Database) throws -> Bool) throws {
        guard database.configuration.readonly else {
            while try !write(durable: false, body) {}
            return
        }
        let databasePath = folder.appendingPathComponent(Self.databaseFileName).path
        // Read as immutable (a full disk), or on storage this process cannot write: SQLite
        // would open the writer read-only, or write under readers that take no locks.
        guard !database.path.contains("immutable=1"), access(databasePath, W_OK) == 0, access(folder.path, W_OK) == 0
        else {
            throw StoreError.database(
                path: folder.path,
                underlying: DatabaseError(
                    resultCode: .SQLITE_READONLY,
                    message: "\(work) is being built, and this store cannot be written here: "
                        + "'notes watch' or 'notes check --repair' finishes it where it can"))
        }
        do {
            var configuration = Self.configuration()
            configuration.prepareDatabase { db in try db.execute(sql: "PRAGMA synchronous = NORMAL") }
            let writer = try DatabaseQueue(path: databasePath, configuration: configuration)
            defer { try? writer.close() }
            while try !writer.write(body) {}
        } catch let error as StoreError {
            throw error
        } catch {
            throw StoreError.database(path: folder.path, underlying: error)
        }
    }

    /// Makes a new object context on this store.
    public func makeContext() -> ObjectContext {
        ObjectContext(store: self)
    }
}
