import Foundation
import NoteStore

/// Sync of one store with one cloud container: enable, disable, sync now and status.
///
/// Every sync first checks the sentinel (`container.json`) and this device's registration: if
/// either is definitely gone, or the container is another one, the device detaches (state
/// `off`), keeps every local note and stops writing to the cloud. An I/O error decides
/// nothing. Then it exports the outbox and imports the other devices' logs.
public final class SyncEngine {
    public let store: Store
    public static let defaultContainerName = "NoteCollector"
    /// Told how far an import of the other devices' logs has come (by `sync now` and
    /// `enable`; the watcher's imports of the next logs report nothing), on the importing
    /// thread, after each log and every few hundred changes.
    public var importProgress: ((ImportProgress) -> Void)?

    public init(store: Store) {
        self.store = store
    }

    // MARK: Enable and disable

    /// Attaches the store to `cloud/containerName`, creating the container when absent, and
    /// pushes a snapshot of the whole store into it; then syncs.
    @discardableResult
    ///
    /// What it writes into the cloud folder, then and later, is readable by this account alone,
    /// or also by the group with `access` `.group`.
    public func enable(
        cloud: URL, containerName: String = defaultContainerName, deviceName: String, access: CloudAccess = .private
    ) throws -> SyncReport {
        try locked { try attach(cloud: cloud, containerName: containerName, deviceName: deviceName, access: access) }
    }

    /// Attaches as ``enable(cloud:containerName:deviceName:access:)`` says. A store that a
    /// baseline made (`joined`) pushes no snapshot: all it holds came from the container. A
    /// store new to the container starts from the newest baseline there, merged into what it
    /// holds, and pushes what it held before.
    private func attach(
        cloud: URL, containerName: String, deviceName: String, access: CloudAccess, joined: Bool = false
    ) throws -> SyncReport {
        let container = try CloudContainer.create(in: cloud, name: containerName, writer: store.deviceID, access: access)
        try container.register(DeviceRegistration(
            container: container.identity, device: store.deviceID, name: deviceName, registered: Date(),
            modelVersion: Store.currentModelVersion))
        let previous = try SyncState(store)
        var published = try container.logSequences(of: store.deviceID).sequences.last ?? 0
        if previous.containerID == container.identity {
            // Logs of this device may not all be visible here yet: never reuse a sequence.
            published = max(published, previous.exportedSequence)
        }
        let (records, outboxThrough) = joined ? ([], 0) : try store.snapshot()
        try store.recordSync { ledger in
            if previous.containerID != container.identity {
                for key in try ledger.values(withPrefix: SyncState.appliedPrefix).keys {
                    try ledger.setValue(nil, for: key)
                }
            }
            try ledger.setValue(String(published), for: SyncState.exportedKey)
            try ledger.setValue(cloud.standardizedFileURL.path, for: SyncState.cloudKey)
            try ledger.setValue(containerName, for: SyncState.containerNameKey)
            try ledger.setValue(container.identity.storeString, for: SyncState.containerIDKey)
            try ledger.setValue(deviceName, for: SyncState.deviceNameKey)
            try ledger.setValue(access == .private ? nil : access.rawValue, for: SyncState.accessKey)
            try ledger.setValue(SyncStatus.State.detached.rawValue, for: SyncState.stateKey)
            try ledger.setValue("being enabled", for: SyncState.reasonKey)
        }
        var report = SyncReport()
        if !joined && (previous.containerID != container.identity || previous.applied.isEmpty) {
            try startFromBaseline(container, report: &report)
        }
        // Pushed before the state says `on`: if the push stops half way, enabling again pushes
        // the snapshot once more after what was published, and the merge rules make it harmless.
        let pushed = try SnapshotPusher(store: store, container: container, containerID: container.identity).push(records)
        try store.recordSync { ledger in
            try ledger.removeOutboxEntries(through: outboxThrough)
            try ledger.setValue(SyncStatus.State.on.rawValue, for: SyncState.stateKey)
            try ledger.setValue(nil, for: SyncState.reasonKey)
            try ledger.setValue(JSONText.iso(Date()), for: SyncState.sinceKey)
        }
        var synced = try sync()
        synced.exportedLogs += pushed
        synced.importedChanges += report.importedChanges
        synced.skipped = report.skipped + synced.skipped
        synced.baseline = report.baseline
        return synced
    }

