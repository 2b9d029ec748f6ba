import Foundation
import NoteStore
import NoteSync

/// The loop behind `notes watch`: keeps one store in sync while it runs.
///
/// It holds the store's ``WatcherLock`` (one watcher per store), watches the container with a
/// ``DirectoryWatcher`` and the store's commits for saves made by any process, and calls sync:
/// new logs are imported and local saves exported as they happen; the container's sentinel or
/// this device's registration disappearing is noticed at once and switches sync off. What a
/// log means is for `NoteSync` to decide. Events come on the watcher's thread, one batch at a
/// time, so syncs never overlap.
public final class WatchService: @unchecked Sendable {
    public let store: Store
    private let engine: SyncEngine
    private let log: @Sendable (Int, String) -> Void
    private let lock: WatcherLock
    private let stateLock = NSLock()
    private var watcher: DirectoryWatcher?
    private var watchedRoot: URL?
    private var stopped = false
    private var commits: StoreObservation?
    /// The devices whose clock this watcher has said runs ahead, with how far it said.
    private var announcedClocks: [UUID: TimeInterval] = [:]
    /// Where baselines are written, away from the watcher's thread, and when that was last
    /// looked into.
    private let baselines = DispatchQueue(label: "NoteWatch.WatchService.baselines", qos: .utility)
    private var baselineLookedAt: ContinuousClock.Instant?
    private var baselineCheckPending = false
    private var acknowledgementPending = false

    /// How often, at most, the watcher looks whether a baseline is due.
    static let baselineCheckInterval: Duration = .seconds(10)

    /// Takes the store's watcher lock; throws ``WatchError/locked(path:pid:)`` naming the
    /// process of a watcher that runs already.
    ///
    /// `log` receives messages with their level: 0 for what a person must know at once (sync
    /// switched off or on), 1 for what was imported and exported, 2 for each batch of events,
    /// 3 for each file event.
    public init(store: Store, log: @escaping @Sendable (Int, String) -> Void) throws {
        self.store = store
        self.engine = SyncEngine(store: store)
        self.log = log
        self.lock = try WatcherLock(in: store.folder)
    }

    /// How often the store's commits are checked when its WAL file was not seen written: a
    /// fallback, since every commit writes the WAL file, whose inotify event makes the check
    /// quick for a while (``StoreObservation/checkSoon()``). At rest the watcher sleeps.
    static let commitCheckInterval: TimeInterval = 2

    /// Starts watching and syncs once, to take in what arrived while no watcher ran.
    public func start() throws {
        try rearm(announce: true)
        let observation = try store.observeCommits(every: Self.commitCheckInterval) { [weak self] in self?.committed() }
        stateLock.withLock { commits = observation }
    }

    /// After any commit to the store, by any process: exports a local save, and follows
    /// `notes sync enable` and `disable` made elsewhere.
    private func committed() {
        guard !stateLock.withLock({ stopped }) else { return }
        do {
            // A save to export: the sync reads the state itself (and re-arms when sync went off).
            if stateLock.withLock({ watchedRoot != nil && watchedRoot != idleFolder }), try store.hasOutboxEntries() {
                try syncOnce(importing: .nextLogs)
                return
            }
            if try stateLock.withLock({ watchedRoot }) != (engine.containerFolder() ?? idleFolder) {
                rearmLater()
            }
        } catch {
            log(0, "\(error)")
        }
    }

    /// Stops watching, after the sync in progress; releases the lock.
    public func stop() {
        let current: DirectoryWatcher? = stateLock.withLock {
            stopped = true
            defer { watcher = nil }
            return watcher
        }
        current?.stop()
        stateLock.withLock { commits }?.cancel()
        // A save being exported by the commit observer finishes before the process ends.
        engine.waitUntilIdle(timeout: 0.8)
        lock.release()
        log(1, "stopped")
    }

