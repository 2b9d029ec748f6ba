import Foundation
import NoteStore

/// Turns the store's outbox into transaction logs in this device's folder of the container
/// (docs/sync-format.md, "Export").
///
/// Blobs go first, then the log file (written without a name or under a temporary one, fsync,
/// `link(2)`, fsync of the folder), then one store transaction removes the exported outbox rows
/// and records the sequence. A process that dies between the file and the transaction finds
/// the file on the next export and completes the transaction instead of writing it again.
struct LogExporter {
    let store: Store
    let container: CloudContainer
    let containerID: UUID
    /// What a test changes of the sync (``SyncHooks``).
    var hooks = SyncHooks.none

    var device: UUID { store.deviceID }

    /// Exports every outbox row; returns how many logs it wrote.
    func export() throws -> Int {
        try export(state: try SyncState(store))
    }

    /// Exports every outbox row, with the sync state read at the start of the sync.
    ///
    /// The outbox is read a page at a time and each log written as soon as it is full, so that
    /// an outbox of a large import is exported in bounded memory.
    func export(state: SyncState) throws -> Int {
        // An interrupted export leaves its rows in the outbox: with none, there is nothing to do.
        guard let first = try store.outboxEntries(after: 0, limit: 1).first?.sequence else { return 0 }
        var sequence = try completeInterruptedExport(after: state.exportedSequence, firstRow: first)
        guard let start = try store.outboxEntries(after: 0, limit: 1).first?.sequence,
            let end = try store.lastOutboxSequence()
        else { return 0 }
        var written = 0
        func write(_ batch: LogBatcher.Batch) throws {
            var batch = batch
            // The first log covers every outbox row from the first, also rows left out below,
            // so that an interrupted export is recognised by its first row.
            if written == 0, let range = batch.outbox { batch.outbox = start...range.upperBound }
            sequence += 1
            let header = LogHeader(
                modelVersion: batch.modelVersion, container: containerID, device: device, sequence: sequence,
                changes: batch.changes.count, dependencies: state.applied, blobs: batch.blobs, written: Date(),
                outbox: batch.outbox)
            try publish(TransactionLog(header: header, changes: batch.changes), sequence: sequence)
            hooks.reach(.logWritten)
            try store.recordSync(durable: false) { ledger in
                try ledger.removeOutboxEntries(through: batch.outbox?.upperBound ?? 0)
                try ledger.noteSync(at: Date(), exportedSequence: sequence)
            }
            hooks.reach(.exportCommitted)
            written += 1
        }
        // The rows there now: those that saves add meanwhile are the next export's.
        var batcher = LogBatcher()
        var read = start - 1
        while read < end {
            let page = try store.outboxEntries(after: read, limit: Self.pageSize).filter { $0.sequence <= end }
            guard let last = page.last?.sequence else { break }
            read = last
            for entry in try withoutVanishedAttachments(page) {
                if let full = batcher.add(try change(of: entry), outboxRow: entry.sequence) { try write(full) }
            }
        }
        if let last = batcher.finish() { try write(last) }
        if written == 0 && read >= start {
            try store.recordSync { try $0.removeOutboxEntries(through: read) }
        }
        return written
    }

    /// How many outbox rows are read at a time.
    static let pageSize = 2_000

    /// The entries without the insertion of attachments that were purged before they could be
    /// exported, and whose bytes are gone with them: the log would wait for ever for a blob that
    /// no device has. Their deletion is exported as usual.
    private func withoutVanishedAttachments(_ entries: [OutboxEntry]) throws -> [OutboxEntry] {
        var result: [OutboxEntry] = []
        result.reserveCapacity(entries.count)
        for entry in entries {
            if entry.entity.isAttachment, entry.operation == .insert, case let .text(sha256)? = entry.changes["sha256"],
                !store.hasBlob(sha256), try store.attachment(entry.object) == nil
            {
                continue
            }
            result.append(entry)
        }
        return result
    }

