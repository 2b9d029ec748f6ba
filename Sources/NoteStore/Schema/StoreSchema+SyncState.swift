import Foundation
import GRDB

extension StoreSchema {
    /// The name of the migration that gives sync's records typed tables.
    static let syncStateMigration = "sync state"

    /// Sync's records as typed tables, moved out of the key-value table `sync_state`, which
    /// stays, empty, as the schema of every model version since 3 has it.
    ///
    /// Not a model version: what sync records is local to the device, never in a log or a
    /// baseline. A baseline leaves these tables out (and the record of this migration), so
    /// that it is a store of its model version to every build, and a store made from one runs
    /// this migration when it opens.
    ///
    /// `sync_record` holds the values a store has one of (GRDB's single-row table: `id` is 1);
    /// the other tables hold what sync records per device, log, baseline or blob.
    static func addSyncRecords(_ db: Database) throws {
        try db.execute(
            sql: """
                CREATE TABLE sync_record (
                    id INTEGER PRIMARY KEY ON CONFLICT REPLACE CHECK (id = 1),
                    records_changes INTEGER NOT NULL,
                    state TEXT NOT NULL CHECK (state IN ('on', 'off', 'detached')),
                    reason TEXT,
                    reason_detail TEXT,
                    since INTEGER,
                    cloud TEXT,
                    container_name TEXT,
                    container_id TEXT,
                    container_created INTEGER,
                    container_shared INTEGER NOT NULL,
                    encrypted INTEGER NOT NULL,
                    group_access INTEGER NOT NULL,
                    device_name TEXT,
                    replaced_device TEXT,
                    is_returning INTEGER NOT NULL,
                    registration_pending INTEGER NOT NULL,
                    exported_sequence INTEGER NOT NULL,
                    export_error_date INTEGER,
                    export_error TEXT,
                    last_sync INTEGER,
                    last_report TEXT,
                    temporary_cleanup INTEGER,
                    own_logs_checked INTEGER,
                    acknowledged INTEGER,
                    baseline_sequence INTEGER NOT NULL,
                    retention_days REAL,
                    history_keep_versions INTEGER,
                    history_keep_days INTEGER,
                    history_dropped INTEGER NOT NULL
                );
                CREATE TABLE sync_device (
                    id TEXT PRIMARY KEY NOT NULL,
                    applied INTEGER,
                    clock_ahead REAL,
                    awaited_log INTEGER
                ) WITHOUT ROWID;
                CREATE TABLE sync_passed_log (
                    device TEXT NOT NULL,
                    sequence INTEGER NOT NULL,
                    PRIMARY KEY (device, sequence)
                ) WITHOUT ROWID;
                CREATE TABLE sync_republished_log (
                    sequence INTEGER PRIMARY KEY NOT NULL,
                    through INTEGER NOT NULL
                );
                CREATE TABLE sync_unusable_baseline (
                    path TEXT PRIMARY KEY NOT NULL,
                    identity TEXT NOT NULL,
                    reason TEXT NOT NULL
                ) WITHOUT ROWID;
                CREATE TABLE sync_awaited_blob (
                    sha256 TEXT PRIMARY KEY NOT NULL
                ) WITHOUT ROWID;
                CREATE TABLE sync_unused_blob (
                    name TEXT PRIMARY KEY NOT NULL,
                    marked INTEGER NOT NULL
                ) WITHOUT ROWID;
                """)
        let values = Dictionary(
            try Row.fetchAll(db, sql: "SELECT key, value FROM sync_state").map {
                ($0["key"] as String, $0["value"] as String)
            },
            uniquingKeysWith: { first, _ in first })
        try LedgerValues(values).move(db)
        try db.execute(sql: "DELETE FROM sync_state")
    }
}

extension StoreSchema {
    /// Drops sync's typed records and the record of their migration, from a copy of the store
    /// made for a baseline: what is left is a store of its model version to every build.
    static func dropSyncRecords(_ db: Database) throws {
        for table in syncRecordTables { try db.execute(sql: "DROP TABLE IF EXISTS \(table)") }
        try db.execute(literal: "DELETE FROM grdb_migrations WHERE identifier = \(syncStateMigration)")
    }

    /// The tables of ``addSyncRecords(_:)``.
    static let syncRecordTables = [
        "sync_record", "sync_device", "sync_passed_log", "sync_republished_log", "sync_unusable_baseline",
        "sync_awaited_blob",
        "sync_unused_blob",
    ]
}

/// The values of the key-value ledger `sync_state` that builds before typed records kept, read
/// as those builds read them (a value they could not read counted as absent), for
/// ``StoreSchema/addSyncRecords(_:)``.
private struct LedgerValues {
    let values: [String: String]

    init(_ values: [String: String]) {
        self.values = values
    }

