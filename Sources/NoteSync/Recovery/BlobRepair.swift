import Foundation
import NoteStore

/// Attachment bytes that the container lacks or holds damaged, fetched when they come back and
/// put back by any device that holds them (docs/sync-format.md, "Damaged logs and blobs").
///
/// A store may hold attachments without their bytes: taken from a baseline, or merged from
/// one, while a blob was missing or damaged in the container. Sync fetches those bytes at
/// every full sync, and the device says in its registration (`waiting`) which ones it still
/// lacks; a device that holds them sees that at its next full sync and puts them back. Once an
/// hour, a holder also checks, without being asked, the blobs that the latest logs list (read
/// and hashed) and that its attachments use (present), which covers every blob a baseline
/// lists: a baseline holds only attachments that its writer's store holds, and so do the
/// stores of the devices that applied it.
struct BlobRepair {
    let store: Store
    let container: CloudContainer
    let containerID: UUID

    /// Copies into the store the bytes of its attachments that it lacks and that the container
    /// now has whole; returns the blobs still awaited.
    func fetchAwaited() throws -> Set<String> {
        var awaited: Set<String> = []
        for sha256 in try store.blobsWithoutBytes() {
            // Missing, damaged or unreadable for now: the same to the attachments that wait.
            guard (try? container.copyBlob(sha256, into: store)) != nil else {
                awaited.insert(sha256)
                continue
            }
        }
        return awaited
    }

    /// Puts back, from this store, the blobs that other registered devices say they wait for;
    /// returns how many it put back.
    @discardableResult
    func repairAwaitedByOthers() throws -> Int {
        var awaited: Set<String> = []
        for registration in try container.devices().registrations where registration.device != store.deviceID {
            awaited.formUnion(registration.waiting?.blobs ?? [])
        }
        return try repair(awaited)
    }

    /// The check once an hour: the blobs that the logs after the newest baseline list (those a
    /// device may still need), read and checked, and every blob that this store's attachments
    /// use, looked up, put back when they are missing or damaged and this store holds them.
    func repairListed() throws {
        let newest = try BaselineCatalog.read(container, containerID: containerID).entries.first?.manifest.vector ?? [:]
        var listed: Set<String> = []
        for device in try container.logDevices().devices {
            for sequence in try container.logSequences(of: device).sequences where sequence > newest[device] ?? 0 {
                guard
                    let log = try? LogCodec.decode(
                        container.readLog(device: device, sequence: sequence, limit: LogCodec.maximumSize))
                else { continue }
                listed.formUnion(log.referencedBlobs)
            }
        }
        try repair(listed)
        let held = Set(try store.blobsInUse()).subtracting(listed)
        for sha256 in held.sorted() where store.hasBlob(sha256) {
            guard try !container.hasBlob(sha256), (try? store.blobFile(sha256)) != nil else { continue }
            _ = try container.repairBlob(sha256, from: store)
        }
    }

    /// Puts right each of `blobs` that this store holds and that is missing or damaged in the
    /// container; returns how many it put right.
    private func repair(_ blobs: Set<String>) throws -> Int {
        var repaired = 0
        for sha256 in blobs.sorted() where store.hasBlob(sha256) {
            guard (try? store.blobFile(sha256)) != nil else { continue }
            if try container.repairBlob(sha256, from: store) { repaired += 1 }
        }
        return repaired
    }
}
