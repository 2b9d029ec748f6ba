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
    /// What a test changes of the sync (``SyncHooks``).
    var hooks = SyncHooks.none
    var merger: Merger { Merger(hooks: hooks) }
    /// Told how far ``importAvailable(into:)`` has come.
    var progress: ProgressReporter? = nil

    var device: UUID { store.deviceID }

    /// The log bytes one transaction applies at most (it applies at least one log). Several
    /// logs in one transaction write the full-text index, the tables and the WAL once rather
    /// than once each: importing 167 MiB of logs (100,000 notes inserted, then updated) took
    /// 28 s in transactions of 64 MiB and 21 s in one (docs/benchmarks.md). Logs are
    /// read and applied one at a time, so memory does not grow with it; the WAL does, to about
    /// the size of the store, until the commit checkpoints it; a crash loses at most the logs
    /// of one transaction, which the next sync applies again.
    static let bytesPerTransaction = 256 << 20

    /// Applies every log that can be applied, until none is left that can; returns the
    /// sequences of the logs of each other device found in the container.
    @discardableResult
    func importAvailable(into report: inout SyncReport) throws -> [UUID: Set<Int64>] {
        var applied = try SyncState(store).applied
        let (devices, skippedDevices) = try container.logDevices()
        report.skipped += try container.strayEntries() + skippedDevices
        var sequences: [UUID: Set<Int64>] = [:]
        var blocked: [UUID: SyncStatus.Waiting] = [:]
        for other in devices where other != device {
            do {
                let (found, skipped) = try container.logSequences(of: other)
                sequences[other] = Set(found)
                report.skipped += skipped
            } catch {
                // A folder that cannot be listed holds up its device only.
                let next = (applied[other] ?? 0) + 1
                blocked[other] = waiting(other, next, "the folder of its logs cannot be listed: \(Self.reason(error))")
            }
        }
        progress?.start(
            logsToApply: sequences.reduce(0) { total, entry in
                total + entry.value.filter { $0 > (applied[entry.key] ?? 0) }.count
            })
        defer { progress?.finish() }
        var moved = true
        while moved {
            moved = try applyInOneTransaction(
                devices: sequences.keys.sorted { $0.storeString < $1.storeString }, applied: &applied, report: &report
            ) { other, next in
                guard let available = sequences[other], available.contains(next) else {
                    if let later = sequences[other]?.filter({ $0 > next }).min() {
                        blocked[other] = waiting(other, later, "log \(next) of this device is missing")
                    }
                    return false
                }
                return true
            } outcome: { other, next, outcome in
                switch outcome {
                case .applied, .passed: blocked[other] = nil
                case let .waiting(reason): blocked[other] = waiting(other, next, reason)
                case .skipped: blocked[other] = waiting(other, next, "this log cannot be read (see skipped files)")
                }
            }
        }
        report.waiting += blocked.sorted { $0.key.storeString < $1.key.storeString }.map(\.value)
        var seen: Set<String> = []
        report.skipped = report.skipped.filter { seen.insert($0.description).inserted }
        return sequences
    }

    /// Applies the next logs of each device, looked up by name, until none is there or one
    /// cannot be applied yet; lists no device's folder.
    ///
    /// Each log is looked up once: the first pass looks at every device, or at the devices of
    /// `first` alone when given (those whose logs arrived: no other device's next log can be
    /// applied before one of them is); a pass after one that applied logs looks only at the
    /// devices whose next log was there but not applied (it had to wait, which what was
    /// applied may have ended, or the transaction was full) or was not looked up. A log that
    /// arrives during the sync brings an event of its own. With fifty devices, looking every
    /// device up three times was nearly half of a watcher's import of one log.
    func importNextLogs(applied: [UUID: Int64], lookingFirstAt first: Set<UUID>? = nil, into report: inout SyncReport)
        throws
    {
        var applied = applied
        let (devices, skippedDevices) = try container.logDevices()
        report.skipped += skippedDevices
        let others = devices.filter { $0 != device }
        var candidates = first.map { first in others.filter { first.contains($0) } } ?? others
        var lookedUp: [UUID: (sequence: Int64, present: Bool)] = [:]
        while !candidates.isEmpty {
            let moved = try applyInOneTransaction(devices: candidates, applied: &applied, report: &report) {
                other, next in
                if let known = lookedUp[other], known.sequence == next { return known.present }
                var present = false
                if case .present = container.logPresence(device: other, sequence: next) { present = true }
                lookedUp[other] = (next, present)
                return present
            } outcome: { _, _, _ in
            }
            guard moved else { break }
            candidates = others.filter { other in
                guard let known = lookedUp[other], known.sequence == (applied[other] ?? 0) + 1 else { return true }
                return known.present
            }
        }
    }

    /// Applies, in one transaction, the next logs of each device in turn while `isThere` says
    /// the next one is there and it can be applied, up to ``SyncHooks/transactionBytes``
    /// (``bytesPerTransaction`` unless a test sets it); tells `outcome` what became of each log
    /// tried. Returns whether it applied any.
    private func applyInOneTransaction(
        devices: [UUID], applied: inout [UUID: Int64], report: inout SyncReport,
        isThere: (UUID, Int64) -> Bool, outcome: (UUID, Int64, Outcome) -> Void
    ) throws -> Bool {
        // No transaction when no device's next log is there.
        guard devices.contains(where: { isThere($0, (applied[$0] ?? 0) + 1) }) else { return false }
        var taken = applied
        var summary = report
        var bytes = 0
        let carried = CarriedBodies()
        let moved = try store.merge(durable: false) { replica -> Bool in
            var moved = false
            for other in devices {
                var next = (taken[other] ?? 0) + 1
                while bytes < hooks.transactionBytes, isThere(other, next) {
                    let result = try attempt(
                        other, next, applied: taken, replica: replica, carried: carried, report: &summary)
                    outcome(other, next, result.outcome)
                    guard result.outcome.isTaken else { break }
                    taken[other] = next
                    bytes += result.bytes
                    moved = true
                    next += 1
                }
            }
            return moved
        }
        if moved { hooks.reach(.importCommitted) }
        applied = taken
        report = summary
        return moved
    }

    /// Why a file could not be read, without its path (the report names the log).
    static func reason(_ error: SyncError) -> String {
        if case let .io(_, reason) = error { return reason }
        return error.description
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

    /// Records a log as taken without applying anything of it, and says so in this device's
    /// registration (`passedOver`), so that its writer publishes its content again.
    private func passOver(_ other: UUID, _ sequence: Int64, replica: Replica) throws -> Outcome {
        try replica.ledger.notePassedOver(sequence, of: other)
        try replica.ledger.setApplied(sequence, of: other)
        return .passed
    }

    /// Reads, checks and, when it can, applies one log in the replica's transaction; returns
    /// what became of it and its size.
    private func attempt(
        _ other: UUID, _ sequence: Int64, applied: [UUID: Int64], replica: Replica, carried: CarriedBodies,
        report: inout SyncReport
    ) throws -> (outcome: Outcome, bytes: Int) {
        let path = CloudContainer.logPath(device: other, sequence: sequence)
        let log: TransactionLog
        let bytes: Int
        do {
            let data = try container.readLog(device: other, sequence: sequence, limit: LogCodec.maximumSize)
            bytes = data.count
            log = try LogCodec.decode(data)
        } catch let problem as LogProblem {
            report.skipped.append(SkippedFile(path: path, reason: .unreadable(problem.description)))
            return (.skipped, 0)
        } catch let error as SyncError {
            switch error {
            case .tooLarge:
                report.skipped.append(SkippedFile(path: path, reason: .tooLarge))
                return (.skipped, 0)
            case .missing:
                return (.waiting("the log disappeared while being read"), 0)
            case let .damaged(_, reason):
                report.skipped.append(SkippedFile(path: path, reason: .damaged(reason)))
                return (.skipped, 0)
            default:
                // Permission denied, an I/O error: its device waits, the others go on.
                return (.waiting("it cannot be read: \(Self.reason(error))"), 0)
            }
        }
        let header = log.header
        guard header.container == containerID else {
            // A log of an earlier container under the same name (its sentinel was replaced):
            // it can never belong to this one, and this device's logs here come after it.
            // Nothing of it was applied: said in this device's registration, so that its
            // writer publishes its content again if it was one of this container after all
            // (its header rewritten), and never counts it as had here.
            report.skipped.append(SkippedFile(path: path, reason: .foreignContainer))
            return (try passOver(other, sequence, replica: replica), bytes)
        }
        guard header.device == other, header.sequence == sequence else {
            if header.device == device { report.ownLogsElsewhere = true }
            report.skipped.append(
                SkippedFile(
                    path: path,
                    reason: .unreadable(
                        "its header says device \(header.device.storeString), log \(header.sequence)")))
            return (.skipped, 0)
        }
        guard header.modelVersion <= LogCodec.readableModelVersion else {
            return (
                .waiting(
                    "written by model version \(header.modelVersion); "
                        + "this build understands up to \(LogCodec.readableModelVersion)"
                ), 0
            )
        }
        for (dependency, needed) in header.dependencies
        where dependency != device && (applied[dependency] ?? 0) < needed {
            report.neededLogs[dependency] = max(report.neededLogs[dependency] ?? 0, needed)
            return (.waiting("it needs log \(needed) of device \(dependency.storeString)"), 0)
        }
        let blobs = log.referencedBlobs
        for sha256 in blobs where !store.hasBlob(sha256) {
            do {
                guard try container.hasBlob(sha256) else {
                    report.neededBlobs.insert(sha256)
                    return (.waiting("blob \(sha256) is not in the container yet"), 0)
                }
            } catch {
                return (.waiting("blob \(sha256) cannot be looked up: \(Self.reason(error))"), 0)
            }
            do {
                try container.copyBlob(sha256, into: store, limit: log.blobLimit(sha256))
            } catch {
                if case SyncError.damagedBlob = error { report.neededBlobs.insert(sha256) }
                return (.waiting("blob \(sha256) cannot be used yet: \(error)"), 0)
            }
        }
        var deltas = DeltaReader(replica: replica, device: other, earlier: carried)
        do {
            try deltas.check(log)
        } catch .missingBase {
            // Made against a version this device lacks (one it passed over): asked of its
            // writer as a passed-over log is, which publishes its content again, whole.
            report.skipped.append(SkippedFile(path: path, reason: .missingBase))
            return (try passOver(other, sequence, replica: replica), bytes)
        } catch let .damaged(problem) {
            report.skipped.append(SkippedFile(path: path, reason: .unreadable(problem.description)))
            return (.skipped, 0)
        }
        hooks.reach(.importRead)
        let now = store.wallClock.now()
        let ahead = ClockSkew.ahead(of: log, now: now)
        let conflictsBefore = try replica.conflictCount()
        let (leftOut, clock) = try merger.apply(log, from: other, to: replica, deltas: deltas) {
            progress?.changeApplied(of: log.changes.count)
        }
        // A blob copied in for an insert that the merge ignored would stay for ever.
        for sha256 in blobs { try replica.releaseBlobUnlessUsed(sha256) }
        try replica.ledger.observe(clock: ClockSkew.adoptable(clock, now: now))
        // What a later purge here has seen of this device: its changes up to this clock
        // (stamps of other devices in a snapshot are not counted: not all of theirs came).
        let own = log.changes.lazy.flatMap { change in
            [change.stamp(of: "*", device: other)] + change.stamps.values
        }.filter { $0.device == other }.map(\.clock).max()
        if let own { try replica.ledger.noteKnowledge([other: own]) }
        // Whole seconds: what the report says.
        try replica.ledger.setClockAhead(ahead.map { TimeInterval(Int($0)) }, of: other)
        try replica.ledger.setApplied(sequence, of: other)
        try replica.ledger.noteSync(at: Date())
        report.conflicts += try replica.conflictCount() - conflictsBefore
        report.importedLogs += 1
        report.importedChanges += log.changes.count - leftOut
        report.leftOut += leftOut
        report.clocksAhead[other] = ahead
        progress?.logApplied()
        return (.applied, bytes)
    }
}
