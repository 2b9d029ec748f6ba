import Foundation
import NoteStore

/// Pushes a snapshot of the whole store into a container, as the logs that follow this device's
/// last published one, each property with its original stamp (docs/sync-format.md, "Sentinel,
/// identity and sync states").
struct SnapshotPusher {
    let store: Store
    let container: CloudContainer
    let containerID: UUID

    /// Pushes the records; returns how many logs it wrote.
    @discardableResult
    func push(_ records: [SnapshotRecord]) throws -> Int {
        guard !records.isEmpty else { return 0 }
        let state = try SyncState(store)
        var sequence = state.exportedSequence
        for batch in Self.batches(records) {
            sequence += 1
            // Bytes this store waits for itself are published by the device that holds them.
            for sha256 in batch.blobs where try store.hasBlob(sha256) && !container.hasBlob(sha256) {
                try container.publishBlob(sha256, from: store)
            }
            let header = LogHeader(
                modelVersion: batch.modelVersion, container: containerID, device: store.deviceID,
                sequence: sequence, changes: batch.changes.count, dependencies: state.applied, blobs: batch.blobs,
                written: Date())
            try container.writeLog(
                device: store.deviceID, sequence: sequence,
                data: LogCodec.encode(TransactionLog(header: header, changes: batch.changes)))
            try store.recordSync { ledger in
                try ledger.update { $0.exportedSequence = sequence }
            }
        }
        return Int(sequence - state.exportedSequence)
    }

    static func batches(_ records: [SnapshotRecord]) -> [LogBatcher.Batch] {
        var batcher = LogBatcher()
        for record in records { batcher.add(record.logChange) }
        return batcher.finish()
    }

}
