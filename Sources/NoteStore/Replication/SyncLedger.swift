import Foundation
import GRDB

/// Sync's own bookkeeping in the store: its records (``SyncRecord``, and what it records per
/// device, log, baseline and blob), the outbox rows it has exported, the store's clock and what
/// the store has seen of each device. Written in a transaction of its own
/// (``Store/recordSync(durable:_:)``), or with the changes of an import (``Replica/ledger``), so
/// that applying a log and recording it commit together.
///
/// The one place where sync's records meet SQL: sync reads and writes them as Swift values.
public final class SyncLedger {
    let db: Database

    init(db: Database) {
        self.db = db
    }

    // MARK: The values the store has one of

    /// Sync's values that the store has one of.
    public func record() throws -> SyncRecord {
        try SyncRecord.find(db)
    }

    /// Changes sync's values that the store has one of; writes the columns `change` changed.
    public func update(_ change: (inout SyncRecord) throws -> Void) throws {
        var record = try SyncRecord.find(db)
        let before = record
        try change(&record)
        guard record != before else { return }
        if try Bool.fetchOne(db.cachedStatement(sql: "SELECT EXISTS (SELECT 1 FROM sync_record WHERE id = 1)")) == true
        {
            try record.updateChanges(db, from: before)
        } else {
            try record.insert(db)
        }
    }

    /// Records `date` as the time of the last sync and, when given, `exportedSequence` as the
    /// last log exported: as ``update(_:)`` would, by one prepared statement, since every log
    /// applied and every log exported records them.
    public func noteSync(at date: Date, exportedSequence: Int64? = nil) throws {
        try db.cachedStatement(
            sql: """
                UPDATE sync_record SET last_sync = ?, exported_sequence = coalesce(?, exported_sequence) \
                WHERE id = 1
                """
        ).execute(arguments: [date.storeMilliseconds, exportedSequence])
        guard db.changesCount == 0 else { return }
        try update { record in
            record.lastSync = date
            if let exportedSequence { record.exportedSequence = exportedSequence }
        }
    }

    // MARK: Per device

    /// The highest sequence applied from each other device.
    public func applied() throws -> [UUID: Int64] {
        try Self.perDevice("applied", db)
    }

    /// Records `sequence` as the highest applied from `device`.
    public func setApplied(_ sequence: Int64, of device: UUID) throws {
        try db.cachedStatement(
            sql: """
                INSERT INTO sync_device(id, applied) VALUES (?, ?) \
                ON CONFLICT(id) DO UPDATE SET applied = excluded.applied
                """
        ).execute(arguments: [device.storeString, sequence])
    }

    /// Forgets what was applied from every device.
    public func forgetApplied() throws {
        try db.execute(sql: "UPDATE sync_device SET applied = NULL")
    }

    /// Forgets what was applied and passed over from every device, and what was published again
    /// for others: the records of a container that this device no longer syncs with.
    public func forgetContainerRecords() throws {
        try forgetApplied()
        try db.execute(sql: "DELETE FROM sync_passed_log; DELETE FROM sync_republished_log")
    }

    /// Records how far ahead of this device's wall clock the last applied log of `device` ran,
    /// in seconds; nil forgets it.
    public func setClockAhead(_ seconds: TimeInterval?, of device: UUID) throws {
        try db.cachedStatement(
            sql: """
                INSERT INTO sync_device(id, clock_ahead) VALUES (?, ?) \
                ON CONFLICT(id) DO UPDATE SET clock_ahead = excluded.clock_ahead
                """
        ).execute(arguments: [device.storeString, seconds])
    }

    /// Records that the log `sequence` of `device` was passed over as a log of another container.
    public func notePassedOver(_ sequence: Int64, of device: UUID) throws {
        try db.cachedStatement(sql: "INSERT OR IGNORE INTO sync_passed_log(device, sequence) VALUES (?, ?)")
            .execute(arguments: [device.storeString, sequence])
    }

    /// Records that `last` is the last log that published again the content of each of this
    /// device's logs `sequences` that others passed over.
    public func noteRepublished(_ sequences: some Sequence<Int64>, through last: Int64) throws {
        for sequence in sequences {
            try db.execute(
                literal: "INSERT OR REPLACE INTO sync_republished_log(sequence, through) VALUES (\(sequence), \(last))")
        }
    }

