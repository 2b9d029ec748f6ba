import Foundation
import GRDB

/// Whether saves record their changes in the outbox.
///
/// A store that sync has never touched records nothing: the first `notes sync enable` pushes a
/// snapshot of everything the store holds, which such an outbox would only repeat (and then
/// remove). A new store starts with one sync value, `outbox` = `off`, written by the migration
/// that makes the `sync_state` table (model version 3, when sync came), so that no process sees
/// the table without it; sync turns recording on (``Store/startRecordingChanges()``) before it
/// takes that snapshot, so that every save after the snapshot is in the outbox. Any other sync
/// value turns it on too, whoever wrote it: a store that an earlier build enabled, which knew
/// nothing of this value, records as before.
enum ChangeRecording {
    static let key = "outbox"
    static let off = "off"

    /// Whether a save in this transaction records its changes.
    static func isOn(_ db: Database) throws -> Bool {
        try SQLRequest<Bool>(
            literal: """
                SELECT NOT EXISTS (SELECT 1 FROM sync_state WHERE key = \(key) AND value = \(off))
                    OR EXISTS (SELECT 1 FROM sync_state WHERE key <> \(key))
                """,
            cached: true
        ).fetchOne(db) ?? true
    }

    /// Marks a store whose `sync_state` table is made just now as one that records nothing yet.
    static func markNewStore(_ db: Database) throws {
        try db.execute(literal: "INSERT OR REPLACE INTO sync_state(key, value) VALUES (\(key), \(off))")
    }
}

extension Store {
    /// Makes every later save record its changes in the outbox, for sync to export. Sync calls
    /// it before it takes the snapshot that `notes sync enable` pushes; it stays on after.
    public func startRecordingChanges() throws {
        try write { db in
            try db.execute(literal: "DELETE FROM sync_state WHERE key = \(ChangeRecording.key)")
        }
    }

    /// Whether saves record their changes in the outbox (see ``startRecordingChanges()``).
    public func recordsChanges() throws -> Bool {
        try read { db in try ChangeRecording.isOn(db) }
    }
}
