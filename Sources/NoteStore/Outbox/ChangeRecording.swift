import Foundation
import GRDB

/// Whether saves record their changes in the outbox.
///
/// A store that sync has never touched records nothing: the first `notes sync enable` pushes a
/// snapshot of everything the store holds, which such an outbox would only repeat (and then
/// remove). A new store starts with one sync value, `outbox` = `off` in the key-value table
/// `sync_state`, written by the migration that makes that table (model version 3, when sync
/// came), so that no process sees the table without it; the migration to typed records
/// (``StoreSchema/addSyncRecords(_:)``) turns it into `sync_record.records_changes`. Sync turns
/// recording on (``Store/startRecordingChanges()``) before it takes that snapshot, so that every
/// save after the snapshot is in the outbox. A value in `sync_state` turns it on too: only a
/// build from before typed records writes there, and such a build, enabling the store, records.
enum ChangeRecording {
    static let key = "outbox"
    static let off = "off"

    /// Whether a save in this transaction records its changes.
    static func isOn(_ db: Database) throws -> Bool {
        try SQLRequest<Bool>(
            sql: """
                SELECT COALESCE((SELECT records_changes FROM sync_record WHERE id = 1), 1)
                    OR EXISTS (SELECT 1 FROM sync_state)
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
            try SyncLedger(db: db).update { $0.recordsChanges = true }
        }
    }

    /// Whether saves record their changes in the outbox (see ``startRecordingChanges()``).
    public func recordsChanges() throws -> Bool {
        try read { db in try ChangeRecording.isOn(db) }
    }
}
