import Foundation
import NoteStore

/// What a device removes of its own files once a baseline holds them (docs/sync-format.md,
/// "Compaction"), and the record of what it has applied that lets the others do the same.
///
/// A device removes files in its own namespace only: its logs that the *anchor* holds (the
/// baseline whose vector is at least every other baseline's, checked by size and SHA-256) and
/// that every registered device that still syncs has applied, as each says in its
/// registration; and its own baselines that the anchor holds, but the anchor. The writer of
/// the anchor also removes blobs that nothing uses any more. A device that
/// has not synced for longer than the retention period is *left behind*: the others no longer
/// wait for it, and it rejoins through a baseline when it comes back.
struct Compaction {
    let store: Store
    let container: CloudContainer
    let containerID: UUID
    /// What a test changes of the sync (``SyncHooks``).
    var hooks = SyncHooks.none

    /// How long a device may go without syncing before it is left behind, by default.
    static let defaultRetention: TimeInterval = 30 * 86400
    /// How often a device rewrites its registration with what it has applied, at most: 10
    /// minutes, unless its ``SyncHooks`` say otherwise.
    var acknowledgementInterval: TimeInterval { hooks.acknowledgementInterval }

    /// The retention period set for this store, else the default.
    static func retention(_ store: Store) throws -> TimeInterval {
        let days = try store.syncRecord().retentionDays
        return days.map { $0 * 86400 } ?? defaultRetention
    }

    /// Rewrites this device's registration with the logs it has applied and the time, when it
    /// last did so longer ago than ``acknowledgementInterval``, or when `force`. A registration
    /// that is not there or cannot be read is left alone (the sentinel check deals with it).
    func acknowledge(force: Bool, now: Date = Date()) throws {
        let snapshot = try store.syncSnapshot()
        if !force, let last = snapshot.record.acknowledged,
            last <= now, now.timeIntervalSince(last) < acknowledgementInterval
        {
            return
        }
        guard case var .present(registration) = container.registration(of: store.deviceID) else { return }
        let state = SyncState(snapshot)
        let applied = state.applied.filter { $0.key != store.deviceID && $0.value > 0 }
        registration.applied = applied
        registration.passedOver = state.passedOver.isEmpty ? nil : state.passedOver
        registration.waiting = state.awaited.isEmpty ? nil : state.awaited
        registration.synced = CloudJSON.normalized(now)
        // Read in this order: what was applied, then whether anything saved waits to be
        // published, then the last log published, so that everything saved before the outbox
        // was found empty lies in this device's logs up to that one, even when a sync exports
        // or imports meanwhile (a baseline of `notes watch` says so outside the sync's lock).
        // When something waits, what the registration said at an earlier such moment holds.
        if try !store.hasOutboxEntries() {
            let published = try store.syncRecord().exportedSequence
            registration.clean = applied.merging([store.deviceID: published]) { _, own in own }
        }
        // What the registration says is applied must outlive a power cut: imports commit
        // without waiting for the disk, and this commit, synced, takes them to it. Were they
        // undone after the registration said so, others would remove logs or versions this
        // device still needs.
        let previous = snapshot.record.acknowledged
        try store.recordSync { ledger in try ledger.update { $0.acknowledged = now } }
        do {
            try container.register(registration)
        } catch {
            try? store.recordSync { ledger in try ledger.update { $0.acknowledged = previous } }
            throw error
        }
    }

    /// What ``run(now:)`` removed.
    struct Outcome {
        var logs = 0
        var baselines = 0
        var blobs = 0
    }

    /// How long a blob stays unused, seen so at two compactions, before it is removed: longer
    /// than any export takes between finding a blob in the container and publishing the log
    /// that uses it.
    static let blobGrace: TimeInterval = 86400

    /// Removes this device's logs and baselines that the anchor holds and no device that
    /// still syncs needs; nothing when there is no anchor. The caller holds the store's
    /// baseline lock.
    func run(now: Date = Date()) throws -> Outcome {
        let catalog = try BaselineCatalog.read(container, containerID: containerID)
        let file = BaselineLoader.temporaryFile(in: store.folder, .written)
        defer { try? FileManager.default.removeItem(at: file) }
        guard let anchor = try verifiedAnchor(catalog, copy: file) else { return Outcome() }
        let me = store.deviceID
        var bound = anchor.manifest.vector[me] ?? 0
        let retention = try Self.retention(store)
        let republished = try SyncState(store).republished
        for registration in try container.devices().registrations
        where registration.device != me && !Self.isLeftBehind(registration, retention: retention, now: now) {
            let applied = registration.applied?[me] ?? 0
            bound = min(bound, applied)
            // A log it passed over is not had, until it applied the logs that publish its
            // content again.
            for sequence in registration.passedOver?[me] ?? [] where republished[sequence].map({ applied < $0 }) ?? true
            {
                bound = min(bound, sequence - 1)
            }
        }
        var outcome = Outcome()
        for sequence in try container.logSequences(of: me).sequences where sequence <= bound {
            try container.fileSystem.remove(container.path(container.logPath(of: me, sequence: sequence)))
            outcome.logs += 1
            hooks.reach(.compactionRemoved)
        }
        // A baseline that says history was dropped stays while the anchor does not say so (its
        // writer had not heard of it): the fact must outlive it (``HistoryRetention``).
        for entry in catalog.entries
        where entry.manifest.device == me && entry.name != anchor.name
            && Self.dominates(anchor.manifest.vector, entry.manifest.vector)
            && (HistoryRetention.saysDropped(anchor.manifest) || !HistoryRetention.saysDropped(entry.manifest))
        {
            try container.removeBaseline(entry.name)
            outcome.baselines += 1
        }
        if anchor.manifest.device == me { outcome.blobs = try collectBlobs(anchor: file, now: now) }
        return outcome
    }

