import Foundation
import GRDB

/// What sync records of itself that has one value per store: the single row of `sync_record`
/// (GRDB's single-row table: its `id` is always 1).
///
/// Local to this device: never in a log or a baseline (``Store/copyForBaseline(to:retention:header:)``
/// drops the table). Read and changed through ``SyncLedger``.
public struct SyncRecord: Equatable, Sendable {
    /// Whether the store syncs.
    public enum State: String, Sendable {
        /// Attached to a container.
        case on
        /// Detached by sync itself: the container or this device's registration went away, or
        /// the container is another one.
        case off
        /// Never enabled, or disabled by the person.
        case detached
    }

    /// Whether saves record their changes in the outbox (``Store/recordsChanges()``).
    public var recordsChanges = true
    public var state = State.detached
    /// Why the state is what it is, when it says.
    public var reason: SyncStateReason?
    /// When the state last changed.
    public var since: Date?
    /// The folder holding the container.
    public var cloud: URL?
    public var containerName: String?
    public var containerID: UUID?
    /// When the container was created, as its sentinel said.
    public var containerCreated: Date?
    /// Whether another device was seen registered in the container.
    public var containerShared = false
    /// Whether the container is encrypted.
    public var encrypted = false
    /// Whether the device's group may read what it writes into the cloud folder.
    public var groupAccess = false
    /// What this device calls itself in sync.
    public var deviceName: String?
    /// The id this store had before it took a new one (a copy, a backup restored).
    public var replacedDevice: UUID?
    /// Whether the device comes back to its container without a registration, until it has
    /// kept its unpublished edits.
    public var returning = false
    /// Whether the device took a new id and has not registered under it yet.
    public var registrationPending = false
    /// The last sequence of this device's logs published.
    public var exportedSequence: Int64 = 0
    /// Why the last export failed, and when, until one succeeds.
    public var exportError: ExportFailure?
    /// When a sync last exported or imported.
    public var lastSync: Date?
    /// The waiting logs and skipped files of the last sync, as JSON.
    public var lastReport: String?
    /// When stale temporary files were last removed from the container.
    public var temporaryCleanup: Date?
    /// When this device's own logs were last checked.
    public var ownLogsChecked: Date?
    /// When this device last rewrote its registration with what it applied.
    public var acknowledged: Date?
    /// The last sequence of this device's baselines.
    public var baselineSequence: Int64 = 0
    /// How long a device may go without syncing before it is left behind, in days, when set.
    public var retentionDays: Double?
    /// What baselines keep of history, when set.
    public var historyKeepVersions: Int?
    public var historyKeepDays: Int?
    /// Whether a baseline of the container dropped history.
    public var historyDropped = false

    public init() {}

    /// An export that failed: when, and why.
    public struct ExportFailure: Equatable, Sendable {
        public var date: Date
        public var message: String

        public init(date: Date, message: String) {
            self.date = date
            self.message = message
        }
    }
}

extension SyncRecord: FetchableRecord, PersistableRecord {
    public static let databaseTableName = "sync_record"

    public enum Columns {
        public static let id = Column("id")
        public static let recordsChanges = Column("records_changes")
        public static let state = Column("state")
        public static let reason = Column("reason")
        public static let reasonDetail = Column("reason_detail")
        public static let since = Column("since")
        public static let cloud = Column("cloud")
        public static let containerName = Column("container_name")
        public static let containerID = Column("container_id")
        public static let containerCreated = Column("container_created")
        public static let containerShared = Column("container_shared")
        public static let encrypted = Column("encrypted")
        public static let groupAccess = Column("group_access")
        public static let deviceName = Column("device_name")
        public static let replacedDevice = Column("replaced_device")
        public static let returning = Column("is_returning")
        public static let registrationPending = Column("registration_pending")
        public static let exportedSequence = Column("exported_sequence")
        public static let exportErrorDate = Column("export_error_date")
        public static let exportError = Column("export_error")
        public static let lastSync = Column("last_sync")
        public static let lastReport = Column("last_report")
        public static let temporaryCleanup = Column("temporary_cleanup")
        public static let ownLogsChecked = Column("own_logs_checked")
        public static let acknowledged = Column("acknowledged")
        public static let baselineSequence = Column("baseline_sequence")
        public static let retentionDays = Column("retention_days")
        public static let historyKeepVersions = Column("history_keep_versions")
        public static let historyKeepDays = Column("history_keep_days")
        public static let historyDropped = Column("history_dropped")
    }

