import Foundation
import NoteStore

/// What sync records in the store about itself, committed with the changes it concerns.
struct SyncState {
    /// The highest sequence applied from each other device.
    var applied: [UUID: Int64] = [:]
    var exportedSequence: Int64 = 0
    var cloud: URL?
    var containerName: String?
    var containerID: UUID?
    /// When the container this device attached to was created, as its sentinel said.
    var containerCreated: Date?
    /// Whether this device has seen another device registered in its container.
    var containerShared = false
    /// Whether the container is encrypted: every file but its sentinel and key file is sealed,
    /// and a sentinel that says otherwise detaches the device.
    var encrypted = false
    var deviceName: String?
    var state: SyncStatus.State = .detached
    var reason: SyncStateReason?
    var since: Date?
    var lastSync: Date?
    /// Who may read what this device writes into the cloud folder.
    var access: CloudAccess = .private
    /// Why the last export failed, and when, until one succeeds.
    var exportError: (date: Date, message: String)?
    /// How far ahead of this device's wall clock the last applied log of a device ran, in
    /// seconds, for the devices past the report threshold.
    var clockAhead: [UUID: TimeInterval] = [:]
    /// The logs of each other device passed over as logs of another container.
    var passedOver: [UUID: Set<Int64>] = [:]
    /// Per log of this device that others passed over, the last log that published its
    /// content again.
    var republished: [Int64: Int64] = [:]
    /// What this device waits for and cannot get from the container, as its registration says.
    var awaited = AwaitedFiles()
    /// Baselines found unusable, by the path of their database, not checked again while
    /// their files stay the same.
    var unusableBaselines: [String: UnusableBaseline] = [:]
    /// The id this store had before it took a new one, until sync takes its place.
    var replacedDevice: UUID?
    /// Whether the outbox held changes to export when the state was read.
    var hasOutboxEntries = false

    init(_ store: Store) throws {
        self.init(try store.syncSnapshot())
    }

    init(_ snapshot: SyncSnapshot) {
        let record = snapshot.record
        applied = snapshot.applied
        passedOver = snapshot.passedOver
        republished = snapshot.republished
        clockAhead = snapshot.clockAhead
        awaited.logs = snapshot.awaitedLogs
        awaited.blobs = snapshot.awaitedBlobs
        unusableBaselines = snapshot.unusableBaselines.mapValues {
            UnusableBaseline(identity: $0.identity, reason: $0.reason)
        }
        access = record.groupAccess ? .group : .private
        exportedSequence = record.exportedSequence
        cloud = record.cloud
        containerName = record.containerName
        containerID = record.containerID
        containerCreated = record.containerCreated
        containerShared = record.containerShared
        encrypted = record.encrypted
        deviceName = record.deviceName
        state = record.state
        reason = record.reason
        since = record.since
        lastSync = record.lastSync
        exportError = record.exportError.map { ($0.date, $0.message) }
        replacedDevice = snapshot.replacedDevice
        hasOutboxEntries = snapshot.hasOutboxEntries
    }

    /// Records what this device waits for; returns whether that changed.
    static func recordAwaited(_ awaited: AwaitedFiles, in store: Store) throws -> Bool {
        try store.recordSync { ledger in try ledger.setAwaited(logs: awaited.logs, blobs: awaited.blobs) }
    }
}
