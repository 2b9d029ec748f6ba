import Foundation
import NoteStore

/// What a process that watches the container and the store (`notes watch`) needs of them to
/// know when to sync: the store's folder and commits, whether a save waits to be exported,
/// and which arriving logs are this device's own. It never reads what the store holds.
extension SyncEngine {
    /// The store's commits, as ``observeCommits(every:onChange:)`` watches them.
    public typealias CommitObservation = StoreObservation

    /// The file in the store folder written after each commit: a watcher that sees it written
    /// calls ``CommitObservation/checkNow()``.
    public static var commitSignalFileName: String { Store.commitSignalFileName }

    /// An engine of the same store with the same hooks, for work on another thread: an engine
    /// is used by one thread at a time. Its ``passphrase`` and ``importProgress`` are not set.
    public convenience init(sameStoreAs other: SyncEngine) {
        self.init(store: other.store, hooks: other.hooks)
    }

    /// The folder of the store this engine syncs.
    public var storeFolder: URL { store.folder }

    /// Whether a local save waits to be exported.
    public func hasChangesToExport() throws -> Bool {
        try store.hasOutboxEntries()
    }

    /// Calls `onChange` after each commit to the store, by any process, as
    /// ``Store/observeCommits(every:onChange:)`` does.
    public func observeCommits(
        every interval: TimeInterval, onChange: @escaping @Sendable () -> Void
    ) throws -> CommitObservation {
        try store.observeCommits(every: interval, onChange: onChange)
    }

    /// Whether `path`, relative to the container folder, is in this device's own folder of
    /// logs: logs it wrote itself, which it never imports.
    public func isOwnLog(_ path: String) -> Bool {
        path.hasPrefix(CloudName.logs + "/" + store.deviceID.storeString + "/")
    }
}