    /// Records what this device waits for and cannot get from the container: the first log it
    /// needs of each other device, and blobs; returns whether that changed.
    public func setAwaited(logs: [UUID: Int64], blobs: Set<String>) throws -> Bool {
        guard
            try Self.awaitedLogs(db) != logs
                || Self.awaitedBlobs(db) != blobs
        else {
            return false
        }
        try db.execute(sql: "UPDATE sync_device SET awaited_log = NULL; DELETE FROM sync_awaited_blob")
        for (device, sequence) in logs {
            try db.execute(
                literal: """
                    INSERT INTO sync_device(id, awaited_log) VALUES (\(device.storeString), \(sequence))
                    ON CONFLICT(id) DO UPDATE SET awaited_log = excluded.awaited_log
                    """)
        }
        for sha256 in blobs { try db.execute(literal: "INSERT INTO sync_awaited_blob(sha256) VALUES (\(sha256))") }
        return true
    }

    // MARK: Baselines and blobs

    /// Records the baseline whose database is at `path` as unusable, with the identity of its
    /// files and why; nil forgets it.
    public func setUnusableBaseline(_ baseline: SyncSnapshot.UnusableBaseline?, at path: String) throws {
        if let baseline {
            try db.execute(
                literal: """
                    INSERT OR REPLACE INTO sync_unusable_baseline(path, identity, reason)
                    VALUES (\(path), \(baseline.identity), \(baseline.reason))
                    """)
        } else {
            try db.execute(literal: "DELETE FROM sync_unusable_baseline WHERE path = \(path)")
        }
    }

    /// Records the blobs of the container that nothing uses, by file name, with when each was
    /// first found so; replaces what was recorded.
    public func setUnusedBlobs(_ marks: [String: Date]) throws {
        try db.execute(sql: "DELETE FROM sync_unused_blob")
        for (name, marked) in marks {
            try db.execute(
                literal: "INSERT INTO sync_unused_blob(name, marked) VALUES (\(name), \(marked.storeMilliseconds))")
        }
    }

    // MARK: Everything

    /// Everything sync records.
    public func snapshot() throws -> SyncSnapshot {
        try Self.snapshot(db)
    }

    /// Read by every sync, and by a watcher at each event: each statement is prepared once
    /// per connection.
    static func snapshot(_ db: Database) throws -> SyncSnapshot {
        var snapshot = SyncSnapshot(record: try SyncRecord.find(db))
        snapshot.applied = try perDevice("applied", db)
        snapshot.clockAhead = try perDevice("clock_ahead", db)
        snapshot.awaitedLogs = try awaitedLogs(db)
        snapshot.awaitedBlobs = Set(
            try String.fetchAll(db.cachedStatement(sql: "SELECT sha256 FROM sync_awaited_blob")))
        for row in try Row.fetchAll(db.cachedStatement(sql: "SELECT device, sequence FROM sync_passed_log")) {
            snapshot.passedOver[try device(row["device"], table: "sync_passed_log"), default: []].insert(
                row["sequence"])
        }
        for row in try Row.fetchAll(db.cachedStatement(sql: "SELECT sequence, through FROM sync_republished_log")) {
            snapshot.republished[row["sequence"]] = row["through"]
        }
        for row in try Row.fetchAll(
            db.cachedStatement(sql: "SELECT path, identity, reason FROM sync_unusable_baseline"))
        {
            snapshot.unusableBaselines[row["path"]] = SyncSnapshot.UnusableBaseline(
                identity: row["identity"], reason: row["reason"])
        }
        for row in try Row.fetchAll(db.cachedStatement(sql: "SELECT name, marked FROM sync_unused_blob")) {
            snapshot.unusedBlobs[row["name"]] = Date(storeMilliseconds: row["marked"])
        }
        // Read with the rest: every sync asks, and a read of its own costs what this one does.
        snapshot.replacedDevice = try Store.replacedDeviceID(db)
        snapshot.hasOutboxEntries = try Store.hasOutboxEntries(db)
        return snapshot
    }

    private static func awaitedLogs(_ db: Database) throws -> [UUID: Int64] {
        try perDevice("awaited_log", db)
    }

    private static func awaitedBlobs(_ db: Database) throws -> Set<String> {
        Set(try String.fetchAll(db.cachedStatement(sql: "SELECT sha256 FROM sync_awaited_blob")))
    }

