import Foundation
import GRDB
import NoteStore

#if canImport(Glibc)
    import Glibc
#endif

/// Looks into another device's store, read-only, for what has arrived there: the moment a
/// note becomes readable is the end of a sync.
///
/// It looks when the store signals a commit (inotify(7) on the file a store writes after each
/// commit, ``Store/commitSignalFileName``) and at least every ``fallbackMilliseconds``, asks
/// SQLite's `PRAGMA data_version` first, which changes when another connection has committed,
/// and reads rows only then: it sees a commit within microseconds of its signal and leaves the
/// CPU to the watchers in between, as a program on that device that waits for changes would.
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
        let signal = store.appendingPathComponent(Store.commitSignalFileName).path
        // Made as the store makes it, should no writer have opened the store yet.
        let made = open(signal, O_WRONLY | O_CREAT | O_CLOEXEC | O_NOFOLLOW, 0o600)
        if made >= 0 { close(made) }
        inotify = inotify_init1(Int32(IN_CLOEXEC | IN_NONBLOCK))
        guard inotify >= 0, inotify_add_watch(inotify, signal, UInt32(IN_MODIFY)) >= 0 else {
            throw BenchError.unexpected("cannot watch \(signal) with inotify: " + String(cString: strerror(errno)))
        }
    }

    deinit {
        close(inotify)
    }

    /// How long the probe waits for a commit's signal before it looks anyway.
    static let fallbackMilliseconds: Int32 = 10

    /// Waits until the store signals a commit, or `milliseconds` pass; reads the events.
    private func waitForCommit(milliseconds: Int32) {
        var descriptor = pollfd(fd: inotify, events: Int16(POLLIN), revents: 0)
        guard poll(&descriptor, 1, milliseconds) > 0 else { return }
        _ = buffer.withUnsafeMutableBytes { read(inotify, $0.baseAddress, $0.count) }
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

    /// Looks each time the store signals a commit, and at least every
    /// ``fallbackMilliseconds``, until `condition` holds; returns the moment it was first seen to
    /// hold, or nil when `seconds` passed first.
    func wait(within seconds: Double, until condition: () throws -> Bool) throws -> ContinuousClock.Instant? {
        let deadline = ContinuousClock.now + .milliseconds(Int(seconds * 1000))
        while true {
            if try changed(), try condition() { return ContinuousClock.now }
            if ContinuousClock.now > deadline { return nil }
            waitForCommit(milliseconds: Self.fallbackMilliseconds)
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
