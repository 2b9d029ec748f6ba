import Foundation
import Synchronization

#if canImport(Glibc)
    import Glibc
#endif

/// An exclusive lock that lets one watcher at a time run for a store: `flock(2)` on
/// ``fileName`` in a folder, with the holder's process id written in the file.
///
/// The kernel releases the lock when the holder exits, however it exits, so a file left
/// behind with a dead process id is harmless: the next watcher takes the lock and writes its
/// own. The file itself is never removed, since a process could be waiting to lock it.
/// `flock` locks belong to the open file description: a second ``WatcherLock`` in the same
/// process is refused too.
public final class WatcherLock: Sendable {
    public static let fileName = "watcher.lock"

    /// The lock file.
    public let url: URL
    private let descriptor: Mutex<Int32>

    /// How long a lock held by a process that left no living process id is waited for: a holder
    /// may be between locking and writing its id, or be another process's look at the lock.
    private static let settlingTime: Duration = .milliseconds(250)

    /// Takes the lock in `folder`, or throws ``WatchError/locked(path:pid:)`` naming the
    /// process that holds it.
    public init(in folder: URL) throws(WatchError) {
        url = folder.appendingPathComponent(Self.fileName)
        let path = url.path
        let descriptor = open(path, O_RDWR | O_CREAT | O_CLOEXEC | O_NOFOLLOW, 0o600)
        guard descriptor >= 0 else { throw .cannotLock(path: path, reason: WatchError.reason(forErrno: errno)) }
        do {
            try Self.lock(descriptor, path: path)
            try Self.writeProcessID(descriptor, path: path)
        } catch {
            close(descriptor)
            throw error
        }
        self.descriptor = Mutex(descriptor)
    }

    deinit { release() }

    /// The process id of the process that holds the lock in `folder`; nil if none does.
    public static func holder(in folder: URL) -> Int32? {
        let descriptor = open(folder.appendingPathComponent(fileName).path, O_RDONLY | O_CLOEXEC | O_NOFOLLOW)
        guard descriptor >= 0 else { return nil }
        defer { close(descriptor) }
        if flock(descriptor, LOCK_SH | LOCK_NB) == 0 {
            flock(descriptor, LOCK_UN)
            return nil
        }
        return processID(in: descriptor)
    }

    /// Releases the lock, and clears the process id first so that no reader finds it after.
    public func release() {
        descriptor.withLock { descriptor in
            guard descriptor >= 0 else { return }
            _ = ftruncate(descriptor, 0)
            close(descriptor)
            descriptor = -1
        }
    }

    private static func lock(_ descriptor: Int32, path: String) throws(WatchError) {
        let clock = ContinuousClock()
        let deadline = clock.now.advanced(by: settlingTime)
        while flock(descriptor, LOCK_EX | LOCK_NB) != 0 {
            guard errno == EWOULDBLOCK || errno == EINTR else {
                throw .cannotLock(path: path, reason: WatchError.reason(forErrno: errno))
            }
            let holder = processID(in: descriptor)
            if let holder, isAlive(holder) { throw .locked(path: path, pid: holder) }
            if clock.now >= deadline { throw .locked(path: path, pid: nil) }
            usleep(5_000)
        }
    }

    private static func writeProcessID(_ descriptor: Int32, path: String) throws(WatchError) {
        let text = Array("\(getpid())\n".utf8)
        guard ftruncate(descriptor, 0) == 0, pwrite(descriptor, text, text.count, 0) == text.count else {
            throw .cannotLock(path: path, reason: WatchError.reason(forErrno: errno))
        }
    }

    /// The process id written in the lock file, if it holds one.
    private static func processID(in descriptor: Int32) -> Int32? {
        var bytes = [UInt8](repeating: 0, count: 24)
        let count = pread(descriptor, &bytes, bytes.count, 0)
        guard count > 0 else { return nil }
        let text = String(decoding: bytes[0..<count], as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
        guard let pid = Int32(text), pid > 0 else { return nil }
        return pid
    }

    /// Whether a process of that id exists (`EPERM`: it exists and belongs to someone else).
    private static func isAlive(_ pid: Int32) -> Bool {
        kill(pid, 0) == 0 || errno == EPERM
    }
}
