import Foundation
import NoteStore

/// Pushes a snapshot of the whole store into a container, as the logs that follow this device's
/// last published one, each property with its original stamp (docs/sync-format.md, "Sentinel,
/// identity and sync states"). Each log is written as soon as it is full, so that the memory a
/// push takes does not grow with the store.
struct SnapshotPusher {
    let store: Store
    let container: CloudContainer
    let containerID: UUID

    /// Pushes the records of `snapshot` that `include` accepts; returns how many logs it wrote.
    @discardableResult
    func push(_ snapshot: StoreSnapshot, where include: (SnapshotRecord) -> Bool = { _ in true }) throws -> Int {
        let state = try SyncState(store)
        var sequence = state.exportedSequence
        func write(_ batch: LogBatcher.Batch) throws {
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
        var batcher = LogBatcher()
        try snapshot.forEachRecord { record in
            guard include(record), let full = batcher.add(record.logChange) else { return }
            try write(full)
        }
        if let last = batcher.finish() { try write(last) }
        return Int(sequence - state.exportedSequence)
    }
}
