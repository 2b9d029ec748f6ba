import Foundation
import NoteStore

/// What `notes sync status` reports.
public struct SyncStatus: Sendable {
    /// Whether the store syncs (attached, detached by sync itself, or never enabled or disabled).
    public typealias State = SyncRecord.State

    /// Another device of the container.
    public struct Device: Sendable {
        public let id: UUID
        public let name: String?
        /// The last sequence of its logs applied here.
        public let applied: Int64
        /// The last sequence of its logs in the container.
        public let available: Int64
        /// How far its clock ran ahead of this device's wall clock when its last log was
        /// applied, in seconds, when more than a minute.
        public let clockAhead: TimeInterval?
    }

    /// A log that waits, and why.
    public struct Waiting: Sendable {
        public let path: String
        public let reason: String
    }

    public let state: State
    public let reason: String?
    public let since: Date?
    public let cloud: String?
    public let containerName: String?
    public let container: UUID?
    public let device: UUID
    public let deviceName: String?
    public let devices: [Device]
    public let pendingExports: Int
    public let exportedSequence: Int64
    public let waiting: [Waiting]
    public let skipped: [SkippedFile]
    public let lastSync: Date?
    /// An import of several logs under way in another process (or this one), if any.
    public var catchUp: CatchUp? = nil
    /// The baseline a new device would start from: the newest whose manifest reads, if any.
    public var newestBaseline: BaselineManifest? = nil
    /// Why the last export failed, and when, until an export succeeds.
    public var exportError: (date: Date, message: String)? = nil
    /// Whether the container is encrypted, and whether this store keeps its key.
    public var encryption: (encrypted: Bool, keyHeld: Bool) = (false, false)
    /// Whether saves are recorded for export: false in a store marked as never synced
    /// (docs/sync-format.md, section 14), whose first `sync enable` sends all it holds.
    public var recordsChanges = true
}

/// What one `sync now` did.
public struct SyncReport: Sendable {
    public var exportedLogs = 0
    public var importedLogs = 0
    public var importedChanges = 0
    /// Changes left out because their values break the model's rules.
    public var leftOut = 0
    /// Concurrent edits found by this sync that could not merge (each kept in history, and
    /// for a body in a conflict copy).
    public var conflicts = 0
    public var waiting: [SyncStatus.Waiting] = []
    public var skipped: [SkippedFile] = []
    /// The devices whose logs applied in this sync ran ahead of this device's wall clock by
    /// more than a minute, with how far, in seconds.
    public var clocksAhead: [UUID: TimeInterval] = [:]
    /// The baseline this sync started from (its database's path in the container), with the
    /// notes and collections it held.
    public var baseline: (path: String, items: Int)? = nil
    /// This device's own logs (or a baseline holding them) applied again: the store was behind
    /// what the container holds of its device (restored from a backup, or a copy).
    public var recoveredLogs = 0
    /// Unpublished edits kept as notes of their own: this device came back without a
    /// registration into a container that had dropped history (docs/sync-format.md,
    /// "Retention of history").
    public var keptEdits = 0
    /// The container this device moved to, having found that another device created the
    /// container at the same time and that the file-sync engine kept the other's.
    public var joinedContainer: UUID? = nil
    /// Per other device, the highest of its logs that a log waiting in this sync depends on.
    var neededLogs: [UUID: Int64] = [:]
    /// The blobs that a log waiting in this sync lists and that the container lacks or holds
    /// damaged: said in this device's registration, so that a device holding them puts them
    /// back.
    var neededBlobs: Set<String> = []
    /// Whether a log whose header names this device was found in another device's folder.
    var ownLogsElsewhere = false
}
