import CFileSystem
import Foundation
import GRDB

#if canImport(Glibc)
    import Glibc
#endif

/// A store folder that was copied, or restored from a backup, is a new device.
///
/// The store records the inode and birth time of its database file. A copy (`cp -r`, `rsync`,
/// a restore from a backup, a move to another file system) has other ones: when it is first opened to write,
/// it takes a new device id before anything is saved, so that two stores never save under one
/// id (their stamps could tie, and each would take the other's logs for its own). What it saved
/// under the old id stays as it was: the old id becomes a device like any other, whose changes
/// this store has seen up to its clock, and sync takes over from it (``replacedDeviceID``).
/// A restore that brings back the very same file system (a virtual machine snapshot), or that
/// writes the files back in place, keeps them; sync's recovery of a store's own logs covers that case.
extension Store {
    static let storeFileKey = "store_file"
    static let replacedDeviceKey = "device_replaced"

    /// The device id this store had before it was copied or restored, until sync has taken over
    /// from it (``finishReplacement(_:)``); nil for a store that was not.
    public var replacedDeviceID: UUID? {
        get throws {
            try read(Self.replacedDeviceID)
        }
    }

    /// ``replacedDeviceID`` as `db` holds it.
    static func replacedDeviceID(_ db: Database) throws -> UUID? {
        // Asked at every sync: prepared once per connection.
        try String.fetchOne(
            db.cachedStatement(sql: "SELECT value FROM metadata WHERE key = ?"), arguments: [replacedDeviceKey]
        ).flatMap(UUID.init(storeText:))
    }

    /// Runs `body` on sync's bookkeeping and forgets the replaced device id, in one transaction.
    public func finishReplacement(_ body: (SyncLedger) throws -> Void) throws {
        try write { db in
            try body(SyncLedger(db: db))
            try db.execute(literal: "DELETE FROM metadata WHERE key = \(Self.replacedDeviceKey)")
        }
    }

    /// The database file's inode and birth time, as `inode` or `inode@seconds.nanoseconds`: a
    /// file made anew has another (a freed inode is soon given to a new file, so the inode
    /// alone could match a copy put where the store was).
    static func fileIdentity(_ path: String) -> String? {
        var inode: UInt64 = 0
        var seconds: Int64 = 0
        var nanoseconds: UInt32 = 0
        switch notes_file_identity(path, &inode, &seconds, &nanoseconds) {
        case 1: return "\(inode)@\(seconds).\(nanoseconds)"
        case 0: return String(inode)
        default: return nil
        }
    }

    /// The store's device id once its database file is known to be its own: the id found, or
    /// a new one when the file is not the one the store recorded (see above).
    static func settleIdentity(_ pool: DatabasePool, device: UUID, databasePath: String, storePath: String) throws
        -> UUID
    {
        guard let file = fileIdentity(databasePath) else { return device }
        let recordedFile = SQLRequest<String>(literal: "SELECT value FROM metadata WHERE key = \(storeFileKey)")
        let recorded = try? pool.read { db in try recordedFile.fetchOne(db) }
        if recorded == file { return device }
        do {
            return try pool.write { db in
                // Another process may have settled it meanwhile.
                let current =
                    try String.fetchOne(db, sql: "SELECT value FROM metadata WHERE key = 'device_id'")
                    .flatMap(UUID.init(storeText:)) ?? device
                let recorded = try recordedFile.fetchOne(db)
                if recorded == file { return current }
                try db.execute(literal: "INSERT OR REPLACE INTO metadata(key, value) VALUES (\(storeFileKey), \(file))")
                guard recorded != nil else { return current }
                let successor = UUID()
                let clock =
                    UInt64(try String.fetchOne(db, sql: "SELECT value FROM metadata WHERE key = 'clock'") ?? "0") ?? 0
                // Every change saved under the old id has a clock up to the store's clock.
                try SyncLedger(db: db).noteKnowledge([current: clock])
                // A copy of a copy not synced meanwhile: sync takes over from the first id,
                // whose exports the store recorded.
                try db.execute(
                    literal: """
                        INSERT OR IGNORE INTO metadata(key, value) \
                        VALUES (\(replacedDeviceKey), \(current.storeString))
                        """
                )
                try db.execute(literal: "UPDATE metadata SET value = \(successor.storeString) WHERE key = 'device_id'")
                return successor
            }
        } catch {
            throw StoreError.database(path: storePath, underlying: error)
        }
    }
}