    /// The folder to watch: the container sync is attached to, or, when sync is not on, an
    /// empty folder of the store's own, so that saves and `notes sync enable` are still seen.
    private func target() throws -> (root: URL, attached: Bool, status: SyncStatus) {
        let status = try engine.status()
        if status.state == .on, let cloud = status.cloud, let name = status.containerName {
            return (URL(fileURLWithPath: cloud).appendingPathComponent(name), true, status)
        }
        return (idleFolder, false, status)
    }

    /// The folder watched while sync is not on.
    private var idleFolder: URL { store.folder.appendingPathComponent(".watch-idle") }

    /// Starts a watcher on the current target unless one watches it already. Never called on
    /// the watcher's own thread.
    private func rearm(announce: Bool) throws {
        let (root, attached, status) = try target()
        if stateLock.withLock({ watchedRoot == root && watcher != nil }) { return }
        stateLock.withLock { watcher }?.stop()
        let wake = store.folder.appendingPathComponent(".watch")
        for folder in [wake, store.folder.appendingPathComponent(".watch-idle")] {
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        }
        // Saves are seen through the store's commits (see `start`). The WAL file is written
        // before a commit is whole, so its changes only make the commit check quick for a while.
        let next = DirectoryWatcher(root: root, modifiedFilesIn: store.folder, wakeFolder: wake, coalescing: .zero)
        let begin: Bool = stateLock.withLock {
            guard !stopped else { return false }
            watcher = next
            watchedRoot = root
            return true
        }
        guard begin else { return }
        try next.start { [weak self] events in self?.handle(events) }
        if announce || attached {
            log(0, attached ? "watching '\(root.path)' for store '\(store.folder.path)'"
                : "sync is \(status.state.rawValue) for store '\(store.folder.path)': waiting for 'notes sync enable'")
        }
    }

    /// Re-arms on another thread than the watcher's, which cannot stop itself and start anew.
    private func rearmLater() {
        restarts.async { [weak self] in
            guard let self else { return }
            do {
                try self.rearm(announce: false)
            } catch {
                self.log(0, "\(error)")
            }
        }
    }

    private let restarts = DispatchQueue(label: "NoteWatch.WatchService.restarts")

    private func handle(_ events: [WatchEvent]) {
        guard !stateLock.withLock({ stopped }) else { return }
        log(2, "\(events.count) event\(events.count == 1 ? "" : "s")")
        // A log arriving needs only the next logs looked up; anything else, a full sync.
        var scope: SyncEngine.ImportScope?
        for event in events {
            switch event {
            case .rescan:
                scope = .everything
            case let .fileReady(path):
                log(3, "ready: \(path)")
                if !path.hasPrefix("logs/\(store.deviceID.storeString)/") {
                    scope = path.hasPrefix("logs/") && scope != .everything ? .nextLogs : .everything
                }
            case let .removed(path):
                log(3, "removed: \(path.isEmpty ? "the container folder" : path)")
                scope = .everything
            case let .modified(name):
                if name.hasSuffix("-wal") { stateLock.withLock { commits }?.checkSoon() }
            }
        }
        do {
            // Events come from the container watched: a change of container or state is seen
            // through the store's commits, which re-arm the watcher.
            guard let scope, stateLock.withLock({ watchedRoot != nil && watchedRoot != idleFolder }) else { return }
            try syncOnce(importing: scope)

        } catch {
            log(0, "\(error)")
        }
    }

