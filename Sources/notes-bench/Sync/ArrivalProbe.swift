import Foundation
import GRDB
import NoteStore

#if canImport(Glibc)
    import Glibc
#endif

/// Looks into another device's store, read-only, for what has arrived there: the moment a
/// note becomes readable is the end of a sync.
///
/// It looks when the store's files are written (inotify(7) on the store folder: a commit
/// writes the WAL file) and at least every millisecond, asks SQLite's `PRAGMA data_version`
/// first, which changes when another connection has committed, and reads rows only then: it
/// sees a commit within microseconds and leaves the CPU to the watchers in between.
final class ArrivalProbe {
    private let connection: DatabaseQueue
    private var lastVersion: Int?
    private let inotify: Int32
    private var buffer = [UInt8](repeating: 0, count: 4096)

    init(store: URL) throws {
        var configuration = Configuration()
        configuration.readonly = true
        configuration.busyMode = .timeout(10)
        connection = try DatabaseQueue(
            path: store.appendingPathComponent(Store.databaseFileName).path, configuration: configuration)
        inotify = inotify_init1(Int32(IN_CLOEXEC | IN_NONBLOCK))
        guard inotify >= 0, inotify_add_watch(inotify, store.path, UInt32(IN_MODIFY)) >= 0 else {
            throw BenchError.unexpected("cannot watch \(store.path) with inotify: " + String(cString: strerror(errno)))
        }
    }

    deinit {
        close(inotify)
    }

    /// Waits until a file of the store is written, or `milliseconds` pass; reads the events.
    /// Returns whether a file was written.
    private func waitForWrite(milliseconds: Int32) -> Bool {
        var descriptor = pollfd(fd: inotify, events: Int16(POLLIN), revents: 0)
        guard poll(&descriptor, 1, milliseconds) > 0 else { return false }
        _ = buffer.withUnsafeMutableBytes { read(inotify, $0.baseAddress, $0.count) }
        return true
    }

    /// True when another connection has committed since the last call.
    func changed() throws -> Bool {
        let version = try connection.inDatabase { try Int.fetchOne($0, sql: "PRAGMA data_version") }
        defer { lastVersion = version }
        return version != lastVersion
    }

    /// Whether the item with this id is in the store.
    func has(_ id: UUID) throws -> Bool {
        try connection.inDatabase {
            try SQLRequest<Bool>(literal: "SELECT 1 FROM item WHERE id = \(id.uuidString.lowercased())").fetchOne($0)
                ?? false
        }
    }

    /// The name of the note inserted last (by rowid), if any.
    func lastNoteName() throws -> String? {
        try connection.inDatabase {
            try String.fetchOne($0, sql: "SELECT name FROM item WHERE kind = 'note' ORDER BY rowid DESC LIMIT 1")
        }
    }

    /// The number of notes, and the total length of their names and bodies: two stores with
    /// the same notes agree on all three.
    func noteSummary() throws -> NoteSummary {
        try connection.inDatabase {
            let row = try Row.fetchOne(
                $0,
                sql: """
                    SELECT count(*), total(length(name)), total(length(body)) \
                    FROM item WHERE kind = 'note' AND trashed IS NULL
                    """
            )
            return NoteSummary(
                notes: row?[0] ?? 0, nameLength: Int((row?[1] as Double?) ?? 0),
                bodyLength: Int((row?[2] as Double?) ?? 0))
        }
    }

    /// Looks each time the store is written, and at least every millisecond, until `condition`
    /// holds; returns the moment it was first seen to hold, or nil when `seconds` passed first.
    ///
    /// A commit writes the WAL file first and becomes visible a little later (its last step
    /// writes shared memory, which inotify does not see): after a write, it looks every
    /// 0.1 ms for the next 5 ms.
    func wait(within seconds: Double, until condition: () throws -> Bool) throws -> ContinuousClock.Instant? {
        let deadline = ContinuousClock.now + .milliseconds(Int(seconds * 1000))
        var quickUntil = ContinuousClock.now
        while true {
            if try changed(), try condition() { return ContinuousClock.now }
            let now = ContinuousClock.now
            if now > deadline { return nil }
            if now < quickUntil {
                usleep(100)
            } else if waitForWrite(milliseconds: 1) {
                quickUntil = ContinuousClock.now + .milliseconds(5)
            }
        }
    }
}

/// What two stores with the same notes agree on.
struct NoteSummary: Equatable, CustomStringConvertible {
    let notes: Int
    let nameLength: Int
    let bodyLength: Int

    var description: String { "\(notes) notes, \(nameLength) characters of names, \(bodyLength) of bodies" }
}
