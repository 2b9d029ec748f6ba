import CInotifyTools
import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// The process's libinotifytools instance: made, used and closed on one thread.
///
/// libinotifytools keeps its state in globals and takes no lock, so there is at most one
/// instance per process and every call to it comes from the thread that made it. It reads and
/// buffers the events (`inotifytools_next_event`); the watches are added and removed here with
/// `inotify_add_watch(2)` on its descriptor, because its own bookkeeping of watched paths goes
/// stale: it does not follow renamed folders, and the watch of a deleted folder stays in its
/// tables (removing it fails, prints to standard error and keeps it), so that a folder made
/// again at the same path is mapped to the dead watch.
///
/// See inotify(7).
final class InotifyInstance {
    /// The inotify descriptor libinotifytools opened.
    let descriptor: Int32
    private var isOpen = true

    /// Outcome of waiting for the next event.
    enum Next {
        case event(RawEvent)
        /// No event within the timeout, or the wait was interrupted by a signal.
        case timeout
        /// Reading failed with this `errno`.
        case failure(Int32)
    }

    /// Initializes libinotifytools and makes its descriptor close-on-exec.
    ///
    /// libinotifytools has no call that returns its descriptor: it is the one inotify descriptor
    /// that `/proc/self/fd` lists after `inotifytools_init` and did not list before.
    init() throws(WatchError) {
        let before = Self.inotifyDescriptors()
        guard inotifytools_init(0, 0, 0) != 0 else {
            throw .cannotStart(reason: WatchError.reason(forErrno: inotifytools_error()))
        }
        let opened = Self.inotifyDescriptors().subtracting(before)
        guard opened.count == 1, let descriptor = opened.first else {
            inotifytools_cleanup()
            throw .cannotStart(reason: "cannot tell libinotifytools' descriptor in /proc/self/fd")
        }
        // libinotifytools waits with select(2), whose fd_set holds descriptors below FD_SETSIZE
        // only: a larger one would be written past its end.
        guard descriptor < FD_SETSIZE else {
            inotifytools_cleanup()
            throw .cannotStart(
                reason: "the inotify descriptor \(descriptor) is too large for libinotifytools' select(2)")
        }
        // libinotifytools calls inotify_init() without IN_CLOEXEC: every child process would
        // inherit the descriptor, and with it the watches.
        let flags = fcntl(descriptor, F_GETFD)
        guard flags >= 0, fcntl(descriptor, F_SETFD, flags | FD_CLOEXEC) == 0 else {
            let code = errno
            inotifytools_cleanup()
            throw .cannotStart(
                reason: "cannot make the inotify descriptor close-on-exec: " + WatchError.reason(forErrno: code))
        }
        self.descriptor = descriptor
    }

    deinit { close() }

    /// Closes the descriptor and frees libinotifytools' state; another instance can be made then.
    func close() {
        guard isOpen else { return }
        isOpen = false
        inotifytools_cleanup()
    }

    /// Adds a watch on `path`, or changes the mask of the watch on the same inode, and returns
    /// its watch descriptor; throws the `errno` of `inotify_add_watch(2)`.
    func addWatch(_ path: String, mask: InotifyMask) throws(InotifyFailure) -> Int32 {
        let watch = inotify_add_watch(descriptor, path, mask.rawValue)
        guard watch >= 0 else { throw InotifyFailure(code: errno) }
        return watch
    }

    /// Removes a watch; the kernel then queues `IN_IGNORED` for it.
    func removeWatch(_ watch: Int32) {
        inotify_rm_watch(descriptor, watch)
    }

    /// Waits up to `seconds` (whole seconds: libinotifytools waits with `select(2)` and no
    /// finer timeout; 0 would wait forever) for the next event, and copies it.
    func nextEvent(timeout seconds: Int) -> Next {
        guard let event = inotifytools_next_event(max(1, seconds)) else {
            let code = inotifytools_error()
            return code == 0 || code == EINTR ? .timeout : .failure(code)
        }
        return .event(
            RawEvent(
                watch: event.pointee.wd,
                mask: InotifyMask(rawValue: event.pointee.mask),
                cookie: event.pointee.cookie,
                name: String(cString: cinotify_event_name(event))))
    }

    /// The descriptors of this process that are inotify instances.
    private static func inotifyDescriptors() -> Set<Int32> {
        let folder = "/proc/self/fd"
        guard let names = try? FileManager.default.contentsOfDirectory(atPath: folder) else { return [] }
        var found = Set<Int32>()
        var target = [CChar](repeating: 0, count: 64)
        for name in names {
            guard let descriptor = Int32(name) else { continue }
            let count = readlink(folder + "/" + name, &target, target.count - 1)
            guard count > 0 else { continue }
            let text = String(decoding: target[0..<count].map { UInt8(bitPattern: $0) }, as: UTF8.self)
            if text == "anon_inode:inotify" { found.insert(descriptor) }
        }
        return found
    }
}

/// An `errno` from an inotify call.
struct InotifyFailure: Error {
    let code: Int32
}
