import Foundation
import GRDB

/// A store folder on disk: the SQLite database, and later the attachment blobs.
///
/// The folder is created on first use with mode 0700 and the database file with mode 0600.
/// The database is a GRDB `DatabasePool` in WAL mode, so that the command line and a watcher
/// process can use one store at the same time. Work on the objects goes through an
/// ``ObjectContext``; the store itself offers fetches, search and observation.
public final class Store: Sendable {
    /// The store folder.
    public let folder: URL
    /// This store's device id: a random UUID made when the store was created.
    public let deviceID: UUID
    /// The model version of the open store (after migration, ``currentModelVersion``).
    public let modelVersion: Int
    let pool: DatabasePool

    /// The model version this build writes.
    public static let currentModelVersion = StoreSchema.currentModelVersion

    /// The database file's name inside the store folder.
    public static let databaseFileName = "store.sqlite"

    /// Opens the store in `folder`, creating the folder and the database when absent and
    /// migrating an older model version.
    public init(folder: URL) throws {
        self.folder = folder.standardizedFileURL
        let path = self.folder.path
        try StoreFolder.prepare(path)
        let databasePath = self.folder.appendingPathComponent(Self.databaseFileName).path
        try StoreFolder.createPrivateFile(databasePath, storePath: path)
        do {
            pool = try DatabasePool(path: databasePath, configuration: Self.configuration())
        } catch {
            throw StoreError.cannotOpen(path: path, reason: StoreError.describe(error))
        }
        (deviceID, modelVersion) = try Self.migrate(pool, path: path)
        try finishBlobReleases()
    }

    /// Removes blobs that a save released just before the process stopped.
    private func finishBlobReleases() throws {
        let pending = try read { try Int.fetchOne($0, sql: "SELECT COUNT(*) FROM blob_release") ?? 0 }
        if pending > 0 { try releaseBlobs() }
    }

    private static func configuration() -> Configuration {
        var configuration = Configuration()
        configuration.busyMode = .timeout(10)
        configuration.foreignKeysEnabled = true
        configuration.prepareDatabase { db in
            db.add(function: ItemFilter.foldFunction)
            db.add(collation: ItemSort.nameCollation)
            try db.execute(sql: "PRAGMA synchronous = FULL")
        }
        return configuration
    }

    private static func migrate(_ pool: DatabasePool, path: String) throws -> (UUID, Int) {
        do {
            let found = try pool.read { db -> Int? in
                guard try db.tableExists("metadata") else { return nil }
                return try String.fetchOne(
                    db, sql: "SELECT value FROM metadata WHERE key = 'model_version'"
                ).flatMap(Int.init)
            }
            if let found, found > currentModelVersion {
                throw StoreError.newerModel(path: path, found: found, supported: currentModelVersion)
            }
            try StoreSchema.migrator.migrate(pool)
            return try pool.write { db in
                let version = try String.fetchOne(
                    db, sql: "SELECT value FROM metadata WHERE key = 'model_version'"
                ).flatMap(Int.init) ?? currentModelVersion
                if let text = try String.fetchOne(
                    db, sql: "SELECT value FROM metadata WHERE key = 'device_id'"),
                    let id = UUID(uuidString: text)
                {
                    return (id, version)
                }
                let id = UUID()
                try db.execute(
                    sql: "INSERT INTO metadata(key, value) VALUES ('device_id', ?)",
                    arguments: [id.storeString])
                return (id, version)
            }
        } catch let error as StoreError {
            throw error
        } catch {
            throw StoreError.cannotOpen(path: path, reason: StoreError.describe(error))
        }
    }

    /// Runs a read on the store, turning database errors into ``StoreError``.
    func read<T>(_ body: (Database) throws -> T) throws -> T {
        do {
            return try pool.read(body)
        } catch let error as StoreError {
            throw error
        } catch {
            throw StoreError.database(path: folder.path, underlying: error)
        }
    }

    /// Runs one write transaction, turning database errors into ``StoreError``.
    func write<T>(_ body: (Database) throws -> T) throws -> T {
        do {
            return try pool.write(body)
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
