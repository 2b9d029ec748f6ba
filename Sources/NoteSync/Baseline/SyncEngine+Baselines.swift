import Foundation
import NoteStore

/// Baselines in the engine (docs/sync-format.md, section 15): joining from one, writing one
/// and compacting, and catching up through one when logs are gone or damaged.
extension SyncEngine {
    // MARK: Joining

    /// Merges the newest baseline that is ahead of this store and verifies, when there is one.
    func startFromBaseline(_ container: CloudContainer, report: inout SyncReport) throws {
        let loader = BaselineLoader(
            container: container, containerID: container.identity, folder: store.folder, store: store)
        guard
            let (entry, database, file) = try loader.newestVerified(
                aheadOf: try SyncState(store).applied, device: store.deviceID, report: &report)
        else { return }
        defer {
            database.close()
            try? FileManager.default.removeItem(at: file)
        }
        report.importedChanges += try loader.merge(database, entry, file: file, into: store)
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
        access: CloudAccess = .private, progress: ((ImportProgress) -> Void)? = nil,
        passphrase: PassphraseSource? = nil,
        encrypt: Bool = false, hooks: SyncHooks = .none
    ) throws -> (engine: SyncEngine, report: SyncReport)? {
        guard !Store.hasDatabase(in: folder) else { return nil }
        let probe = try CloudContainer(cloud: cloud, name: containerName, identity: UUID(), access: access)
        guard case let .present(descriptor) = probe.descriptor(), !descriptor.isNewerFormat else { return nil }
        var container = try CloudContainer(
            cloud: cloud, name: containerName, identity: descriptor.container, access: access)
        if encrypt && descriptor.encryption == nil { throw SyncError.plainContainer(path: container.url.path) }
        // The passphrase is checked before anything is made: a wrong one leaves no folder behind.
        let key =
            descriptor.encryption == nil
            ? nil
            : try StoredKey.read(in: folder, container: descriptor.container)
                ?? unlockedKey(of: container, passphrase: passphrase)
        do {
            try FileManager.default.createDirectory(
                at: folder, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        } catch {
            return nil
        }
        let lock = try SyncLock(storeFolder: folder)
        defer { withExtendedLifetime(lock) {} }
        guard !Store.hasDatabase(in: folder) else { return nil }
        if let key {
            try StoredKey.write(key, container: descriptor.container, in: folder)
            container.sealing = FileSealing(key: key, container: descriptor.container)
        }
        var report = SyncReport()
        let loader = BaselineLoader(container: container, containerID: descriptor.container, folder: folder)
        var unusable: [String: UnusableBaseline?] = [:]
        guard
            let (entry, database, file) = try loader.newestVerified(
                aheadOf: [:], device: nil, report: &report, found: &unusable)
        else { return nil }
        let clock = ClockSkew.adoptable(try database.clock(), now: Date())
        let items = try database.itemCount()
        database.close()
        hooks.reach(.joinVerified)
        let store: Store
        do {
            store = try Store.create(folder: folder, fromBaseline: file, clock: clock) { sha256, destination in
                try container.fetchBlob(sha256, to: destination)
            }
        } catch  where !Store.hasDatabase(in: folder) {
            return nil
        }
        hooks.reach(.joinLinked)
        // The baselines passed over are not checked again by the new store while they stay the same.
        try UnusableBaseline.record(unusable, in: store)
        try store.recordSync { ledger in
            for (device, sequence) in entry.manifest.vector where device != store.deviceID {
                try ledger.setApplied(sequence, of: device)
            }
            try ledger.update { record in
                record.containerID = descriptor.container
                record.containerCreated = descriptor.created
            }
        }
        let engine = SyncEngine(store: store, hooks: hooks)
        engine.importProgress = progress
        engine.passphrase = passphrase
        var attached = try engine.attach(
            cloud: cloud, containerName: containerName, deviceName: deviceName, access: access, joined: true)
        attached.skipped = report.skipped + attached.skipped.filter { skipped in !report.skipped.contains(skipped) }
        attached.baseline = (entry.name.databasePath, items)
        return (engine, attached)
    }

    // MARK: Writing and compacting

    /// Syncs, then writes a baseline of the store into the container; returns what the sync
    /// did and the baseline's manifest.
    ///
    /// Then compacts: removes this device's logs and older baselines that the container no
    /// longer needs, and, as the writer of the newest baseline, blobs nothing uses any more
    /// (docs/sync-format.md, "Compaction"). `retentionDays`, when given, becomes
    /// this store's retention period: how long a device may go without syncing before the
    /// others stop waiting for it. `keepVersions` and `keepDays`, when given, become what this
    /// store's baselines keep of history: at least the last `keepVersions` versions of each
    /// name and body and those of the last `keepDays` days (by default 100 and 90); older ones
    /// go when every device is quiet (docs/sync-format.md, "Retention of history").
    public func compact(retentionDays: Int? = nil, keepVersions: Int? = nil, keepDays: Int? = nil) throws -> (
        report: SyncReport, baseline: BaselineManifest, removedLogs: Int, removedBaselines: Int, removedBlobs: Int,
        history: HistoryDropped
    ) {
        try locked {
            try store.recordSync { ledger in
                try ledger.update { record in
                    if let retentionDays { record.retentionDays = Double(retentionDays) }
                    if let keepVersions { record.historyKeepVersions = keepVersions }
                    if let keepDays { record.historyKeepDays = keepDays }
                }
            }
            let report = try sync()
            let container = try containerHandle(try SyncState(store))
            guard let (baseline, removed) = try baselineLocked(wait: true, { try writeBaselineAndCompact(container) })
            else {
                throw SyncError.io(
                    path: store.folder.appendingPathComponent("baseline.lock").path, reason: "it could not be locked")
            }
            return (report, baseline.manifest, removed.logs, removed.baselines, removed.blobs, baseline.history)
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
        guard state.state == .on, let containerID = state.containerID else { return nil }
        let container = try containerHandle(state)
        let written = try baselineLocked(wait: false) { () -> BaselineManifest? in
            let newest =
                try BaselineCatalog.read(container, containerID: containerID).entries.first?.manifest.vector ?? [:]
            var logs = 0
            var bytes: Int64 = 0
            for device in try container.logDevices().devices {
                for (sequence, size) in try container.logSizes(of: device) where sequence > newest[device] ?? 0 {
                    logs += 1
                    bytes += size
                }
            }
            guard logs >= Self.baselineDue.logs || bytes >= Self.baselineDue.bytes else { return nil }
            return try writeBaselineAndCompact(container).0.manifest
        }
        return written ?? nil
    }

    /// How often, at most, a device rewrites its registration with what it has applied.
    public var acknowledgementInterval: TimeInterval { hooks.acknowledgementInterval }

    /// Rewrites this device's registration with what it has applied (and, when nothing
    /// waits to be published, `clean`) when it last did so longer ago than
    /// ``acknowledgementInterval``: what `notes watch` runs that long after a sync that
    /// skipped it, so that the registration ends up saying what the device holds once things
    /// are quiet, and history can go (docs/sync-format.md, "Retention of history").
    public func acknowledgeIfDue() throws {
        let state = try SyncState(store)
        guard state.state == .on, state.containerID != nil else { return }
        let container = try containerHandle(state)
        try Compaction(store: store, container: container, containerID: container.identity, hooks: hooks).acknowledge(
            force: false)
    }

    /// Runs `body` holding the store's baseline lock; with `wait` false, returns nil at once
    /// when another process holds it. Taken after the sync lock when both are held.
    private func baselineLocked<T>(wait: Bool, _ body: () throws -> T) throws -> T? {
        guard let lock = try SyncLock(storeFolder: store.folder, name: "baseline.lock", wait: wait) else { return nil }
        defer { withExtendedLifetime(lock) {} }
        return try body()
    }

    /// Writes a baseline of the store, says what it has applied, then compacts.
    private func writeBaselineAndCompact(_ container: CloudContainer) throws -> (
        BaselineWriter.Written, Compaction.Outcome
    ) {
        let baseline = try BaselineWriter(
            store: store, container: container, containerID: container.identity, hooks: hooks
        ).write()
        let compaction = Compaction(store: store, container: container, containerID: container.identity, hooks: hooks)
        try compaction.acknowledge(force: true)
        return (baseline, try compaction.run())
    }

    // MARK: Catching up and healing

    /// Merges the newest baseline that holds a log this device needs and cannot get: the
    /// next log of a device that is gone (compacted, while later ones or a baseline holding it
    /// are there) or cannot be read. A device left behind comes back this way, with its own
    /// unsynced changes kept. Returns whether it merged one.
    func catchUpThroughBaseline(_ container: CloudContainer, present: [UUID: Set<Int64>], report: inout SyncReport)
        throws -> Bool
    {
        let applied = try SyncState(store).applied
        let catalog = try BaselineCatalog.read(container, containerID: container.identity)
        // Carried into this device's baselines, for the devices that come back without one.
        if HistoryRetention.wasDropped(in: catalog) { try HistoryRetention.noteDropped(in: store) }
        // Baselines found unusable and gone since are forgotten.
        try UnusableBaseline.record([:], present: Set(catalog.entries.map(\.name.databasePath)), in: store)
        var gaps: [UUID: Int64] = [:]
        var devices = Set(present.keys)
        for entry in catalog.entries { devices.formUnion(entry.manifest.vector.keys) }
        for device in devices where device != store.deviceID {
            let next = (applied[device] ?? 0) + 1
            let sequences = present[device] ?? []
            if sequences.contains(next) {
                guard
                    report.skipped.contains(where: { $0.path == CloudContainer.logPath(device: device, sequence: next) }
                    )
                else { continue }
                gaps[device] = next
            } else if sequences.contains(where: { $0 > next })
                || catalog.entries.contains(where: { $0.manifest.vector[device] ?? 0 >= next })
            {
                gaps[device] = next
            }
        }
        guard !gaps.isEmpty else { return false }
        let loader = BaselineLoader(
            container: container, containerID: container.identity, folder: store.folder, store: store)
        var found = SyncReport()
        let taken = try loader.newestVerified(aheadOf: applied, device: store.deviceID, covering: gaps, report: &found)
        // The baselines passed over are reported, once each, in `sync status` too.
        report.skipped += found.skipped.filter { skipped in !report.skipped.contains { $0.path == skipped.path } }
        guard let (entry, database, file) = taken else { return false }
        defer {
            database.close()
            try? FileManager.default.removeItem(at: file)
        }
        report.importedChanges += try loader.merge(database, entry, file: file, into: store)
        report.baseline = (entry.name.databasePath, try database.itemCount())
        return true
    }

    /// Writes a baseline when another device waits for logs of this device that it cannot
    /// have (``AwaitedLogs``): the baseline holds them, and the waiting device takes it.
    func coverAwaitedLogs(_ logs: AwaitedLogs) throws {
        guard try logs.isBaselineDue() else { return }
        _ = try baselineLocked(wait: true) { try writeBaselineAndCompact(logs.container) }
    }

    /// Reads this device's logs that no baseline of its own holds, at most once an hour, or at
    /// once when `now` (another device says it waits for a log of this device, or this sync
    /// found one of this device's logs in another device's folder), and writes a baseline when
    /// one of them is damaged (its size or checksum), or when its own newest
    /// baseline is damaged: the baseline holds it, so that no device waits behind it for
    /// longer. (A device that waits behind a damaged log that a baseline holds already takes
    /// that baseline.) A file in this device's folder whose header names another device was
    /// not written by this device (the folders of two devices traded places, or a file was
    /// copied in): it is removed, so that nobody waits on it and this device's next log can
    /// take its name. Then puts right the blobs the latest logs list, and those this store's
    /// attachments use, when they are missing or damaged and this store holds them
    /// (``BlobRepair/repairListed()``).
    func checkOwnLogs(_ container: CloudContainer, now checkNow: Bool = false) throws {
        let now = Date()
        if !checkNow, let last = try store.syncRecord().ownLogsChecked, last <= now,
            now.timeIntervalSince(last) < 3600
        {
            return
        }
        let catalog = try BaselineCatalog.read(container, containerID: container.identity)
        let held =
            catalog.entries
            .filter { $0.manifest.device == store.deviceID }.compactMap { $0.manifest.vector[store.deviceID] }.max()
            ?? 0
        let published = try SyncState(store).exportedSequence
        var damaged = try isNewestOwnBaselineDamaged(container, catalog: catalog)
        for sequence in try container.logSequences(of: store.deviceID).sequences where sequence > held {
            do {
                let log = try LogCodec.decode(
                    container.readLog(device: store.deviceID, sequence: sequence, limit: LogCodec.maximumSize))
                if log.header.device != store.deviceID {
                    try container.fileSystem.remove(
                        container.path(container.logPath(of: store.deviceID, sequence: sequence)))
                    damaged = damaged || sequence <= published
                } else if log.header.sequence != sequence {
                    damaged = true
                }
            } catch is LogProblem {
                damaged = true
            } catch let error as SyncError {
                switch error {
                case .tooLarge, .damaged: damaged = true
                case .missing: break
                default: throw error
                }
            }
        }
        // A log of this device gone from its folder matters when another device has not
        // applied it: that device waits for it and says so, and ``AwaitedLogs`` covers it.
        if damaged { _ = try baselineLocked(wait: true) { try writeBaselineAndCompact(container) } }
        try BlobRepair(store: store, container: container, containerID: container.identity).repairListed()
        try store.recordSync { ledger in try ledger.update { $0.ownLogsChecked = now } }
    }

    /// Whether another device says it waits for a log of this device, or this sync found a log
    /// whose header names this device in another device's folder: either says that this
    /// device's folder may hold what it did not write, or lack what it did.
    func ownLogsNeedACheck(_ container: CloudContainer, report: SyncReport) throws -> Bool {
        if report.ownLogsElsewhere { return true }
        let me = store.deviceID
        return try container.devices().registrations.contains { $0.device != me && $0.waiting?.logs[me] != nil }
    }

    /// Whether this device's newest baseline (or a manifest of its own) cannot be used: a
    /// manifest that does not read, or a database without the size and SHA-256 of its manifest.
    /// When its logs were compacted, a new device could start from nothing else: a new
    /// baseline puts it right, as for a damaged log.
    private func isNewestOwnBaselineDamaged(_ container: CloudContainer, catalog: BaselineCatalog) throws -> Bool {
        let own = CloudName.baselines + "/" + CloudName.text(of: store.deviceID) + "/"
        if catalog.skipped.contains(where: { $0.path.hasPrefix(own) && $0.reason != .foreignContainer }) { return true }
        guard let newest = catalog.entries.first(where: { $0.manifest.device == store.deviceID }) else { return false }
        let copy = BaselineLoader.temporaryFile(in: store.folder, .taken)
        defer { try? FileManager.default.removeItem(at: copy) }
        do {
            // The size first: a database of another size than its manifest's is not copied.
            guard try container.baselineFiles(newest.name).database.size == newest.manifest.bytes else { return true }
            let bytes = try container.copyBaselineDatabase(newest.name, to: copy, limit: Int(newest.manifest.bytes))
            return try bytes != newest.manifest.bytes || BaselineLoader.sha256(of: copy) != newest.manifest.sha256
        } catch let error as SyncError {
            switch error {
            case .tooLarge, .damaged: return true
            case .missing: return false
            default: throw error
            }
        }
    }
}