    /// Removes the blobs that no attachment of the anchor (its verified copy in `anchor`) nor
    /// any log in the container uses, once they were found so at two compactions at least
    /// ``blobGrace`` apart: blobs are shared, so only the writer of the anchor removes them.
    /// A log published meanwhile with a blob that went is healed by its writer, which
    /// publishes the blob again (``SyncEngine``'s check of its own logs).
    private func collectBlobs(anchor: URL, now: Date) throws -> Int {
        guard let database = try? BaselineDatabase.verify(anchor) else { return 0 }
        defer { database.close() }
        var used = Set(try database.blobs())
        for device in try container.logDevices().devices {
            for sequence in try container.logSequences(of: device).sequences {
                do {
                    let log = try LogCodec.decode(
                        container.readLog(device: device, sequence: sequence, limit: LogCodec.maximumSize))
                    used.formUnion(log.referencedBlobs)
                } catch is LogProblem {
                    // A damaged log uses nothing that can be known: keep everything.
                    return 0
                } catch let error as SyncError {
                    if case .missing = error { continue }
                    if case .tooLarge = error { return 0 }
                    if case .damaged = error { return 0 }
                    throw error
                }
            }
        }
        let marks = try store.syncSnapshot().unusedBlobs
        var kept: [String: Date] = [:]
        var removed = 0
        let usedNames = Set(used.map(container.blobFileName))
        for name in try container.blobs().blobs where !usedNames.contains(name) {
            if let marked = marks[name], now.timeIntervalSince(marked) >= Self.blobGrace {
                try container.removeBlob(named: name)
                removed += 1
            } else {
                kept[name] = marks[name] ?? now
            }
        }
        try store.recordSync { ledger in try ledger.setUnusedBlobs(kept) }
        return removed
    }

    /// The baseline whose vector is at least every other's, when there is one and its bytes
    /// are those of its manifest.
    /// Copies it into `file`.
    private func verifiedAnchor(_ catalog: BaselineCatalog, copy file: URL) throws -> BaselineCatalog.Entry? {
        guard
            let anchor = catalog.entries.first(where: { candidate in
                catalog.entries.allSatisfy { Self.dominates(candidate.manifest.vector, $0.manifest.vector) }
            })
        else { return nil }
        do {
            guard try container.baselineFiles(anchor.name).database.size == anchor.manifest.bytes else { return nil }
            let bytes = try container.copyBaselineDatabase(anchor.name, to: file, limit: Int(anchor.manifest.bytes))
            guard bytes == anchor.manifest.bytes, try BaselineLoader.sha256(of: file) == anchor.manifest.sha256 else {
                return nil
            }
        } catch let error as SyncError {
            if case .tooLarge = error { return nil }
            if case .missing = error { return nil }
            throw error
        }
        return anchor
    }

    /// Whether the others stop waiting for a device: it said it last synced longer ago than the
    /// retention period. A registration of a build before baselines says nothing of it: such a
    /// device is waited for, since it cannot come back through a baseline.
    static func isLeftBehind(_ registration: DeviceRegistration, retention: TimeInterval, now: Date) -> Bool {
        guard let synced = registration.synced else { return false }
        return now.timeIntervalSince(synced) > retention
    }

    /// Whether `a` holds every log `b` holds.
    static func dominates(_ a: [UUID: Int64], _ b: [UUID: Int64]) -> Bool {
        b.allSatisfy { device, sequence in (a[device] ?? 0) >= sequence }
    }
}

extension CloudContainer {
    /// Removes a blob that nothing uses any more, by its name in `blobs/`.
    func removeBlob(named name: String) throws(SyncError) {
        try CloudName.requireSHA256(name)
        do {
            try fileSystem.remove(path(CloudName.blobs + "/" + name))
        } catch {
            if case .missing = error { return }
            throw error
        }
    }

    /// Removes a baseline of this device: its manifest first, so that no reader takes a
    /// database on its way out, then its database.
    func removeBaseline(_ name: BaselineName) throws(SyncError) {
        for relative in [name.manifestPath, name.databasePath] {
            do {
                try fileSystem.remove(path(relative))
            } catch {
                if case .missing = error { continue }
                throw error
            }
        }
    }
}
