import Foundation
import NoteTestSupport
import NoteWatch
import Synchronization
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// Every test that runs a watcher: one suite, serialized, since a process runs one watcher at
/// a time.
@Suite(.serialized) enum WatcherTests {}

/// A temporary folder holding a watched container (`cloud/NoteCollector`), a store folder
/// whose modified files are watched, and the watcher's private wake folder (`store/run`).
final class WatchFixture {
    let folder = TemporaryFolder("notes-watch")
    let recorder: EventRecorder
    let watcher: DirectoryWatcher

    var root: URL { folder.appending("cloud/NoteCollector") }
    var store: URL { folder.appending("store") }
    var wake: URL { folder.appending("store/run") }

    init(coalescing: Duration = .milliseconds(5), makingRoot: Bool = true, recorder: EventRecorder = EventRecorder())
        throws
    {
        self.recorder = recorder
        try FileManager.default.createDirectory(at: folder.appending("cloud"), withIntermediateDirectories: true)
        try FileManager.default.createDirectory(at: folder.appending("store"), withIntermediateDirectories: true)
        watcher = DirectoryWatcher(
            root: folder.appending("cloud/NoteCollector"), modifiedFilesIn: folder.appending("store"),
            wakeFolder: folder.appending("store/run"), coalescing: coalescing)
        if makingRoot { try makeFolder("") }
        try watcher.start(handler: recorder.record)
    }

    deinit { watcher.stop() }

    /// A path inside the watched root.
    func url(_ relative: String) -> URL {
        relative.isEmpty ? root : root.appendingPathComponent(relative)
    }

    func makeFolder(_ relative: String) throws {
        try FileManager.default.createDirectory(at: url(relative), withIntermediateDirectories: true)
    }

    /// Writes a file under a temporary name `.tmp-...` in the same folder, as the container's
    /// writers do; returns the temporary path, to be published with ``publish(_:as:)``.
    func writeTemporary(in folder: String, _ text: String = "bytes") throws -> URL {
        let temporary = url(folder).appendingPathComponent(".tmp-\(UUID().uuidString.prefix(8))")
        try Data(text.utf8).write(to: temporary)
        return temporary
    }

    /// Renames a temporary file to its final name.
    func publish(_ temporary: URL, as relative: String) throws {
        guard rename(temporary.path, url(relative).path) == 0 else { throw POSIXError(.init(rawValue: errno)!) }
    }

    /// Writes a file as the container's writers do: a temporary file, renamed to its name.
    func write(_ relative: String, _ text: String = "bytes") throws {
        try publish(try writeTemporary(in: Self.folder(of: relative), text), as: relative)
    }

    /// Publishes a file with `link(2)`, as the container's writers publish blobs, logs and
    /// `container.json`: the only event of the final name is `IN_CREATE`.
    func link(_ relative: String, _ text: String = "bytes") throws {
        let temporary = try writeTemporary(in: Self.folder(of: relative), text)
        guard Glibc.link(temporary.path, url(relative).path) == 0 else { throw POSIXError(.init(rawValue: errno)!) }
        unlink(temporary.path)
    }

    /// The folder part of a relative path: "" for a name at the root.
    private static func folder(of relative: String) -> String {
        relative.lastIndex(of: "/").map { String(relative[..<$0]) } ?? ""
    }
}

/// Records what a watcher reports: every handler call, and when each event first arrived.
final class EventRecorder: Sendable {
    private struct State {
        var batches: [[WatchEvent]] = []
        var arrivals: [WatchEvent: ContinuousClock.Instant] = [:]
    }

    private let state = Mutex(State())
    /// Runs in the handler before the batch is recorded (to block it, or to stop the watcher).
    private let hook: (@Sendable ([WatchEvent]) -> Void)?

    init(hook: (@Sendable ([WatchEvent]) -> Void)? = nil) {
        self.hook = hook
    }

    @Sendable func record(_ events: [WatchEvent]) {
        hook?(events)
        let now = ContinuousClock.now
        state.withLock { state in
            state.batches.append(events)
            for event in events where state.arrivals[event] == nil { state.arrivals[event] = now }
        }
    }

    var batches: [[WatchEvent]] { state.withLock { $0.batches } }
    var events: [WatchEvent] { batches.flatMap { $0 } }

    func arrival(of event: WatchEvent) -> ContinuousClock.Instant? {
        state.withLock { $0.arrivals[event] }
    }

    func contains(_ event: WatchEvent) -> Bool { arrival(of: event) != nil }

    /// Waits until `event` was reported, up to `timeout` seconds; whether it was.
    func waitFor(_ event: WatchEvent, within timeout: TimeInterval = 5) -> Bool {
        eventually(within: timeout, pollingEvery: 0.002) { contains(event) }
    }

    /// The paths reported as ready.
    var readyPaths: Set<String> {
        Set(events.compactMap { if case let .fileReady(path) = $0 { path } else { nil } })
    }
}

extension Duration {
    /// In milliseconds, for printing measurements.
    var milliseconds: Double {
        Double(components.seconds) * 1000 + Double(components.attoseconds) / 1e15
    }
}
