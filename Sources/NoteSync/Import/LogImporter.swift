import Foundation
import NoteStore

/// Applies the logs of the other devices of a container, each exactly once, in per-device
/// sequence order and only once its dependencies and blobs are there (docs/sync-format.md,
/// "Import").
///
/// A log that cannot be applied yet waits and touches nothing; a file that is not a valid log
/// of this container is skipped and reported, and never blocks the logs of other devices.
struct LogImporter {
    let store: Store
    let container: CloudContainer
    let containerID: UUID
    let merger = Merger()

    var device: UUID { store.deviceID }

    /// Applies every log that can be applied, until none is left that can.
    func importAvailable(into report: inout SyncReport) throws {
        var applied = try SyncState(store).applied
        let (devices, skippedDevices) = try container.logDevices()
        report.skipped += skippedDevices
        var sequences: [UUID: [Int64]] = [:]
        for other in devices where other != device {
            let (found, skipped) = try container.logSequences(of: other)
            sequences[other] = found
            report.skipped += skipped
        }
        var blocked: [UUID: SyncStatus.Waiting] = [:]
        var progress = true
        while progress {
            progress = false
            for (other, available) in sequences.sorted(by: { $0.key.storeString < $1.key.storeString }) {
                let next = (applied[other] ?? 0) + 1
                guard available.contains(next) else {
                    if let later = available.first(where: { $0 > next }) {
                        blocked[other] = waiting(other, later, "log \(next) of this device is missing")
                    }
                    continue
                }
                switch try attempt(other, next, applied: applied, report: &report) {
                case .applied, .passed:
                    applied[other] = next
                    blocked[other] = nil
                    progress = true
                case let .waiting(reason):
                    blocked[other] = waiting(other, next, reason)
                case .skipped:
                    blocked[other] = waiting(other, next, "this log cannot be read (see skipped files)")
                }
            }
        }
        report.waiting += blocked.sorted { $0.key.storeString < $1.key.storeString }.map(\.value)
        var seen: Set<String> = []
        report.skipped = report.skipped.filter { seen.insert($0.description).inserted }
    }

    /// Applies the next logs of each device, looked up by name, until none is there or one
    /// cannot be applied yet; lists no device's folder.
    func importNextLogs(applied: [UUID: Int64], into report: inout SyncReport) throws {
        var applied = applied
        let (devices, skippedDevices) = try container.logDevices()
        report.skipped += skippedDevices
        var progress = true
        while progress {
            progress = false
            for other in devices where other != device {
                var next = (applied[other] ?? 0) + 1
                while case .present = container.logPresence(device: other, sequence: next),
                    try attempt(other, next, applied: applied, report: &report).isTaken
                {
                    applied[other] = next
                    progress = true
                    next += 1
                }
            }
        }
    }

    private func waiting(_ other: UUID, _ sequence: Int64, _ reason: String) -> SyncStatus.Waiting {
        SyncStatus.Waiting(path: CloudContainer.logPath(device: other, sequence: sequence), reason: reason)
    }

    enum Outcome {
        case applied
        /// Not a log of this container: passed over for good.
        case passed
        case waiting(String)
        case skipped

        /// Whether the device's next log is the one after this.
        var isTaken: Bool {
            switch self {
            case .applied, .passed: return true
            case .waiting, .skipped: return false
            }
        }
    }

    /// Reads, checks and, when it can, applies one log.
    private func attempt(_ other: UUID, _ sequence: Int64, applied: [UUID: Int64], report: inout SyncReport) throws -> Outcome {
        let path = CloudContainer.logPath(device: other, sequence: sequence)
        let log: TransactionLog
        do {
            log = try LogCodec.decode(container.readLog(device: other, sequence: sequence, limit: LogCodec.maximumSize))
        } catch let problem as LogProblem {
            report.skipped.append(SkippedFile(path: path, reason: .unreadable(problem.description)))
            return .skipped
        } catch let error as SyncError {
            switch error {
            case .tooLarge:
                report.skipped.append(SkippedFile(path: path, reason: .tooLarge))
                return .skipped
            case .missing:
                return .waiting("the log disappeared while being read")
            default:
                throw error
            }
        }
        let header = log.header
        guard header.container == containerID else {
            // A log of an earlier container under the same name (its sentinel was replaced):
            // it can never belong to this one, and this device's logs here come after it.
            report.skipped.append(SkippedFile(path: path, reason: .foreignContainer))
            try store.replicate { try $0.setSyncValue(String(sequence), for: SyncState.appliedKey(other)) }
            return .passed
        }
        guard header.device == other, header.sequence == sequence else {
            report.skipped.append(SkippedFile(path: path, reason: .unreadable(
                "its header says device \(header.device.storeString), log \(header.sequence)")))
            return .skipped
        }
        guard header.modelVersion <= Store.currentModelVersion else {
            return .waiting("written by model version \(header.modelVersion); this build understands up to \(Store.currentModelVersion)")
        }
        for (dependency, needed) in header.dependencies where dependency != device && (applied[dependency] ?? 0) < needed {
            return .waiting("it needs log \(needed) of device \(dependency.storeString)")
        }
        let attached = log.changes.compactMap { change -> String? in
            guard change.entity == "ImageAttachment", change.operation == .insert, case let .text(sha256)? = change.values["sha256"],
                BlobName.isValid(sha256)
            else { return nil }
            return sha256
        }
        let blobs = Set(header.blobs + attached).sorted()
        for sha256 in blobs where !store.hasBlob(sha256) {
            guard try container.hasBlob(sha256) else { return .waiting("blob \(sha256) is not in the container yet") }
            do {
                try store.storeBlob(container.readBlob(sha256, limit: Int(Attachment.maximumBytes)), sha256: sha256)
            } catch {
                return .waiting("blob \(sha256) cannot be used yet: \(error)")
            }
        }
        CrashPoint.importRead.reach()
        var leftOut = 0
        var conflicts = 0
        let now = Date()
        let ahead = ClockSkew.ahead(of: log, now: now)
        try store.replicate(durable: false) { replica in
            let conflictsBefore = try replica.conflictCount()
            var clock: UInt64 = 0
            for change in log.changes {
                CrashPoint.importApplying.reach()
                if !(try merger.apply(change, from: other, to: replica)) { leftOut += 1 }
                clock = max(clock, change.clock, change.stamps.values.map(\.clock).max() ?? 0)
            }
            // A blob copied in for an insert that the merge ignored would stay for ever.
            for sha256 in blobs { try replica.releaseBlobUnlessUsed(sha256) }
            try replica.observe(clock: ClockSkew.adoptable(clock, now: now))
            // What a later purge here has seen of this device: its changes up to this clock
            // (stamps of other devices in a snapshot are not counted: not all of theirs came).
            let own = log.changes.lazy.flatMap { change in
                [change.stamp(of: "*", device: other)] + change.stamps.values
            }.filter { $0.device == other }.map(\.clock).max()
            if let own { try replica.noteKnowledge([other: own]) }
            try replica.setSyncValue(ahead.map { String(Int($0)) }, for: SyncState.clockAheadKey(other))
            try replica.setSyncValue(String(sequence), for: SyncState.appliedKey(other))
            try replica.setSyncValue(JSONText.iso(Date()), for: SyncState.lastSyncKey)
            conflicts = try replica.conflictCount() - conflictsBefore
        }
        CrashPoint.importCommitted.reach()
        report.conflicts += conflicts
        report.importedLogs += 1
        report.importedChanges += log.changes.count - leftOut
        report.leftOut += leftOut
        report.clocksAhead[other] = ahead
        return .applied
    }
}