    public init(row: Row) throws {
        func date(_ column: Column) -> Date? { (row[column] as Int64?).map(Date.init(storeMilliseconds:)) }
        func id(_ column: Column) throws -> UUID? {
            guard let text: String = row[column] else { return nil }
            guard let id = UUID(storeText: text) else { throw SyncRecordError.badValue(column: column.name) }
            return id
        }
        let stateText: String = row[Columns.state]
        guard let state = State(rawValue: stateText) else { throw SyncRecordError.badValue(column: Columns.state.name) }
        recordsChanges = row[Columns.recordsChanges]
        self.state = state
        if let code: String = row[Columns.reason] {
            guard let reason = SyncStateReason(code: code, detail: row[Columns.reasonDetail]) else {
                throw SyncRecordError.badValue(column: Columns.reason.name)
            }
            self.reason = reason
        }
        since = date(Columns.since)
        cloud = (row[Columns.cloud] as String?).map { URL(fileURLWithPath: $0) }
        containerName = row[Columns.containerName]
        containerID = try id(Columns.containerID)
        containerCreated = date(Columns.containerCreated)
        containerShared = row[Columns.containerShared]
        encrypted = row[Columns.encrypted]
        groupAccess = row[Columns.groupAccess]
        deviceName = row[Columns.deviceName]
        replacedDevice = try id(Columns.replacedDevice)
        returning = row[Columns.returning]
        registrationPending = row[Columns.registrationPending]
        exportedSequence = row[Columns.exportedSequence]
        if let date = date(Columns.exportErrorDate), let message: String = row[Columns.exportError] {
            exportError = ExportFailure(date: date, message: message)
        }
        lastSync = date(Columns.lastSync)
        lastReport = row[Columns.lastReport]
        temporaryCleanup = date(Columns.temporaryCleanup)
        ownLogsChecked = date(Columns.ownLogsChecked)
        acknowledged = date(Columns.acknowledged)
        baselineSequence = row[Columns.baselineSequence]
        retentionDays = row[Columns.retentionDays]
        historyKeepVersions = row[Columns.historyKeepVersions]
        historyKeepDays = row[Columns.historyKeepDays]
        historyDropped = row[Columns.historyDropped]
    }

    public func encode(to container: inout PersistenceContainer) {
        container[Columns.id] = 1
        container[Columns.recordsChanges] = recordsChanges
        container[Columns.state] = state.rawValue
        container[Columns.reason] = reason?.code
        container[Columns.reasonDetail] = reason?.detail
        container[Columns.since] = since?.storeMilliseconds
        container[Columns.cloud] = cloud?.path
        container[Columns.containerName] = containerName
        container[Columns.containerID] = containerID?.storeString
        container[Columns.containerCreated] = containerCreated?.storeMilliseconds
        container[Columns.containerShared] = containerShared
        container[Columns.encrypted] = encrypted
        container[Columns.groupAccess] = groupAccess
        container[Columns.deviceName] = deviceName
        container[Columns.replacedDevice] = replacedDevice?.storeString
        container[Columns.returning] = returning
        container[Columns.registrationPending] = registrationPending
        container[Columns.exportedSequence] = exportedSequence
        container[Columns.exportErrorDate] = exportError?.date.storeMilliseconds
        container[Columns.exportError] = exportError?.message
        container[Columns.lastSync] = lastSync?.storeMilliseconds
        container[Columns.lastReport] = lastReport
        container[Columns.temporaryCleanup] = temporaryCleanup?.storeMilliseconds
        container[Columns.ownLogsChecked] = ownLogsChecked?.storeMilliseconds
        container[Columns.acknowledged] = acknowledged?.storeMilliseconds
        container[Columns.baselineSequence] = baselineSequence
        container[Columns.retentionDays] = retentionDays
        container[Columns.historyKeepVersions] = historyKeepVersions
        container[Columns.historyKeepDays] = historyKeepDays
        container[Columns.historyDropped] = historyDropped
    }

    /// The row, or the values of a store that sync never touched when it has none.
    static func find(_ db: Database) throws -> SyncRecord {
        try fetchOne(db.cachedStatement(sql: "SELECT * FROM sync_record WHERE id = 1")) ?? SyncRecord()
    }
}

/// A value of sync's records that this build cannot read: a bad row is an error, never a
/// made-up value.
struct SyncRecordError: Error, CustomStringConvertible {
    let table: String
    let column: String

    static func badValue(column: String, table: String = SyncRecord.databaseTableName) -> SyncRecordError {
        SyncRecordError(table: table, column: column)
    }

    var description: String { "cannot read \(table).\(column): not a value this build knows" }
}