    /// Writes a baseline in the background when the logs after the newest one reach
    /// ``SyncEngine/baselineDue``: looked into after syncs that moved logs, at most every
    /// ``baselineCheckInterval`` (a sync within it is looked into when it ends), one at a time,
    /// without holding up the syncs of the watcher's thread.
    private func writeBaselineIfDue() {
        let now = ContinuousClock.now
        let delay = stateLock.withLock { () -> Duration? in
            if baselineCheckPending { return nil }
            baselineCheckPending = true
            guard let last = baselineLookedAt, now - last < Self.baselineCheckInterval else { return .zero }
            return Self.baselineCheckInterval - (now - last)
        }
        guard let delay else { return }
        let (seconds, attoseconds) = delay.components
        baselines.asyncAfter(deadline: .now() + Double(seconds) + Double(attoseconds) / 1e18) { [store, log] in
            self.stateLock.withLock {
                self.baselineCheckPending = false
                self.baselineLookedAt = ContinuousClock.now
            }
            guard !self.stateLock.withLock({ self.stopped }) else { return }
            do {
                if let written = try SyncEngine(store: store).writeBaselineIfDue() {
                    log(1, "wrote baseline \(written.sequence): \(written.items) items, \(written.logCount) logs, \(written.bytes) bytes")
                }
            } catch {
                log(0, "cannot write a baseline: \(error)")
            }
        }
    }

    /// Says in this device's registration what it has applied, once the interval of
    /// acknowledgements has passed after a sync that moved logs: a sync says so at most that
    /// often, so the last syncs of a busy moment would otherwise go unsaid until the next
    /// activity, and no baseline could drop history meanwhile. One at a time, away from the
    /// watcher's thread.
    private func acknowledgeLater() {
        let schedule = stateLock.withLock { () -> Bool in
            if acknowledgementPending { return false }
            acknowledgementPending = true
            return true
        }
        guard schedule else { return }
        baselines.asyncAfter(deadline: .now() + SyncEngine.acknowledgementInterval + 1) { [store, log] in
            self.stateLock.withLock { self.acknowledgementPending = false }
            guard !self.stateLock.withLock({ self.stopped }) else { return }
            do {
                try SyncEngine(store: store).acknowledgeIfDue()
            } catch {
                log(0, "cannot say in this device's registration what it has applied: \(error)")
            }
        }
    }

    /// Names each device whose clock runs ahead, once, and again when it runs twice as far.
    private func announceClocks(_ clocksAhead: [UUID: TimeInterval]) {
        for (device, ahead) in clocksAhead.sorted(by: { $0.key.storeString < $1.key.storeString }) {
            let isNews = stateLock.withLock { () -> Bool in
                if let announced = announcedClocks[device], ahead < 2 * announced { return false }
                announcedClocks[device] = ahead
                return true
            }
            if isNews {
                log(0, "the clock of device \(device.storeString) runs \(ClockSkew.describe(ahead)) ahead of this one's; its changes apply as they are")
            }
        }
    }

    private func syncOnce(importing scope: SyncEngine.ImportScope) throws {
        do {
            let clock = ContinuousClock()
            let start = clock.now
            let report = try engine.syncNow(importing: scope)
            if report.exportedLogs + report.importedLogs > 0 {
                writeBaselineIfDue()
                acknowledgeLater()
            }
            if report.exportedLogs + report.importedLogs > 0 {
                let (seconds, attoseconds) = (clock.now - start).components
                let milliseconds = Double(seconds) * 1000 + Double(attoseconds) / 1e15
                log(1, "exported \(report.exportedLogs), imported \(report.importedLogs) (\(report.importedChanges) changes) in "
                    + String(format: "%.2f ms", milliseconds))
            }
            if report.conflicts > 0 {
                log(0, "\(report.conflicts) concurrent edit\(report.conflicts == 1 ? "" : "s") could not merge; see 'notes conflicts'")
            }
            for waiting in report.waiting { log(2, "waiting: \(waiting.path): \(waiting.reason)") }
            announceClocks(report.clocksAhead)
        } catch let error as SyncError {
            switch error {
            case .detached:
                log(0, "\(error); the store is kept, and sync resumes after 'notes sync enable'")
                rearmLater()
            case .notEnabled:
                // Disabled by another process a moment ago: the watcher re-arms on its commit.
                rearmLater()
            default:
                throw error
            }
        }
    }
}
