import Foundation
import NoteStore

/// Logs that a device needs and cannot have: gone from the container (removed by hand or by a
/// file-sync engine after other devices applied them) or unreadable there, and the baseline
/// their writer publishes for them (docs/sync-format.md, "Logs a device waits for").
///
/// A device that waits for such a log says so in its registration (`waiting.logs`); their
/// writer, which still holds what they published, sees it at its next full sync and writes a
/// baseline, which holds every log it published; the waiting device takes that baseline, as it
/// takes any baseline that holds a log it cannot have, and goes on.
struct AwaitedLogs {
    let store: Store
    let container: CloudContainer
    let containerID: UUID

    /// Per other device, the first of its logs that this device needs and cannot have, after
    /// an import that found the logs `present` and reported `report`: its next log when it is
    /// not in the container, or cannot be read, while a later log of that device is there, a
    /// waiting log depends on it, or another device says it applied it.
    func find(present: [UUID: Set<Int64>], report: SyncReport) throws -> [UUID: Int64] {
        let me = store.deviceID
        let applied = try SyncState(store).applied
        var known = report.neededLogs
        for (device, sequences) in present {
            if let last = sequences.max() { known[device] = max(known[device] ?? 0, last) }
        }
        for registration in try container.devices().registrations where registration.device != me {
            for (device, sequence) in registration.applied ?? [:] { known[device] = max(known[device] ?? 0, sequence) }
        }
        var awaited: [UUID: Int64] = [:]
        for (device, last) in known where device != me {
            let next = (applied[device] ?? 0) + 1
            guard last >= next else { continue }
            let path = CloudContainer.logPath(device: device, sequence: next)
            if !(present[device]?.contains(next) ?? false) || report.skipped.contains(where: { $0.path == path }) {
                awaited[device] = next
            }
        }
        return awaited
    }

    /// Whether this device should write a baseline for its own logs that another device waits
    /// for: a log it published, that is not in the container or cannot be read there, and
    /// that no baseline of its own holds yet (once one does, a device still waiting has
    /// another problem with it, which the hourly check of baselines deals with).
    func isBaselineDue() throws -> Bool {
        let me = store.deviceID
        let published = try SyncState(store).exportedSequence
        var wanted: Set<Int64> = []
        for registration in try container.devices().registrations where registration.device != me {
            if let sequence = registration.waiting?.logs[me], sequence <= published { wanted.insert(sequence) }
        }
        guard !wanted.isEmpty else { return false }
        let held =
            try BaselineCatalog.read(container, containerID: containerID).entries
            .filter { $0.manifest.device == me }.compactMap { $0.manifest.vector[me] }.max() ?? 0
        for sequence in wanted.sorted() where sequence > held && !isReadable(sequence) { return true }
        return false
    }

    /// Whether this device's log `sequence` is in the container and reads as its own.
    private func isReadable(_ sequence: Int64) -> Bool {
        guard
            let data = try? container.readLog(device: store.deviceID, sequence: sequence, limit: LogCodec.maximumSize),
            let log = try? LogCodec.decode(data)
        else { return false }
        return log.header.device == store.deviceID && log.header.sequence == sequence
            && log.header.container == containerID
    }
}
