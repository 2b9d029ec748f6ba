import Foundation
import NoteStore

/// Publishes again what this device saved in logs that other devices passed over as logs of
/// another container (docs/sync-format.md, "Reading a log" and section 4).
///
/// A reader passes such a log over for good, and says so in its registration (`passedOver`).
/// A log of an earlier container under the same name is rightly passed over; but one of this
/// container whose header was rewritten (a file-sync engine's mistake, a hand edit) would be
/// lost for every device, although its writer still holds what it saved. So the writer
/// publishes again, as a snapshot (each property with its stamp, each version with its bases),
/// the objects the passed-over logs name (every object, when one of them cannot be read),
/// once, and remembers the last log of that snapshot: compaction counts a passed-over log as
/// had by a device only once that device applied it (``Compaction``).
struct PassedOverLogs {
    let store: Store
    let container: CloudContainer
    let containerID: UUID

    /// Publishes the content of this device's logs that a registered device passed over and
    /// that were not published again yet; returns how many logs it wrote.
    func republish() throws -> Int {
        let me = store.deviceID
        let state = try SyncState(store)
        var passed: Set<Int64> = []
        for registration in try container.devices().registrations where registration.device != me {
            passed.formUnion(registration.passedOver?[me] ?? [])
        }
        let pending = passed.filter { state.republished[$0] == nil && $0 <= state.exportedSequence }.sorted()
        guard !pending.isEmpty else { return 0 }
        var objects: Set<UUID>? = []
        for sequence in pending {
            guard let data = try? container.readLog(device: me, sequence: sequence, limit: LogCodec.maximumSize),
                let log = try? LogCodec.decode(data), log.header.device == me, log.header.sequence == sequence
            else {
                objects = nil
                break
            }
            objects?.formUnion(log.changes.map(\.object))
        }
        let written = try SnapshotPusher(store: store, container: container, containerID: containerID).push(
            try store.holdSnapshot(), where: { objects?.contains($0.object) ?? true })
        let last = try SyncState(store).exportedSequence
        try store.recordSync { ledger in try ledger.noteRepublished(pending, through: last) }
        return written
    }
}
