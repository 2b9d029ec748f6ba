import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// The physical floor of a sync on this machine, measured beside it in the same run: a file
/// renamed into a watched folder until inotify(7) reports it, plus one durable SQLite commit
/// of a note row and its full-text entry. No sync between two processes can be faster than
/// noticing a file and committing what it holds.
final class SyncFloor {
    private let folder: URL
    private let inotify: Int32
    private let saver: RawSaver
    private var count = 0
    private var buffer = [UInt8](repeating: 0, count: 4096)

    init(bench: Workbench) throws {
        folder = try bench.makeFolder("floor-watched")
        saver = try RawSaver(folder: try bench.makeFolder("floor-store"), synchronous: .full)
        inotify = inotify_init1(Int32(IN_CLOEXEC))
        guard inotify >= 0 else {
            throw BenchError.unexpected("inotify_init1 failed: " + String(cString: strerror(errno)))
        }
        guard inotify_add_watch(inotify, folder.path, UInt32(IN_MOVED_TO)) >= 0 else {
            throw BenchError.unexpected(
                "inotify_add_watch on \(folder.path) failed: " + String(cString: strerror(errno)))
        }
    }

    deinit {
        close(inotify)
    }

    /// One rename into the watched folder until its event is read, in milliseconds.
    func renameToEvent() throws -> Double {
        count += 1
        let temporary = folder.appendingPathComponent(".\(count).tmp").path
        let final = folder.appendingPathComponent("\(count).log").path
        let fd = open(temporary, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
        guard fd >= 0 else { throw BenchError.unexpected("cannot create \(temporary)") }
        _ = "log \(count)\n".withCString { write(fd, $0, strlen($0)) }
        close(fd)
        let clock = ContinuousClock()
        let start = clock.now
        guard rename(temporary, final) == 0 else { throw BenchError.unexpected("cannot rename \(temporary)") }
        let read = buffer.withUnsafeMutableBytes { Glibc.read(inotify, $0.baseAddress, $0.count) }
        let elapsed = (clock.now - start).milliseconds
        guard read > 0 else {
            throw BenchError.unexpected("reading the inotify event failed: " + String(cString: strerror(errno)))
        }
        unlink(final)
        return elapsed
    }

    /// One durable commit of a note row and its full-text entry, in milliseconds.
    func durableCommit(body: String) throws -> Double {
        try saver.save(name: "Floor \(count)", body: body)
    }
}