    func move(_ db: Database) throws {
        try moveRecord(db)
        try moveDevices(db)
        for (device, text) in perKey("passed.", UUID.init(storeText:)) {
            for sequence in text.split(separator: ",").compactMap({ Int64($0) }) {
                try db.execute(
                    literal: """
                        INSERT OR IGNORE INTO sync_passed_log(device, sequence) \
                        VALUES (\(device.storeString), \(sequence))
                        """
                )
            }
        }
        for (sequence, text) in perKey("republished.", { Int64($0) }) {
            guard let through = Int64(text) else { continue }
            try db.execute(
                literal: "INSERT INTO sync_republished_log(sequence, through) VALUES (\(sequence), \(through))")
        }
        for (path, text) in perKey("baseline.unusable.", { $0 }) {
            guard let newline = text.firstIndex(of: "\n") else { continue }
            let identity = String(text[..<newline])
            let reason = String(text[text.index(after: newline)...])
            try db.execute(
                literal: """
                    INSERT INTO sync_unusable_baseline(path, identity, reason) \
                    VALUES (\(path), \(identity), \(reason))
                    """
            )
        }
        for sha256 in Set((values["blobs.awaited"] ?? "").split(separator: ",").map(String.init)) {
            try db.execute(literal: "INSERT INTO sync_awaited_blob(sha256) VALUES (\(sha256))")
        }
        let unused =
            values["blobs.unused"].flatMap {
                try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: String]
            } ?? [:]
        for (name, text) in unused {
            guard let marked = ISODate.date(from: text) else { continue }
            try db.execute(
                literal: "INSERT INTO sync_unused_blob(name, marked) VALUES (\(name), \(marked.storeMilliseconds))")
        }
    }

    private func moveRecord(_ db: Database) throws {
        // Saves record their changes unless the mark of a store that never synced is the only value.
        let recordsChanges =
            values[ChangeRecording.key] != ChangeRecording.off || values.keys.contains { $0 != ChangeRecording.key }
        let state = values["state"].flatMap(SyncRecord.State.init(rawValue:)) ?? .detached
        let reason = values["state.reason"].map(SyncStateReason.init(text:))
        var exportError: (date: Int64, message: String)?
        if let text = values["export.error"], let space = text.firstIndex(of: " "),
            let date = ISODate.date(from: String(text[..<space]))
        {
            exportError = (date.storeMilliseconds, String(text[text.index(after: space)...]))
        }
        func date(_ key: String) -> Int64? { values[key].flatMap(ISODate.date(from:))?.storeMilliseconds }
        func id(_ key: String) -> String? { values[key].flatMap(UUID.init(uuidString:))?.storeString }
        try db.execute(
            literal: """
                INSERT INTO sync_record(
                    id, records_changes, state, reason, reason_detail, since, cloud, container_name, container_id,
                    container_created, container_shared, encrypted, group_access, device_name, \
                replaced_device, is_returning,
                    registration_pending, exported_sequence, export_error_date, export_error, last_sync, last_report,
                    temporary_cleanup, own_logs_checked, acknowledged, baseline_sequence, retention_days,
                    history_keep_versions, history_keep_days, history_dropped)
                VALUES (
                    1, \(recordsChanges), \(state.rawValue), \(reason?.code), \(reason?.detail), \(date("state.since")),
                    \(values["cloud"]), \(values["container.name"]), \(id("container.id")), \
                \(date("container.created")),
                    \(values["container.shared"] != nil), \(values["container.encrypted"] != nil),
                    \(values["cloud.access"] == "group"), \(values["device.name"]), \(id("device.replaced")),
                    \(values["enable.returning"] != nil), \(values["registration.pending"] != nil),
                    \(values["export.sequence"].flatMap { Int64($0) } ?? 0), \(exportError?.date), \
                \(exportError?.message),
                    \(date("last.sync")), \(values["last.report"]), \(date("temporary.cleanup")), \
                \(date("own.logs.checked")),
                    \(date("ack.time")), \(values["baseline.sequence"].flatMap { Int64($0) } ?? 0),
                    \(values["retention.days"].flatMap { Double($0) }), \
                \(values["history.keep.versions"].flatMap { Int($0) }),
                    \(values["history.keep.days"].flatMap { Int($0) }), \(values["history.dropped"] != nil))
                """)
    }

    private func moveDevices(_ db: Database) throws {
        var awaited: [UUID: Int64] = [:]
        for pair in (values["logs.awaited"] ?? "").split(separator: ",") {
            let parts = pair.split(separator: ":")
            if parts.count == 2, let device = UUID(uuidString: String(parts[0])), let sequence = Int64(parts[1]) {
                awaited[device] = sequence
            }
        }
        let applied = perKey("applied.", UUID.init(uuidString:)).compactMapValues { Int64($0) }
        let ahead = perKey("clock.ahead.", UUID.init(uuidString:)).compactMapValues { Double($0) }
        for device in Set(applied.keys).union(ahead.keys).union(awaited.keys) {
            try db.execute(
                literal: """
                    INSERT INTO sync_device(id, applied, clock_ahead, awaited_log)
                    VALUES (\(device.storeString), \(applied[device]), \(ahead[device]), \(awaited[device]))
                    """)
        }
    }

    /// The values whose key starts with `prefix`, by what follows it, where `parse` reads it.
    private func perKey<Key: Hashable>(_ prefix: String, _ parse: (String) -> Key?) -> [Key: String] {
        var found: [Key: String] = [:]
        for (key, value) in values where key.hasPrefix(prefix) {
            if let parsed = parse(String(key.dropFirst(prefix.count))) { found[parsed] = value }
        }
        return found
    }
}
