import Foundation
import NoteStore

/// What sync records in the store about itself, committed with the changes it concerns.
struct SyncState {
    static let appliedPrefix = "applied."
    static let exportedKey = "export.sequence"
    static let cloudKey = "cloud"
    static let containerNameKey = "container.name"
    static let containerIDKey = "container.id"
    static let containerCreatedKey = "container.created"
    static let containerSharedKey = "container.shared"
    static let deviceNameKey = "device.name"
    static let stateKey = "state"
    static let reasonKey = "state.reason"
    static let sinceKey = "state.since"
    static let lastSyncKey = "last.sync"
    static let clockAheadPrefix = "clock.ahead."
    /// Per other device, the sequences of its logs passed over as logs of another container.
    static let passedPrefix = "passed."
    /// Per sequence of this device's own logs that others passed over, the last log of the
    /// content published again for it.
    static let republishedPrefix = "republished."
    /// Per other device, the first of its logs this device needs and cannot have, as
    /// `<uuid>:<sequence>` separated by commas.
    static let awaitedLogsKey = "logs.awaited"
    static let temporaryCleanupKey = "temporary.cleanup"
    static let accessKey = "cloud.access"
    static let exportErrorKey = "export.error"
    static let encryptedKey = "container.encrypted"

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
    var reason: String?
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

    init(_ store: Store) throws {
        self.init(values: try store.syncValues(withPrefix: ""))
    }

    init(values: [String: String]) {
        for (key, value) in values where key.hasPrefix(Self.appliedPrefix) {
            if let device = UUID(uuidString: String(key.dropFirst(Self.appliedPrefix.count))), let sequence = Int64(value) {
                applied[device] = sequence
            }
        }
        for (key, value) in values where key.hasPrefix(Self.passedPrefix) {
            if let device = UUID(uuidString: String(key.dropFirst(Self.passedPrefix.count))) {
                passedOver[device] = Set(value.split(separator: ",").compactMap { Int64($0) })
            }
        }
        for (key, value) in values where key.hasPrefix(Self.republishedPrefix) {
            if let sequence = Int64(key.dropFirst(Self.republishedPrefix.count)), let last = Int64(value) { republished[sequence] = last }
        }
        for (key, value) in values where key.hasPrefix(Self.clockAheadPrefix) {
            if let device = UUID(uuidString: String(key.dropFirst(Self.clockAheadPrefix.count))), let seconds = Double(value) {
                clockAhead[device] = seconds
            }
        }
        for pair in (values[Self.awaitedLogsKey] ?? "").split(separator: ",") {
            let parts = pair.split(separator: ":")
            if parts.count == 2, let device = UUID(uuidString: String(parts[0])), let sequence = Int64(parts[1]) {
                awaited.logs[device] = sequence
            }
        }
        awaited.blobs = Set((values[Store.awaitedBlobsKey] ?? "").split(separator: ",").map(String.init))
        unusableBaselines = UnusableBaseline.records(in: values)
        access = values[Self.accessKey].flatMap(CloudAccess.init(rawValue:)) ?? .private
        exportedSequence = values[Self.exportedKey].flatMap(Int64.init) ?? 0
        cloud = values[Self.cloudKey].map { URL(fileURLWithPath: $0) }
        containerName = values[Self.containerNameKey]
        containerID = values[Self.containerIDKey].flatMap(UUID.init(uuidString:))
        containerCreated = values[Self.containerCreatedKey].flatMap(ISODate.date(from:))
        containerShared = values[Self.containerSharedKey] != nil
        encrypted = values[Self.encryptedKey] != nil
        deviceName = values[Self.deviceNameKey]
        state = values[Self.stateKey].flatMap(SyncStatus.State.init(rawValue:)) ?? .detached
        reason = values[Self.reasonKey]
        since = values[Self.sinceKey].flatMap(ISODate.date(from:))
        lastSync = values[Self.lastSyncKey].flatMap(ISODate.date(from:))
        if let text = values[Self.exportErrorKey], let space = text.firstIndex(of: " "), let date = ISODate.date(from: String(text[..<space])) {
            exportError = (date, String(text[text.index(after: space)...]))
        }
    }

    static func appliedKey(_ device: UUID) -> String { appliedPrefix + device.storeString }

    /// Records what this device waits for; returns whether that changed.
    static func recordAwaited(_ awaited: AwaitedFiles, in store: Store) throws -> Bool {
        let logs = awaited.logs.sorted { $0.key.storeString < $1.key.storeString }.map { "\($0.key.storeString):\($0.value)" }
        let blobs = awaited.blobs.sorted()
        return try store.recordSync { ledger in
            let before = (try ledger.value(awaitedLogsKey), try ledger.value(Store.awaitedBlobsKey))
            let after = (logs.isEmpty ? nil : logs.joined(separator: ","), blobs.isEmpty ? nil : blobs.joined(separator: ","))
            guard before != after else { return false }
            try ledger.setValue(after.0, for: awaitedLogsKey)
            try ledger.setValue(after.1, for: Store.awaitedBlobsKey)
            return true
        }
    }
    static func clockAheadKey(_ device: UUID) -> String { clockAheadPrefix + device.storeString }
    static func passedKey(_ device: UUID) -> String { passedPrefix + device.storeString }
    static func republishedKey(_ sequence: Int64) -> String { republishedPrefix + String(sequence) }
}