    /// Merges the newest baseline that is ahead of this store and verifies, when there is one.
    private func startFromBaseline(_ container: CloudContainer, report: inout SyncReport) throws {
        let loader = BaselineLoader(container: container, containerID: container.identity, folder: store.folder)
        guard let (entry, database, file) = try loader.newestVerified(
            aheadOf: try SyncState(store).applied, device: store.deviceID, report: &report)
        else { return }
        defer {
            database.close()
            try? FileManager.default.removeItem(at: file)
        }
        report.importedChanges += try loader.merge(database, entry, into: store)
        report.baseline = (entry.name.databasePath, try database.itemCount())
    }

    /// Joins a container as a new device: for a store folder without a database, when the
    /// container exists and holds a baseline that verifies, makes the store from the newest
    /// one (a copy of its database, not a replay of its logs), then attaches as
    /// ``enable(cloud:containerName:deviceName:access:)`` does and applies the logs after it.
    /// Returns nil, having made nothing, when the folder has a database or no baseline can be
    /// used: the caller then enables the store as usual.
    public static func join(
        folder: URL, cloud: URL, containerName: String = defaultContainerName, deviceName: String,
        access: CloudAccess = .private, progress: ((ImportProgress) -> Void)? = nil
    ) throws -> (engine: SyncEngine, report: SyncReport)? {
        guard !Store.hasDatabase(in: folder) else { return nil }
        do {
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        } catch {
            return nil
        }
        let lock = try SyncLock(storeFolder: folder)
        defer { withExtendedLifetime(lock) {} }
        guard !Store.hasDatabase(in: folder) else { return nil }
        let probe = try CloudContainer(cloud: cloud, name: containerName, identity: UUID(), access: access)
        guard case let .present(descriptor) = probe.descriptor(), !descriptor.isNewerFormat else { return nil }
        let container = try CloudContainer(cloud: cloud, name: containerName, identity: descriptor.container, access: access)
        var report = SyncReport()
        let loader = BaselineLoader(container: container, containerID: descriptor.container, folder: folder)
        guard let (entry, database, file) = try loader.newestVerified(aheadOf: [:], device: nil, report: &report) else { return nil }
        let clock = ClockSkew.adoptable(try database.clock(), now: Date())
        let items = try database.itemCount()
        database.close()
        CrashPoint.joinVerified.reach()
        let store: Store
        do {
            store = try Store.create(folder: folder, fromBaseline: file, clock: clock) { sha256 in try container.readBlob(sha256) }
        } catch where !Store.hasDatabase(in: folder) {
            return nil
        }
        try store.recordSync { ledger in
            for (device, sequence) in entry.manifest.vector where device != store.deviceID {
                try ledger.setValue(String(sequence), for: SyncState.appliedKey(device))
            }
            try ledger.setValue(descriptor.container.storeString, for: SyncState.containerIDKey)
        }
        let engine = SyncEngine(store: store)
        engine.importProgress = progress
        var attached = try engine.attach(cloud: cloud, containerName: containerName, deviceName: deviceName, access: access, joined: true)
        attached.skipped = report.skipped + attached.skipped
        attached.baseline = (entry.name.databasePath, items)
        return (engine, attached)
    }

    // MARK: Baselines

    /// Syncs, then writes a baseline of the store into the container; returns what the sync
    /// did and the baseline's manifest.
    ///
    /// Then compacts: removes this device's logs and older baselines that the container no
    /// longer needs, and, as the writer of the newest baseline, blobs nothing uses any more
    /// (docs/sync-format.md, "Compaction"). `retentionDays`, when given, becomes
    /// this store's retention period: how long a device may go without syncing before the
    /// others stop waiting for it.
    public func compact(retentionDays: Int? = nil) throws -> (
        report: SyncReport, baseline: BaselineManifest, removedLogs: Int, removedBaselines: Int, removedBlobs: Int
    ) {
        try locked {
            if let retentionDays {
                try store.recordSync { ledger in try ledger.setValue(String(retentionDays), for: Compaction.retentionKey) }
            }
            let report = try sync()
            let state = try SyncState(store)
            guard let cloud = state.cloud, let name = state.containerName, let containerID = state.containerID else {
                throw SyncError.notEnabled
            }
            let container = try CloudContainer(cloud: cloud, name: name, identity: containerID, writer: store.deviceID, access: state.access)
            guard let (baseline, removed) = try baselineLocked(wait: true, { try writeBaselineAndCompact(container) }) else {
                throw SyncError.io(path: store.folder.appendingPathComponent("baseline.lock").path, reason: "it could not be locked")
            }
            return (report, baseline, removed.logs, removed.baselines, removed.blobs)
        }
    }

