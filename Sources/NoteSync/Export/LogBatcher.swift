import Foundation
import NoteStore

/// Cuts a sequence of changes into logs of about ``LogCodec/targetSize`` (a change larger than
/// that gets a log of its own), collecting the blobs each log's attachments need. Each log is
/// handed out as soon as it is full, so that no more than one is held.
struct LogBatcher {
    /// One log's worth of changes.
    struct Batch {
        var changes: [LogChange] = []
        var blobs: [String] = []
        /// The outbox rows the changes came from, when they came from the outbox.
        var outbox: ClosedRange<Int64>?
        var size = 0

        /// The model version the log carries: the lowest that reads it whole, so that a log
        /// without tags or versions edited from a merge stays readable by builds of model 4,
        /// one without body deltas by builds of model 8, and one without properties and file
        /// attachments by builds of model 9 (docs/sync-format.md, "Versions").
        var modelVersion: Int {
            // A property change or a file attachment (insert, update or delete): builds before
            // model 10 must never apply a log of either (they would drop or misread it).
            if changes.contains(where: { $0.entity == .property || $0.entity == .fileAttachment }) {
                return Store.modelVersionWithProperties
            }
            if changes.contains(where: { $0.bodyDelta != nil }) { return LogCodec.modelVersionWithDeltas }
            let needsFive = changes.contains { $0.entity == .tag || !($0.history?.fromMerge.isEmpty ?? true) }
            return needsFive ? Store.modelVersionWithTags : Store.modelVersionWithoutTags
        }
    }

    private var current = Batch()

    /// Adds a change, from outbox row `row` when it came from the outbox; returns the batch
    /// it closed, when it did not fit in it.
    mutating func add(_ change: LogChange, outboxRow row: Int64? = nil) -> Batch? {
        let size = LogCodec.changeLine(change).utf8.count + 1
        var closed: Batch?
        if !current.changes.isEmpty && current.size + size > LogCodec.targetSize {
            closed = current
            current = Batch()
        }
        if let row {
            current.outbox = current.outbox.map { min($0.lowerBound, row)...max($0.upperBound, row) } ?? row...row
        }
        current.changes.append(change)
        current.size += size
        if change.entity?.isAttachment == true, change.operation == .insert,
            case let .text(sha256)? = change.values["sha256"],
            !current.blobs.contains(sha256)
        {
            current.blobs.append(sha256)
        }
        return closed
    }

    /// The last batch, when it holds a change.
    mutating func finish() -> Batch? {
        defer { current = Batch() }
        return current.changes.isEmpty ? nil : current
    }
}