    /// Finishes an export that wrote its log but stopped before its store transaction: the
    /// log after the recorded sequence is there, and starts with the first outbox row. A log
    /// of another device found under that name is removed.
    /// Returns the sequence of the last log exported, completed or not.
    private func completeInterruptedExport(after exported: Int64, firstRow first: Int64) throws -> Int64 {
        let sequence = exported + 1
        switch container.logPresence(device: device, sequence: sequence) {
        case .absent: return exported
        case let .unreadable(message): throw SyncError.unreadable(message)
        case .present: break
        }
        let path = CloudContainer.logPath(device: device, sequence: sequence)
        let existing: TransactionLog
        do {
            existing = try LogCodec.decode(
                container.readLog(device: device, sequence: sequence, limit: LogCodec.maximumSize))
        } catch let problem as LogProblem {
            throw SyncError.badFile(path: path, reason: problem.description)
        }
        if existing.header.device != device {
            // Not written by this device (another device's log copied in, or the folders of
            // two devices traded places): it takes no name of this device's logs.
            try container.fileSystem.remove(container.path(path))
            return exported
        }
        guard let range = try Self.exportedRange(existing, device: device, containerID: containerID, store: store)
        else {
            throw SyncError.badFile(
                path: path,
                reason: "a log of this device with the next sequence holds other changes: "
                    + "run 'notes sync now' to take it in"
            )
        }
        try store.recordSync { ledger in
            try ledger.removeOutboxEntries(through: range.upperBound)
            try ledger.update { $0.exportedSequence = sequence }
        }
        return sequence
    }

    /// The outbox rows `log` was exported from, when it is this device's log of the rows now
    /// first in the store's outbox (an export that stopped before its store transaction):
    /// written by this device into this container, its range starting at the first outbox row,
    /// and each of its changes that of a row of the range (object, operation and clock). Nil
    /// for a log of other changes, such as one that a store restored from a backup, or a copy
    /// of the store folder, did not make.
    static func exportedRange(_ log: TransactionLog, device: UUID, containerID: UUID, store: Store) throws
        -> ClosedRange<Int64>?
    {
        guard log.header.device == device, log.header.container == containerID, let range = log.header.outbox,
            range.lowerBound == (try store.outboxEntries(after: 0, limit: 1).first?.sequence)
        else { return nil }
        let rows = Set(
            try store.outboxEntries(in: range).map { "\($0.object) \($0.operation.rawValue) \($0.clock)" })
        guard log.changes.allSatisfy({ rows.contains("\($0.object) \($0.operation.rawValue) \($0.clock)") }) else {
            return nil
        }
        return range
    }

    /// Writes the blobs, then the log.
    private func publish(_ log: TransactionLog, sequence: Int64) throws {
        for sha256 in log.header.blobs where try !container.hasBlob(sha256) {
            try container.publishBlob(sha256, from: store)
            hooks.reach(.blobPublished)
        }
        try container.writeLog(device: device, sequence: sequence, data: LogCodec.encode(log))
    }

    /// The change of an entry as a log carries it; the body of a large note goes as a delta
    /// against the version it was edited from when that is much smaller (``BodyDelta``).
    func change(of entry: OutboxEntry) throws -> LogChange {
        var change = LogChange(
            entity: entry.entity, object: entry.object,
            operation: LogChange.Operation(rawValue: entry.operation.rawValue) ?? .update, clock: entry.clock,
            values: entry.changes, history: entry.history)
        if let delta = try bodyDelta(of: entry) {
            change.values.remove(HistoryProperty.body.rawValue)
            change.bodyDelta = delta
        }
        return change
    }

    /// The entry's body as a delta against the newest of the versions it was edited from,
    /// which every reader holds before it reads the log (docs/sync-format.md, 5.3); nil for
    /// another change, a small body, or a delta not much smaller than the body.
    private func bodyDelta(of entry: OutboxEntry) throws -> BodyDelta? {
        guard entry.entity == .note, entry.operation == .update,
            case let .text(body)? = entry.changes[HistoryProperty.body.rawValue],
            body.utf8.count >= BodyDelta.minimumBodyBytes,
            let base = entry.history?.bases[.body]?.max()
        else { return nil }
        // The save kept the version as a delta against its base when that was small: taken as
        // it is, rather than made again from the base's text (up to 50 deltas away in history).
        if let stored = try store.storedDelta(
            of: entry.object, .body, at: ChangeStamp(clock: entry.clock, device: store.deviceID)),
            stored.base == base, stored.size == body.utf8.count
        {
            return BodyDelta.made(base: base, lines: stored.lines, text: body)
        }
        guard let baseText = try store.text(of: entry.object, .body, at: base) else { return nil }
        return BodyDelta.make(from: baseText, base: base, to: body)
    }
}