    /// How many logs, or log bytes, after the newest baseline make ``writeBaselineIfDue()``
    /// write one: a new device then replays at most about this much (about 2 s of import for
    /// 16 MiB on the benchmark machine) after copying the baseline.
    public static let baselineDue = (logs: 1_000, bytes: Int64(16 << 20))

    /// Writes a baseline and compacts, when the logs after the newest baseline reach
    /// ``baselineDue``, and no other process writes one; returns its manifest, else nil. What
    /// `notes watch` runs in the background: it takes the store's baseline lock, not its sync
    /// lock, so that syncs go on meanwhile.
    public func writeBaselineIfDue() throws -> BaselineManifest? {
        let state = try SyncState(store)
        guard state.state == .on, let cloud = state.cloud, let name = state.containerName, let containerID = state.containerID else {
            return nil
        }
        let container = try CloudContainer(cloud: cloud, name: name, identity: containerID, writer: store.deviceID, access: state.access)
        let written = try baselineLocked(wait: false) { () -> BaselineManifest? in
            let newest = try BaselineCatalog.read(container, containerID: containerID).entries.first?.manifest.vector ?? [:]
            var logs = 0
            var bytes: Int64 = 0
            for device in try container.logDevices().devices {
                for (sequence, size) in try container.logSizes(of: device) where sequence > newest[device] ?? 0 {
                    logs += 1
                    bytes += size
                }
            }
            guard logs >= Self.baselineDue.logs || bytes >= Self.baselineDue.bytes else { return nil }
            return try writeBaselineAndCompact(container).0
        }
        return written ?? nil
    }

    /// Runs `body` holding the store's baseline lock; with `wait` false, returns nil at once
    /// when another process holds it. Taken after the sync lock when both are held.
    private func baselineLocked<T>(wait: Bool, _ body: () throws -> T) throws -> T? {
        guard let lock = try SyncLock(storeFolder: store.folder, name: "baseline.lock", wait: wait) else { return nil }
        defer { withExtendedLifetime(lock) {} }
        return try body()
    }

    /// Writes a baseline of the store, says what it has applied, then compacts.
    private func writeBaselineAndCompact(_ container: CloudContainer) throws -> (BaselineManifest, Compaction.Outcome) {
        let baseline = try BaselineWriter(store: store, container: container, containerID: container.identity).write()
        let compaction = Compaction(store: store, container: container, containerID: container.identity)
        try compaction.acknowledge(force: true)
        return (baseline, try compaction.run())
    }

    /// Stops syncing and keeps every note; with `forget`, also removes this device's
    /// registration from the container.
    public func disable(forget: Bool) throws {
        try locked { try detachByRequest(forget: forget) }
    }

    private func detachByRequest(forget: Bool) throws {
        let state = try SyncState(store)
        if forget, let cloud = state.cloud, let name = state.containerName {
            if let identity = state.containerID {
                let container = try CloudContainer(cloud: cloud, name: name, identity: identity, writer: store.deviceID, access: state.access)
                try container.removeRegistration(of: store.deviceID)
            }
        }
        try setState(.detached, reason: forget ? "disabled, registration removed" : "disabled")
    }

    // MARK: Syncing

    /// How much of the container a sync looks through for logs to import.
    public enum ImportScope: Sendable {
        /// Every device's log folder is listed: every log is found, and those that cannot be
        /// applied yet are reported.
        case everything
        /// Only the next log of each device is looked up, by name: what a watcher does when it
        /// has just seen logs arrive, at a cost that does not grow with the container's
        /// history. A log that waits is left for the next full sync to report.
        case nextLogs
    }

    /// Exports, then imports; returns what it did. When the sentinel check detaches the
    /// device, throws ``SyncError/detached(reason:)``.
    @discardableResult
    public func syncNow(importing scope: ImportScope = .everything) throws -> SyncReport {
        try locked { try sync(importing: scope) }
    }

    /// The container's folder when sync is on, else nil; read from the store alone.
    public func containerFolder() throws -> URL? {
        let state = try SyncState(store)
        guard state.state == .on, let cloud = state.cloud, let name = state.containerName else { return nil }
        return cloud.appendingPathComponent(name)
    }

