import Foundation
import NoteStore

extension SyncEngine {
    /// Where this store was last attached, from its own records (the cloud folder, the
    /// container's name, the device's name and whether sync is on there), or nil when it never was.
    public func lastAttachment() throws -> (cloud: URL, containerName: String, deviceName: String?, isOn: Bool)? {
        let state = try SyncState(store)
        guard let cloud = state.cloud, let name = state.containerName else { return nil }
        return (cloud, name, state.deviceName, state.state == .on)
    }

    /// The state of sync for this store, with what the container holds now when it can be read.
    public func status() throws -> SyncStatus {
        let state = try SyncState(store)
        let last = LastReport.decode(try store.syncRecord().lastReport)
        var devices: [SyncStatus.Device] = []
        var skipped = last.skipped
        var newestBaseline: BaselineManifest?
        let quiet = SyncEngine(store: store, hooks: hooks)
        if let identity = state.containerID, let container = try? quiet.containerHandle(state) {
            devices = (try? otherDevices(container, state: state, skipped: &skipped)) ?? []
            newestBaseline = (try? BaselineCatalog.read(container, containerID: identity))?.entries.first?.manifest
        }
        var status = SyncStatus(
            state: state.state, reason: state.reason?.description, since: state.since, cloud: state.cloud?.path,
            containerName: state.containerName, container: state.containerID, device: store.deviceID,
            deviceName: state.deviceName, devices: devices, pendingExports: try store.outboxCount(),
            exportedSequence: state.exportedSequence,
            waiting: last.waiting.filter { !Self.isApplied($0, state.applied) },
            skipped: skipped, lastSync: state.lastSync, catchUp: CatchUp.current(in: store.folder))
        status.newestBaseline = newestBaseline
        status.exportError = state.exportError
        status.encryption = try encryption()
        status.recordsChanges = try store.recordsChanges()
        return status
    }

    /// Whether a log reported as waiting by the last full sync was applied since (by a
    /// watcher's import of the next logs, which does not rewrite that report).
    static func isApplied(_ waiting: SyncStatus.Waiting, _ applied: [UUID: Int64]) -> Bool {
        guard let position = CloudContainer.logPosition(ofPath: waiting.path) else { return false }
        return (applied[position.device] ?? 0) >= position.sequence
    }

    /// The devices registered in the container besides this one, with their logs.
    private func otherDevices(_ container: CloudContainer, state: SyncState, skipped: inout [SkippedFile]) throws
        -> [SyncStatus.Device]
    {
        let (registrations, skippedRegistrations) = try container.devices()
        skipped += skippedRegistrations.filter { !skipped.contains($0) }
        let (logDevices, _) = try container.logDevices()
        var names: [UUID: String] = [:]
        for registration in registrations { names[registration.device] = registration.name }
        let ids = Set(registrations.map(\.device)).union(logDevices).subtracting([store.deviceID])
        return try ids.sorted { $0.storeString < $1.storeString }.map { id in
            SyncStatus.Device(
                id: id, name: names[id], applied: state.applied[id] ?? 0,
                available: try container.logSequences(of: id).sequences.last ?? 0, clockAhead: state.clockAhead[id])
        }
    }
}
