#if canImport(Glibc)
    import Glibc
#endif

/// Everything that can go wrong while watching folders or locking a store for a watcher.
public enum WatchError: Error, CustomStringConvertible, Sendable, Equatable {
    /// Another ``DirectoryWatcher`` runs in this process: libinotifytools keeps its state in
    /// globals, so a process has one watcher at a time.
    case anotherWatcherRunning
    /// ``DirectoryWatcher/start(handler:)`` was called on a watcher that runs already.
    case alreadyStarted
    /// Two folders given to a watcher overlap in a way it cannot watch.
    case overlappingFolders(String, String, reason: String)
    /// inotify could not be set up.
    case cannotStart(reason: String)
    /// A folder could not be watched.
    case cannotWatch(path: String, reason: String)
    /// Reading events failed, and the watcher stopped.
    case cannotRead(reason: String)
    /// Another process holds the watcher lock: its process id, when it left one.
    case locked(path: String, pid: Int32?)
    /// The watcher lock could not be taken for another reason than another holder.
    case cannotLock(path: String, reason: String)

    public var description: String {
        switch self {
        case .anotherWatcherRunning:
            return
                "cannot start a watcher: another one runs in this process, and libinotifytools allows one per process"
        case .alreadyStarted: return "cannot start the watcher: it runs already"
        case let .overlappingFolders(first, second, reason):
            return "cannot watch '\(first)' and '\(second)' together: \(reason)"
        case let .cannotStart(reason): return "cannot start the watcher: \(reason)"
        case let .cannotWatch(path, reason): return "cannot watch '\(path)': \(reason)"
        case let .cannotRead(reason): return "the watcher stopped: cannot read inotify events: \(reason)"
        case let .locked(path, pid?):
            return "cannot lock '\(path)': process \(pid) holds it, a watcher runs for this store already"
        case let .locked(path, nil):
            return "cannot lock '\(path)': another process holds it, a watcher runs for this store already"
        case let .cannotLock(path, reason): return "cannot lock '\(path)': \(reason)"
        }
    }

    /// What an `errno` means, in the lowercase of these messages, with the limit to raise where
    /// inotify has one.
    static func reason(forErrno code: Int32) -> String {
        switch code {
        case ENOSPC: return "the inotify watch limit is reached (sysctl fs.inotify.max_user_watches)"
        case EMFILE:
            return "the inotify instance limit is reached (sysctl fs.inotify.max_user_instances), "
                + "or no file descriptor is left"
        default:
            let text = String(cString: strerror(code))
            return text.prefix(1).lowercased() + text.dropFirst()
        }
    }
}
