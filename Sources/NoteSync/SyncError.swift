import Foundation

/// Everything that can go wrong in sync, with enough detail to say what and where.
public enum SyncError: Error, CustomStringConvertible, Sendable {
    /// The cloud folder or a file in it could not be read or written.
    case io(path: String, reason: String)
    /// Sync is not set up for this store.
    case notEnabled
    /// The container or this device's registration is gone, or the container is another one.
    case detached(reason: String)
    /// A file in the container is not what it claims to be.
    case badFile(path: String, reason: String)

    public var description: String {
        switch self {
        case let .io(path, reason): return "cannot use '\(path)': \(reason)"
        case .notEnabled: return "sync is not enabled for this store: run 'notes sync enable --cloud DIR'"
        case let .detached(reason): return "sync is off: \(reason)"
        case let .badFile(path, reason): return "skipped '\(path)': \(reason)"
        }
    }
}
