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
    /// The container name used when none is given: ``CloudContainer/defaultName``.
    public static let defaultContainerName = CloudContainer.defaultName
    /// Told how far an import of the other devices' logs has come (by `sync now` and
    /// `enable`; the watcher's imports of the next logs report nothing), on the importing
    /// thread, after each log and every few hundred changes.
    public var importProgress: ((ImportProgress) -> Void)?
    /// Where a passphrase comes from when an encrypted container's key is not kept in the
    /// store yet (`notes` asks on the terminal, or reads a file or the environment); nil: none.
    public var passphrase: PassphraseSource?
    /// For tests: runs when `notes sync enable` has turned recording on and taken its snapshot
    /// (or would have, for a store made from a baseline), before it writes its sync values, as
    /// another process's save could.
    var snapshotTaken: (() throws -> Void)?

    /// What a test changes of this sync; ``SyncHooks/none`` otherwise.
    public let hooks: SyncHooks

    public init(store: Store, hooks: SyncHooks) {
        self.store = store
        self.hooks = hooks
    }

    /// An engine that no test hook changes.
    public convenience init(store: Store) {
        self.init(store: store, hooks: .none)
    }

    // MARK: Enable and disable

    /// Attaches the store to `cloud/containerName`, creating the container when absent, and
    /// pushes a snapshot of the whole store into it; then syncs.
    @discardableResult
    ///
    /// What it writes into the cloud folder, then and later, is readable by this account alone,
    /// or also by the group with `access` `.group`.
    ///
    /// With `encrypt`, a container made here is encrypted (docs/sync-format.md, section 16),
    /// with a passphrase from ``passphrase``; an encrypted container is joined with its
    /// passphrase whether or not `encrypt` is given.
    public func enable(
        cloud: URL, containerName: String = defaultContainerName, deviceName: String, access: CloudAccess = .private,
        encrypt: Bool = false, allowPlain: Bool = false
    ) throws -> SyncReport {
        try locked {
            try attach(
                cloud: cloud, containerName: containerName, deviceName: deviceName, access: access, encrypt: encrypt,
                allowPlain: allowPlain)
        }
    }

    /// Attaches as ``enable(cloud:containerName:deviceName:access:)`` says. A store that a
    /// baseline made (`joined`) pushes no snapshot: all it holds came from the container. A
    /// store new to the container starts from the newest baseline there, merged into what it
    /// holds, and pushes what it held before.
    func attach(
        cloud: URL, containerName: String, deviceName: String, access: CloudAccess, joined: Bool = false,
        encrypt: Bool = false,
        allowPlain: Bool = false
    ) throws -> SyncReport {
        if !encrypt && !allowPlain { try refuseToGoPlain(cloud: cloud, name: containerName, access: access) }
        let container = try containerForAttaching(cloud: cloud, name: containerName, access: access, encrypt: encrypt)
        // A device coming back without its registration may have edits to keep as notes of
        // their own (below); said in the store before the registration is written, so that a
        // stop in between does not pass them over when enabling again.
        let previous = try SyncState(store)
        if case .absent = container.registration(of: store.deviceID), previous.containerID == container.identity,
            !joined
        {
            try store.recordSync { ledger in try ledger.update { $0.returning = true } }
        }
        try container.register(
            DeviceRegistration(
                container: container.identity, device: store.deviceID, name: deviceName, registered: Date(),
                modelVersion: Store.currentModelVersion))
        let created: Date? =
            if case let .present(descriptor) = container.descriptor() { descriptor.created } else { nil }
        var published = try container.logSequences(of: store.deviceID).sequences.last ?? 0
        if previous.containerID == container.identity {
            // Logs of this device may not all be visible here yet: never reuse a sequence.
            published = max(published, previous.exportedSequence)
        }
        // Saves record their changes from here on (a new store recorded none): each save
        // after the snapshot is in the outbox past `outboxThrough`, and is exported.
        try store.startRecordingChanges()
        var keptEdits = 0
        if try store.syncRecord().returning {
            keptEdits = try UnpublishedEdits(store: store).keepIfHistoryWasDropped(
                in: container, deviceName: deviceName)
            try store.recordSync { ledger in try ledger.update { $0.returning = false } }
        }
        // Held while the baseline is merged below: what is pushed is what this store held.
        let snapshot = joined ? nil : try store.holdSnapshot()
        try snapshotTaken?()
        try store.recordSync { ledger in
            if previous.containerID != container.identity { try ledger.forgetContainerRecords() }
            try ledger.update { record in
                record.exportedSequence = published
                record.cloud = URL(fileURLWithPath: cloud.standardizedFileURL.path)
                record.containerName = containerName
                record.containerID = container.identity
                record.containerCreated = created
                if previous.containerID != container.identity { record.containerShared = false }
                record.encrypted = container.sealing != nil
                record.deviceName = deviceName
                record.groupAccess = access == .group
                record.state = .detached
                record.reason = .beingEnabled
            }
        }
        var report = SyncReport()
        if !joined && (previous.containerID != container.identity || previous.applied.isEmpty) {
            try startFromBaseline(container, report: &report)
        }
        // Pushed before the state says `on`: if the push stops half way, enabling again pushes
        // the snapshot once more after what was published, and the merge rules make it harmless.
        let pushed = try snapshot.map {
            try SnapshotPusher(store: store, container: container, containerID: container.identity).push($0)
        }
        try store.recordSync { ledger in
            try ledger.removeOutboxEntries(through: snapshot?.outboxThrough ?? 0)
            try ledger.update { record in
                record.state = .on
                record.reason = nil
                record.since = Date()
            }
        }
        var synced = try sync()
        synced.exportedLogs += pushed ?? 0
        synced.importedChanges += report.importedChanges
        synced.skipped = report.skipped + synced.skipped
        synced.baseline = report.baseline
        synced.keptEdits = keptEdits
        return synced
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
                let container = try CloudContainer(
                    cloud: cloud, name: name, identity: identity, writer: store.deviceID, access: state.access)
                try container.removeRegistration(of: store.deviceID)
            }
        }
        try setState(.detached, reason: .disabled(registrationRemoved: forget))
    }

    // MARK: Syncing

    /// How much of the container a sync looks through for logs to import.
    public enum ImportScope: Sendable, Equatable {
        /// Every device's log folder is listed: every log is found, and those that cannot be
        /// applied yet are reported.
        case everything
        /// Only the next log of each device is looked up, by name: what a watcher does when it
        /// has just seen logs arrive, at a cost that does not grow with the container's
        /// history. A log that waits is left for the next full sync to report.
        case nextLogs
        /// As ``nextLogs``, looking first at the next logs of these devices alone (those whose
        /// logs were seen to arrive), and at every other device's once a log was applied (which
        /// may be what one of them waited for): what a watcher does, at a cost that does not
        /// grow with the number of devices.
        case nextLogsOf(Set<UUID>)
    }

    /// What a watcher imports once the files at `paths` (relative to the container) were seen
    /// to arrive: the next logs of their devices when they are all logs of other devices,
    /// everything when one is any other file, nil when they are this device's own logs alone.
    public func importScope(afterArrivalOf paths: [String]) -> ImportScope? {
        var devices: Set<UUID> = []
        for path in paths where !isOwnLog(path) {
            guard let (device, _) = CloudContainer.logPosition(ofPath: path) else { return .everything }
            devices.insert(device)
        }
        return devices.isEmpty ? nil : .nextLogsOf(devices)
    }

    /// Exports, then imports; returns what it did. When the sentinel check detaches the
    /// device, throws ``SyncError/detached(reason:)``.
    @discardableResult
    public func syncNow(importing scope: ImportScope = .everything) throws -> SyncReport {
        try lockedWithState { state in try sync(importing: scope, state: state) }
    }

    /// The container's folder when sync is on, else nil; read from the store alone.
    public func containerFolder() throws -> URL? {
        let state = try SyncState(store)
        guard state.state == .on, let cloud = state.cloud, let name = state.containerName else { return nil }
        return cloud.appendingPathComponent(name)
    }

    /// One sync, as a list of steps: the sentinel, recovery of this device's own logs and
    /// export (when there is something to write to the cloud, or the sync is full), then import
    /// and catch-up, the acknowledgement of what was applied, and the record of the sync.
    ///
    /// `state` is sync's state as last committed, when the caller has just read it.
    func sync(importing scope: ImportScope = .everything, state known: SyncState? = nil) throws -> SyncReport {
        let state = try known ?? SyncState(store)
        let containerID = try attachedContainerID(state)
        let container = try containerHandle(state)
        var report = SyncReport()
        // A watcher that saw logs arrive, with nothing to export, writes nothing to the cloud:
        // it imports without checking the sentinel, whose removal or replacement it would have
        // seen and answered with a full sync. Everything else checks it first.
        if scope == .everything || state.hasOutboxEntries {
            try store.settleLocalSaves()
            if let adopted = try confirmSentinel(container, state: state, scope: scope) { return adopted }
            let exporting = scope == .everything ? try recoverOwnLogs(container, state: state, report: &report) : state
            report.exportedLogs = try exportSaves(container, from: exporting, clearingError: state.exportError != nil)
        }
        let compaction = Compaction(store: store, container: container, containerID: containerID, hooks: hooks)
        switch scope {
        case .everything:
            let awaited = try importEverything(container, report: &report)
            try acknowledgeApplied(compaction, awaited: awaited, report: report)
            try recordLastSync(container, report: report)
            return report
        case .nextLogs:
            return try importNextLogs(container, state: state, compaction: compaction, report: report)
        case let .nextLogsOf(devices):
            return try importNextLogs(
                container, state: state, compaction: compaction, report: report, lookingFirstAt: devices)
        }
    }

    /// The identity of the container sync is on with; throws when sync is not on.
    private func attachedContainerID(_ state: SyncState) throws -> UUID {
        switch state.state {
        case .detached: throw SyncError.notEnabled
        case .off: throw SyncError.detached(reason: state.reason?.description ?? "sync was switched off")
        case .on: break
        }
        guard let containerID = state.containerID else { throw SyncError.notEnabled }
        return containerID
    }

    /// Publishes again what this device published and lost (``OwnLogRecovery``); returns the
    /// state to export from, read again when it recovered a log.
    private func recoverOwnLogs(_ container: CloudContainer, state: SyncState, report: inout SyncReport) throws
        -> SyncState
    {
        report.recoveredLogs = try OwnLogRecovery(
            store: store, container: container, containerID: container.identity, hooks: hooks
        )
        .recover(exported: state.exportedSequence, report: &report)
        return report.recoveredLogs > 0 ? try SyncState(store) : state
    }

    /// Exports the outbox as logs; returns how many it wrote. A failure is recorded, and said
    /// by `sync status` until an export succeeds (`clearingError`: one was recorded before).
    private func exportSaves(_ container: CloudContainer, from state: SyncState, clearingError: Bool) throws -> Int {
        do {
            let exported = try LogExporter(
                store: store, container: container, containerID: container.identity, hooks: hooks
            )
            .export(state: state)
            if clearingError { try store.recordSync { try $0.update { $0.exportError = nil } } }
            return exported
        } catch {
            try? store.recordSync { ledger in
                try ledger.update { $0.exportError = SyncRecord.ExportFailure(date: Date(), message: "\(error)") }
            }
            throw error
        }
    }

    /// The import step of a full sync: imports every log that can be applied, catches up
    /// through a baseline when logs are gone, publishes again the logs this device passed
    /// over, and finds and mends what this device and the others wait for; returns what this
    /// device waits for.
    private func importEverything(_ container: CloudContainer, report: inout SyncReport) throws -> AwaitedFiles {
        let containerID = container.identity
        var importer = LogImporter(store: store, container: container, containerID: containerID, hooks: hooks)
        importer.progress = ProgressReporter(folder: store.folder, report: importProgress)
        let before = report
        var present = try importer.importAvailable(into: &report)
        present = try catchUp(container, importer: importer, present: present, before: before, report: &report)
        report.exportedLogs += try PassedOverLogs(store: store, container: container, containerID: containerID)
            .republish()
        var awaited = AwaitedFiles()
        let blobs = BlobRepair(store: store, container: container, containerID: containerID)
        awaited.blobs = try blobs.fetchAwaited().union(report.neededBlobs.filter { !store.hasBlob($0) })
        try blobs.repairAwaitedByOthers()
        let logs = AwaitedLogs(store: store, container: container, containerID: containerID)
        awaited.logs = try logs.find(present: present, report: report)
        try checkOwnLogs(container, now: ownLogsNeedACheck(container, report: report))
        try coverAwaitedLogs(logs)
        return awaited
    }

    /// The catch-up step: merges a baseline when a log this device needs is gone or cannot be
    /// read (``catchUpThroughBaseline(_:present:report:)``), then imports again, with what
    /// waited or was skipped reported as it was `before` the first import; returns the logs
    /// present, as the last import found them.
    private func catchUp(
        _ container: CloudContainer, importer: LogImporter, present: [UUID: Set<Int64>], before: SyncReport,
        report: inout SyncReport
    ) throws -> [UUID: Set<Int64>] {
        guard try catchUpThroughBaseline(container, present: present, report: &report) else { return present }
        // Logs that waited or could not be read before may be behind the baseline now.
        let baseline = report.baseline
        report.waiting = before.waiting
        report.skipped = before.skipped
        let found = try importer.importAvailable(into: &report)
        report.baseline = baseline
        return found
    }

    /// The import step of a watcher that saw logs arrive: imports the next log of each device
    /// (looking first at `first` alone, when given).
    private func importNextLogs(
        _ container: CloudContainer, state: SyncState, compaction: Compaction, report: SyncReport,
        lookingFirstAt first: Set<UUID>? = nil
    ) throws -> SyncReport {
        var report = report
        let importer = LogImporter(store: store, container: container, containerID: container.identity, hooks: hooks)
        // Each log applied and exported recorded the time of sync in its own transaction.
        try importer.importNextLogs(applied: state.applied, lookingFirstAt: first, into: &report)
        try? compaction.acknowledge(force: false)
        // A log that cannot be read, or that waits for a blob the container lacks or holds
        // damaged, is a fault: a full sync says so in this device's registration at once,
        // so that a device that can mend it does.
        guard report.skipped.isEmpty && report.neededBlobs.isEmpty else {
            var full = try sync(importing: .everything)
            full.importedLogs += report.importedLogs
            full.importedChanges += report.importedChanges
            full.conflicts += report.conflicts
            full.leftOut += report.leftOut
            full.clocksAhead.merge(report.clocksAhead) { max($0, $1) }
            return full
        }
        return report
    }

    /// Records what this device waits for and rewrites its registration with what it has
    /// applied, when due or when that changed.
    private func acknowledgeApplied(_ compaction: Compaction, awaited: AwaitedFiles, report: SyncReport) throws {
        // A log passed over, or a change in what this device waits for, is said at once: a
        // device that can mend it (the writer may have to publish a log again) does so at its
        // next sync.
        let awaitedChanged = try SyncState.recordAwaited(awaited, in: store)
        try compaction.acknowledge(
            force: awaitedChanged
                || report.skipped.contains { $0.reason == .foreignContainer || $0.reason == .missingBase })
    }

    /// Removes stale temporary files when due, and records the time and the report of the sync.
    private func recordLastSync(_ container: CloudContainer, report: SyncReport) throws {
        let cleanedUp = try removeStaleTemporaryFiles(container)
        try store.recordSync { ledger in
            try ledger.update { record in
                record.lastSync = Date()
                record.lastReport = LastReport.encode(report)
                if let cleanedUp { record.temporaryCleanup = cleanedUp }
            }
        }
    }

    /// Removes this device's stale temporary files from the container, at most once an hour;
    /// returns when it did, or nil when it was not time yet.
    private func removeStaleTemporaryFiles(_ container: CloudContainer) throws -> Date? {
        let now = Date()
        let last = try store.syncRecord().temporaryCleanup
        if let last, now.timeIntervalSince(last) < CloudContainer.staleTemporaryAge, last <= now { return nil }
        container.removeStaleTemporaryFiles(of: store.deviceID, now: now)
        return now
    }

    /// Records the state of sync and why, as of now.
    func setState(_ state: SyncStatus.State, reason: SyncStateReason?) throws {
        try store.recordSync { ledger in
            try ledger.update { record in
                record.state = state
                record.reason = reason
                record.since = Date()
            }
        }
    }
}
