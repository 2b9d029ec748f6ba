import Foundation
import NoteStore

/// A store restored from a backup, or a copy of a store folder, records fewer published logs
/// of its device than the container holds: the saves of those logs are not in it, and its next
/// export would take the sequence of a log that exists (docs/sync-format.md, "Restored and
/// copied stores"). Before exporting, such a store applies its device's later logs (from a
/// baseline that holds them when they were compacted), as it would another device's, and
/// records them as published: its own unexported saves then go out after them, and nothing is
/// lost or published twice under one sequence.
struct OwnLogRecovery {
    let store: Store
    let container: CloudContainer
    let containerID: UUID
    /// What a test changes of the sync (``SyncHooks``).
    var hooks = SyncHooks.none
    var merger: Merger { Merger(hooks: hooks) }

    var device: UUID { store.deviceID }

    /// The last of this device's logs that the container shows exist: its logs there, what
    /// baselines hold of it, and what the other devices say they applied of it.
    func publishedSequence(present: [Int64]) throws -> Int64 {
        var held = present.last ?? 0
        for entry in try BaselineCatalog.read(container, containerID: containerID).entries {
            held = max(held, entry.manifest.vector[device] ?? 0)
        }
        for registration in try container.devices().registrations where registration.device != device {
            held = max(held, registration.applied?[device] ?? 0)
        }
        return held
    }

    /// Applies this device's logs after `exported` that the store does not hold; returns how
    /// many it applied (a baseline counts as one), 0 when the store is not behind.
    func recover(exported: Int64, report: inout SyncReport) throws -> Int {
        let present = try container.logSequences(of: device).sequences
        let held = try publishedSequence(present: present)
        guard held > exported else { return 0 }
        // The next log may be an export of this store's own outbox that stopped before its
        // store transaction: the exporter completes it.
        if held == exported + 1, present.contains(held),
            let log = try? LogCodec.decode(
                container.readLog(device: device, sequence: held, limit: LogCodec.maximumSize)),
            try LogExporter.exportedRange(log, device: device, containerID: containerID, store: store) != nil
        {
            return 0
        }
        // Brought back in place: saves made since may be edits of versions a baseline dropped
        // meanwhile, which the devices that lack them could not merge.
        report.keptEdits += try UnpublishedEdits(store: store).keepIfHistoryWasDropped(in: container)
        var position = exported
        var recovered = 0
        if !present.contains(position + 1) {
            // Compacted: a baseline holds them.
            let loader = BaselineLoader(
                container: container, containerID: containerID, folder: store.folder, store: store)
            var applied = try SyncState(store).applied
            applied[device] = position
            if let (entry, database, file) = try loader.newestVerified(
                aheadOf: applied, device: UUID(), covering: [device: position + 1], report: &report)
            {
                defer {
                    database.close()
                    try? FileManager.default.removeItem(at: file)
                }
                _ = try loader.merge(database, entry, file: file, into: store)
                position = max(position, entry.manifest.vector[device] ?? 0)
                try record(position)
                recovered += 1
            }
        }
        for sequence in present where sequence > position {
            guard sequence == position + 1, try apply(sequence) else { break }
            position = sequence
            recovered += 1
        }
        // Whatever could not be taken back, its sequences are never used again.
        try record(max(position, held))
        return recovered
    }

    /// Applies one of this device's logs and records it as published, in one transaction;
    /// false when it is not a log of this device and container.
    private func apply(_ sequence: Int64) throws -> Bool {
        let log: TransactionLog
        do {
            log = try LogCodec.decode(
                container.readLog(device: device, sequence: sequence, limit: LogCodec.maximumSize))
        } catch is LogProblem {
            return false
        } catch SyncError.damaged {
            return false
        }
        guard log.header.device == device, log.header.container == containerID, log.header.sequence == sequence else {
            return false
        }
        for sha256 in log.referencedBlobs where !store.hasBlob(sha256) {
            try container.copyBlob(sha256, into: store, limit: log.blobLimit(sha256))
        }
        let now = store.wallClock.now()
        do {
            try store.merge { replica in
                let clock = try merger.apply(log, from: device, to: replica).clock
                try replica.ledger.observe(clock: ClockSkew.adoptable(clock, now: now))
                try replica.ledger.update { $0.exportedSequence = sequence }
            }
        } catch is DeltaReader.Failure {
            // A body delta against a version this store does not hold, or a damaged one.
            return false
        }
        return true
    }

    private func record(_ sequence: Int64) throws {
        try store.recordSync { ledger in
            try ledger.update { record in record.exportedSequence = max(record.exportedSequence, sequence) }
        }
    }
}