    /// The values of the column `column` of `sync_device` that are set, by device.
    private static func perDevice<Value: DatabaseValueConvertible>(_ column: String, _ db: Database) throws
        -> [UUID: Value]
    {
        let statement = try db.cachedStatement(
            sql: "SELECT id, \(column) AS value FROM sync_device WHERE \(column) IS NOT NULL")
        var found: [UUID: Value] = [:]
        for row in try Row.fetchAll(statement) {
            found[try device(row["id"], table: "sync_device")] = row["value"]
        }
        return found
    }

    private static func device(_ text: String, table: String) throws -> UUID {
        guard let device = UUID(storeText: text) else { throw SyncRecordError.badValue(column: "device", table: table) }
        return device
    }

    // MARK: Outbox, clock and knowledge

    /// Removes exported outbox rows, up to and including `sequence`.
    public func removeOutboxEntries(through sequence: Int64) throws {
        try db.cachedStatement(sql: "DELETE FROM outbox WHERE id <= ?").execute(arguments: [sequence])
    }

    /// Moves the store's clock past a clock seen in an imported change.
    public func observe(clock: UInt64) throws {
        try db.cachedStatement(
            sql: """
                INSERT INTO metadata(key, value) VALUES ('clock', ?)
                ON CONFLICT(key) DO UPDATE SET value = MAX(CAST(value AS INTEGER), CAST(excluded.value AS INTEGER))
                """
        ).execute(arguments: [String(clock)])
    }

    /// Raises what the store has seen of each device: the greatest clock of its changes that
    /// it applied (what a purge saved here had seen; docs/sync-format.md, "Causal deletes").
    public func noteKnowledge(_ clocks: [UUID: UInt64]) throws {
        for (device, clock) in clocks {
            try db.cachedStatement(
                sql: """
                    INSERT INTO knowledge(device, clock) VALUES (?, ?)
                    ON CONFLICT(device) DO UPDATE SET clock = MAX(clock, excluded.clock)
                    """
            ).execute(arguments: [device.storeString, Int64(bitPattern: clock)])
        }
    }
}

/// Everything sync records in a store, read in one snapshot (``SyncLedger/snapshot()``).
public struct SyncSnapshot: Equatable, Sendable {
    /// A baseline found unusable: the identity of its files then, and why.
    public struct UnusableBaseline: Equatable, Sendable {
        public var identity: String
        public var reason: String

        public init(identity: String, reason: String) {
            self.identity = identity
            self.reason = reason
        }
    }

    public var record: SyncRecord
    /// The highest sequence applied from each other device.
    public var applied: [UUID: Int64] = [:]
    /// How far ahead of this device's wall clock the last applied log of each device ran, in
    /// seconds, for the devices past the report threshold.
    public var clockAhead: [UUID: TimeInterval] = [:]
    /// The first log of each other device that this device needs and cannot have.
    public var awaitedLogs: [UUID: Int64] = [:]
    /// The blobs this device looked for in the container and could not have.
    public var awaitedBlobs: Set<String> = []
    /// The logs of each other device passed over as logs of another container.
    public var passedOver: [UUID: Set<Int64>] = [:]
    /// Per log of this device that others passed over, the last log that published its
    /// content again.
    public var republished: [Int64: Int64] = [:]
    /// Baselines found unusable, by the path of their database.
    public var unusableBaselines: [String: UnusableBaseline] = [:]
    /// Blobs of the container that nothing uses, by file name, with when each was first found so.
    public var unusedBlobs: [String: Date] = [:]
    /// The id this store had before it found itself copied and took a new one, until sync
    /// takes the old one's place (``Store/replacedDeviceID``).
    public var replacedDevice: UUID?
    /// Whether the outbox holds changes that sync has not taken yet.
    public var hasOutboxEntries = false

    public init(record: SyncRecord = SyncRecord()) {
        self.record = record
    }
}

extension Store {
    /// Runs `body` on sync's bookkeeping in one write transaction.
    ///
    /// With `durable: false` the commit does not wait for the disk (see
    /// ``replicate(durable:_:)``).
    @discardableResult
    public func recordSync<T>(durable: Bool = true, _ body: (SyncLedger) throws -> T) throws -> T {
        try write(durable: durable) { db in try body(SyncLedger(db: db)) }
    }

    /// Everything sync records, as last committed.
    public func syncSnapshot() throws -> SyncSnapshot {
        try read { db in try SyncLedger.snapshot(db) }
    }

    /// Sync's values that the store has one of, as last committed.
    public func syncRecord() throws -> SyncRecord {
        try read { db in try SyncRecord.find(db) }
    }
}