    private func sync(importing scope: ImportScope = .everything) throws -> SyncReport {
        let state = try SyncState(store)
        switch state.state {
        case .detached: throw SyncError.notEnabled
        case .off: throw SyncError.detached(reason: state.reason ?? "sync was switched off")
        case .on: break
        }
        guard let cloud = state.cloud, let name = state.containerName, let containerID = state.containerID else {
            throw SyncError.notEnabled
        }
        let container = try CloudContainer(cloud: cloud, name: name, identity: containerID, writer: store.deviceID, access: state.access)
        var report = SyncReport()
        // A watcher that saw logs arrive, with nothing to export, writes nothing to the cloud:
        // it imports without checking the sentinel, whose removal or replacement it would have
        // seen and answered with a full sync. Everything else checks it first.
        if try scope == .everything || store.hasOutboxEntries() {
            try settleLocalSaves()
            try checkSentinel(container, expected: containerID)
            report.exportedLogs = try LogExporter(store: store, container: container, containerID: containerID).export(state: state)
        }
        var importer = LogImporter(store: store, container: container, containerID: containerID)
        if scope == .everything { importer.progress = ProgressReporter(folder: store.folder, report: importProgress) }
        let compaction = Compaction(store: store, container: container, containerID: containerID)
        switch scope {
        case .everything:
            let before = report
            let present = try importer.importAvailable(into: &report)
            if try catchUpThroughBaseline(container, present: present, report: &report) {
                // Logs that waited or could not be read before may be behind the baseline now.
                let baseline = report.baseline
                report.waiting = before.waiting
                report.skipped = before.skipped
                try importer.importAvailable(into: &report)
                report.baseline = baseline
            }
            try checkOwnLogs(container)
        case .nextLogs:
            // Each log applied and exported recorded the time of sync in its own transaction.
            try importer.importNextLogs(applied: state.applied, into: &report)
            try? compaction.acknowledge(force: false)
            return report
        }
        try compaction.acknowledge(force: false)
        let cleanedUp = try removeStaleTemporaryFiles(container)
        try store.recordSync { ledger in
            try ledger.setValue(JSONText.iso(Date()), for: SyncState.lastSyncKey)
            try ledger.setValue(LastReport.encode(report), for: LastReport.key)
            if let cleanedUp { try ledger.setValue(JSONText.iso(cleanedUp), for: SyncState.temporaryCleanupKey) }
        }
        return report
    }

    /// Merges the newest baseline that holds a log this device needs and cannot get: the
    /// next log of a device that is gone (compacted, while later ones or a baseline holding it
    /// are there) or cannot be read. A device left behind comes back this way, with its own
    /// unsynced changes kept. Returns whether it merged one.
    private func catchUpThroughBaseline(_ container: CloudContainer, present: [UUID: Set<Int64>], report: inout SyncReport) throws -> Bool {
        let applied = try SyncState(store).applied
        let catalog = try BaselineCatalog.read(container, containerID: container.identity)
        var gaps: [UUID: Int64] = [:]
        var devices = Set(present.keys)
        for entry in catalog.entries { devices.formUnion(entry.manifest.vector.keys) }
        for device in devices where device != store.deviceID {
            let next = (applied[device] ?? 0) + 1
            let sequences = present[device] ?? []
            if sequences.contains(next) {
                guard report.skipped.contains(where: { $0.path == CloudContainer.logPath(device: device, sequence: next) }) else { continue }
                gaps[device] = next
            } else if sequences.contains(where: { $0 > next }) || catalog.entries.contains(where: { $0.manifest.vector[device] ?? 0 >= next }) {
                gaps[device] = next
            }
        }
        guard !gaps.isEmpty else { return false }
        let loader = BaselineLoader(container: container, containerID: container.identity, folder: store.folder)
        var found = SyncReport()
        guard let (entry, database, file) = try loader.newestVerified(
            aheadOf: applied, device: store.deviceID, covering: gaps, report: &found)
        else { return false }
        defer {
            database.close()
            try? FileManager.default.removeItem(at: file)
        }
        report.importedChanges += try loader.merge(database, entry, into: store)
        report.baseline = (entry.name.databasePath, try database.itemCount())
        return true
    }

    static let ownLogsCheckedKey = "own.logs.checked"

