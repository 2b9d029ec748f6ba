import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// Lets one sync at a time work on a store: an exclusive `flock(2)` on `sync.lock` in the store
/// folder, held while enabling, disabling or syncing (and on `baseline.lock` while a baseline
/// is written). Another process waits its turn; the
/// kernel releases the lock when a process dies.
final class SyncLock {
    private let descriptor: Int32

    init(storeFolder: URL) throws {
        descriptor = try Self.lock(storeFolder.appendingPathComponent("sync.lock").path, wait: true) ?? -1
    }

    /// An exclusive lock on the file `name` in the store folder; with `wait` false, nil when
    /// another process (or another lock in this one) holds it.
    init?(storeFolder: URL, name: String, wait: Bool) throws {
        guard let descriptor = try Self.lock(storeFolder.appendingPathComponent(name).path, wait: wait) else {
            return nil
        }
        self.descriptor = descriptor
    }

    /// Opens and locks `path`; returns the descriptor, or nil when `wait` is false and the lock
    /// is held.
    private static func lock(_ path: String, wait: Bool) throws -> Int32? {
        let descriptor = open(path, O_CREAT | O_RDWR | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else {
            throw SyncError.io(path: path, reason: String(cString: strerror(errno)).lowercased())
        }
        while flock(descriptor, wait ? LOCK_EX : LOCK_EX | LOCK_NB) != 0 {
            let code = errno
            if code == EINTR { continue }
            close(descriptor)
            if code == EWOULDBLOCK { return nil }
            throw SyncError.io(path: path, reason: String(cString: strerror(code)).lowercased())
        }
        return descriptor
    }

    deinit {
        flock(descriptor, LOCK_UN)
        close(descriptor)
    }
}

extension SyncEngine {
    /// Runs `body` holding the store's sync lock.
    func locked<T>(_ body: () throws -> T) throws -> T {
        try lockedWithState { _ in try body() }
    }

    /// Runs `body` holding the store's sync lock, with sync's state as the lock found it
    /// (after taking the place of the id this store replaced, if it did).
    func lockedWithState<T>(_ body: (SyncState) throws -> T) throws -> T {
        let lock = try SyncLock(storeFolder: store.folder)
        defer { withExtendedLifetime(lock) {} }
        return try body(try takeOverReplacedDevice())
    }
}

extension SyncEngine {
    /// Waits until no sync works on the store (in this process or another), for at most
    /// `timeout` seconds; returns whether it became idle.
    @discardableResult
    public func waitUntilIdle(timeout: TimeInterval) -> Bool {
        let path = store.folder.appendingPathComponent("sync.lock").path
        let descriptor = open(path, O_CREAT | O_RDWR | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else { return false }
        defer { close(descriptor) }
        let deadline = Date().addingTimeInterval(timeout)
        while flock(descriptor, LOCK_EX | LOCK_NB) != 0 {
            if Date() >= deadline { return false }
            usleep(1000)
        }
        flock(descriptor, LOCK_UN)
        return true
    }
}