    /// Reads this device's logs that no baseline of its own holds, at most once an hour, and
    /// writes a baseline when one of them is damaged (its size or checksum): the baseline holds
    /// it, so that no device waits behind it for longer. (A device that waits behind a damaged
    /// log that a baseline holds already takes that baseline.)
    private func checkOwnLogs(_ container: CloudContainer) throws {
        let now = Date()
        let key = Self.ownLogsCheckedKey
        if let last = try store.syncValues(withPrefix: key)[key].flatMap(JSONText.date), last <= now,
            now.timeIntervalSince(last) < 3600
        {
            return
        }
        let held = try BaselineCatalog.read(container, containerID: container.identity).entries
            .filter { $0.manifest.device == store.deviceID }.compactMap { $0.manifest.vector[store.deviceID] }.max() ?? 0
        var damaged = false
        for sequence in try container.logSequences(of: store.deviceID).sequences where sequence > held {
            do {
                let log = try LogCodec.decode(container.readLog(device: store.deviceID, sequence: sequence, limit: LogCodec.maximumSize))
                if log.header.device != store.deviceID || log.header.sequence != sequence { damaged = true }
                // A blob removed as unused while this log was being published goes back.
                for sha256 in log.header.blobs where try !container.hasBlob(sha256) && store.hasBlob(sha256) {
                    try container.publishBlob(store.blobData(sha256), sha256: sha256)
                }
            } catch is LogProblem {
                damaged = true
            } catch let error as SyncError {
                if case .tooLarge = error { damaged = true } else if case .missing = error {} else { throw error }
            }
            if damaged { break }
        }
        if damaged { _ = try baselineLocked(wait: true) { try writeBaselineAndCompact(container) } }
        try store.recordSync { ledger in try ledger.setValue(JSONText.iso(now), for: key) }
    }

    /// Removes this device's stale temporary files from the container, at most once an hour;
    /// returns when it did, or nil when it was not time yet.
    private func removeStaleTemporaryFiles(_ container: CloudContainer) throws -> Date? {
        let now = Date()
        let last = try store.syncValues(withPrefix: SyncState.temporaryCleanupKey)[SyncState.temporaryCleanupKey].flatMap(JSONText.date)
        if let last, now.timeIntervalSince(last) < CloudContainer.staleTemporaryAge, last <= now { return nil }
        container.removeStaleTemporaryFiles(of: store.deviceID, now: now)
        return now
    }

    /// Checks the sentinel and this device's registration; detaches when either is
    /// definitely gone or the container is another one.
    func checkSentinel(_ container: CloudContainer, expected: UUID) throws {
        switch container.descriptor() {
        case let .unreadable(message):
            throw SyncError.unreadable(message)
        case .absent:
            try detach("the container's sentinel container.json is gone: sync was switched off or the container was wiped")
        case let .present(descriptor) where descriptor.isNewerFormat:
            try detach(
                "the container has format version \(descriptor.formatVersion), newer than this build understands; "
                    + "update notes to sync with it")
        case let .present(descriptor) where descriptor.container != expected:
            try detach(
                "the container is another one (identity \(descriptor.container.storeString), "
                    + "this device attached to \(expected.storeString)); nothing was merged or deleted")
        case .present:
            break
        }
        switch container.registration(of: store.deviceID) {
        case let .unreadable(message):
            throw SyncError.unreadable(message)
        case .absent:
            try detach("this device's registration devices/\(store.deviceID.storeString).json is gone")
        case .present:
            break
        }
    }

    private func detach(_ reason: String) throws -> Never {
        try setState(.off, reason: reason)
        throw SyncError.detached(reason: reason)
    }

    /// A local save applies no merge rule: what it moved may let an item the merge displaced
    /// go back, and what it removed may leave an item kept for a change its purge had not
    /// seen without one. Before its changes are exported, the rules place and erase here what
    /// they will on every device the changes reach.
    private func settleLocalSaves() throws {
        let displaced = try store.hasDisplacedItems()
        let kept = try store.hasKeptPurgedItems()
        guard try (displaced || kept) && store.hasOutboxEntries() else { return }
        try store.merge { replica in
            if displaced { try HierarchyRepair(replica: replica).placeDisplaced() }
            if kept { try CausalDelete(replica: replica, history: HistoryMerger(replica: replica)).recheckKeptItems() }
        }
    }

    private func setState(_ state: SyncStatus.State, reason: String?) throws {
        try store.recordSync { ledger in
            try ledger.setValue(state.rawValue, for: SyncState.stateKey)
            try ledger.setValue(reason, for: SyncState.reasonKey)
            try ledger.setValue(JSONText.iso(Date()), for: SyncState.sinceKey)
        }
    }
}
