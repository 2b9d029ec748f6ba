import Foundation
import Logging
import NoteSync
import Synchronization

/// The loop behind `notes watch`: keeps one store in sync while it runs.
///
/// It holds the store's ``WatcherLock`` (one watcher per store), watches the container with a
/// ``DirectoryWatcher`` and the store's commits for saves made by any process, and calls sync:
/// new logs are imported and local saves exported as they happen; the container's sentinel or
/// this device's registration disappearing is noticed at once and switches sync off. What a
/// log means is for `NoteSync` to decide. Events come on the watcher's thread, one batch at a
/// time, so syncs never overlap.
// Unchecked: what changes is in `state`; `engine` is not Sendable, and its syncs take the
// store's sync lock (SyncLock), one at a time.
public final class WatchService: @unchecked Sendable {
    private let engine: SyncEngine
    private let logger: Logger
    private let lock: WatcherLock
    private let state = Mutex(State())
    /// Where baselines are written, away from the watcher's thread.
    private let baselines = DispatchQueue(label: "NoteWatch.WatchService.baselines", qos: .utility)

    /// What the watcher's thread, the commit observer and the queues share.
    private struct State {
        var watcher: DirectoryWatcher?
        var watchedRoot: URL?
        var stopped = false
        var commits: SyncEngine.CommitObservation?
        /// The devices whose clock this watcher has said runs ahead, with how far it said.
        var announcedClocks: [UUID: TimeInterval] = [:]
        /// When the watcher last looked whether a baseline is due.
        var baselineLookedAt: ContinuousClock.Instant?
        var baselineCheckPending = false
        var acknowledgementPending = false
        /// When a sync last failed, and when the last full sync that succeeded started: after a
        /// failure, the next sync that logs arriving start looks at everything, since logs that
        /// arrived before may not have been looked at.
        var lastFailure: ContinuousClock.Instant?
        var lastFullSync: ContinuousClock.Instant?

        var fullSyncDue: Bool {
            guard let lastFailure else { return false }
            return lastFullSync.map { $0 < lastFailure } ?? true
        }
        /// When a sync last moved logs.
        var lastMoved: ContinuousClock.Instant?
    }

    /// When a baseline due may be written.
    static let baselineMoment = QuietMoment()

    /// How often, at most, the watcher looks whether a baseline is due.
    static let baselineCheckInterval: Duration = .seconds(10)

    /// Takes the watcher lock of the store that `engine` syncs; throws
    /// ``WatchError/locked(path:pid:)`` naming the process of a watcher that runs already.
    ///
    /// `engine` is the service's own: its syncs run on the watcher's thread, and baselines and
    /// acknowledgements on another, through engines of the same store and hooks
    /// (``SyncEngine/init(sameStoreAs:)``).
    ///
    /// `logger` receives messages at these levels: `error` for what failed, `notice` for what a
    /// person must know at once (sync switched off or on), `info` for what was imported and
    /// exported, `debug` for each batch of events, `trace` for each file event.
    public init(engine: SyncEngine, logger: Logger) throws {
        self.engine = engine
        self.logger = logger
        self.lock = try WatcherLock(in: engine.storeFolder)
    }

    /// The name of the store's commit signal file.
    private let commitSignal = SyncEngine.commitSignalFileName

    /// Starts watching and syncs once, to take in what arrived while no watcher ran.
    public func start() throws {
        try rearm(announce: true)
        // A store writes its commit signal file after each commit, whose inotify event makes the
        // check at once (``SyncEngine/CommitObservation/checkNow()``); the checks at the hooks'
        // interval (2 seconds) are a fallback, for a writer that does not signal. At rest the
        // watcher sleeps.
        let observation = try engine.observeCommits(every: engine.hooks.commitCheckInterval) { [weak self] in
            self?.committed()
        }
        state.withLock { $0.commits = observation }
        // A save committed after the first sync read the outbox and before the observation
        // took its first look would wait for the next commit: it is exported now.
        DispatchQueue.global(qos: .utility).async { [weak self] in self?.committed() }
    }

    /// After any commit to the store, by any process: exports a local save, and follows
    /// `notes sync enable` and `disable` made elsewhere.
    private func committed() {
        guard !state.withLock({ $0.stopped }) else { return }
        do {
            // A save to export: the sync reads the state itself (and re-arms when sync went off).
            if state.withLock({ $0.watchedRoot != nil && $0.watchedRoot != idleFolder }),
                try engine.hasChangesToExport()
            {
                try syncOnce(importing: .nextLogs)
                return
            }
            if try state.withLock({ $0.watchedRoot }) != (engine.containerFolder() ?? idleFolder) {
                rearmLater()
            }
        } catch {
            logger.error("\(error)")
        }
    }

    /// Stops watching, after the sync in progress; releases the lock.
    public func stop() {
        let current: DirectoryWatcher? = state.withLock { state in
            state.stopped = true
            defer { state.watcher = nil }
            return state.watcher
        }
        current?.stop()
        state.withLock { $0.commits }?.cancel()
        // A save being exported by the commit observer finishes before the process ends.
        engine.waitUntilIdle(timeout: 0.8)
        lock.release()
        logger.info("stopped")
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
    private var idleFolder: URL { engine.storeFolder.appendingPathComponent(".watch-idle") }

    /// Starts a watcher on the current target unless one watches it already. Never called on
    /// the watcher's own thread.
    private func rearm(announce: Bool) throws {
        let (root, attached, status) = try target()
        if state.withLock({ $0.watchedRoot == root && $0.watcher != nil }) { return }
        state.withLock { $0.watcher }?.stop()
        let wake = engine.storeFolder.appendingPathComponent(".watch")
        for folder in [wake, engine.storeFolder.appendingPathComponent(".watch-idle")] {
            try FileManager.default.createDirectory(
                at: folder, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        }
        // Saves are seen through the store's commits (see `start`), checked when the store's
        // commit signal file is written.
        let next = DirectoryWatcher(
            root: root, modifiedFilesIn: engine.storeFolder, wakeFolder: wake, coalescing: .zero)
        let begin: Bool = state.withLock { state in
            guard !state.stopped else { return false }
            state.watcher = next
            state.watchedRoot = root
            return true
        }
        guard begin else { return }
        try next.start { [weak self] events in self?.handle(events) }
        if announce || attached {
            logger.notice(
                attached
                    ? "watching '\(root.path)' for store '\(engine.storeFolder.path)'"
                    : """
                    sync is \(status.state.rawValue) for store '\(engine.storeFolder.path)': \
                    waiting for 'notes sync enable'
                    """
            )
        }
    }

    /// Re-arms on another thread than the watcher's, which cannot stop itself and start anew.
    private func rearmLater() {
        restarts.async { [weak self] in
            guard let self else { return }
            do {
                try self.rearm(announce: false)
            } catch {
                self.logger.error("\(error)")
            }
        }
    }

    private let restarts = DispatchQueue(label: "NoteWatch.WatchService.restarts")

    private func handle(_ events: [WatchEvent]) {
        guard !state.withLock({ $0.stopped }) else { return }
        logger.debug("\(events.count) event\(events.count == 1 ? "" : "s")")
        // Logs arriving need only the next logs of their devices looked up; anything else, a
        // full sync.
        var arrived: [String] = []
        var everything = false
        for event in events {
            switch event {
            case .rescan:
                everything = true
            case let .fileReady(path):
                logger.trace("ready: \(path)")
                arrived.append(path)
            case let .removed(path):
                logger.trace("removed: \(path.isEmpty ? "the container folder" : path)")
                everything = true
            case let .modified(name):
                if name == commitSignal { state.withLock { $0.commits }?.checkNow() }
            }
        }
        var scope = everything ? .everything : engine.importScope(afterArrivalOf: arrived)
        if scope != nil, state.withLock({ $0.fullSyncDue }) { scope = .everything }
        do {
            // Events come from the container watched: a change of container or state is seen
            // through the store's commits, which re-arm the watcher.
            guard let scope, state.withLock({ $0.watchedRoot != nil && $0.watchedRoot != idleFolder }) else { return }
            try syncOnce(importing: scope)

        } catch {
            logger.error("\(error)")
        }
    }

    /// Writes a baseline in the background when the logs after the newest one reach
    /// ``SyncEngine/baselineDue``: looked into after syncs that moved logs, at most every
    /// ``baselineCheckInterval`` (a sync within it is looked into when it ends), one at a time,
    /// without holding up the syncs of the watcher's thread.
    private func writeBaselineIfDue() {
        let now = ContinuousClock.now
        let delay = state.withLock { state -> Duration? in
            if state.baselineCheckPending { return nil }
            state.baselineCheckPending = true
            guard let last = state.baselineLookedAt, now - last < Self.baselineCheckInterval else { return .zero }
            return Self.baselineCheckInterval - (now - last)
        }
        guard let delay else { return }
        checkBaseline(after: delay, dueSince: now + delay)
    }

    /// Writes a baseline when one is due, after `delay` and then at a quiet moment
    /// (``baselineMoment``): the check of ``writeBaselineIfDue()``.
    private func checkBaseline(after delay: Duration, dueSince: ContinuousClock.Instant) {
        let (seconds, attoseconds) = delay.components
        baselines.asyncAfter(deadline: .now() + Double(seconds) + Double(attoseconds) / 1e18) { [logger] in
            let now = ContinuousClock.now
            let lastMoved = self.state.withLock { $0.lastMoved }
            if let wait = Self.baselineMoment.wait(now: now, lastMoved: lastMoved, dueSince: dueSince) {
                self.checkBaseline(after: wait, dueSince: dueSince)
                return
            }
            self.state.withLock { state in
                state.baselineCheckPending = false
                state.baselineLookedAt = now
            }
            guard !self.state.withLock({ $0.stopped }) else { return }
            do {
                if let written = try SyncEngine(sameStoreAs: self.engine).writeBaselineIfDue() {
                    logger.info(
                        """
                        wrote baseline \(written.sequence): \(written.items) items, \(written.logCount) logs, \
                        \(written.bytes) bytes
                        """
                    )
                }
            } catch {
                logger.error("cannot write a baseline: \(error)")
            }
        }
    }

    /// Says in this device's registration what it has applied, once the interval of
    /// acknowledgements has passed after a sync that moved logs: a sync says so at most that
    /// often, so the last syncs of a busy moment would otherwise go unsaid until the next
    /// activity, and no baseline could drop history meanwhile. One at a time, away from the
    /// watcher's thread.
    private func acknowledgeLater() {
        let schedule = state.withLock { state -> Bool in
            if state.acknowledgementPending { return false }
            state.acknowledgementPending = true
            return true
        }
        guard schedule else { return }
        baselines.asyncAfter(deadline: .now() + engine.acknowledgementInterval + 1) { [logger] in
            self.state.withLock { $0.acknowledgementPending = false }
            guard !self.state.withLock({ $0.stopped }) else { return }
            do {
                try SyncEngine(sameStoreAs: self.engine).acknowledgeIfDue()
            } catch {
                logger.error("cannot say in this device's registration what it has applied: \(error)")
            }
        }
    }

    /// Names each device whose clock runs ahead, once, and again when it runs twice as far.
    private func announceClocks(_ clocksAhead: [UUID: TimeInterval]) {
        for (device, ahead) in clocksAhead.sorted(by: {
            $0.key.uuidString.lowercased() < $1.key.uuidString.lowercased()
        }) {
            let isNews = state.withLock { state -> Bool in
                if let announced = state.announcedClocks[device], ahead < 2 * announced { return false }
                state.announcedClocks[device] = ahead
                return true
            }
            if isNews {
                logger.notice(
                    """
                    the clock of device \(device.uuidString.lowercased()) runs \(ClockSkew.describe(ahead)) \
                    ahead of this one's; its changes apply as they are
                    """
                )
            }
        }
    }

    private func syncOnce(importing scope: SyncEngine.ImportScope) throws {
        do {
            let clock = ContinuousClock()
            let start = clock.now
            let report: SyncReport
            do {
                report = try engine.syncNow(importing: scope)
                if scope == .everything { state.withLock { $0.lastFullSync = max($0.lastFullSync ?? start, start) } }
            } catch {
                state.withLock { $0.lastFailure = clock.now }
                throw error
            }
            if report.exportedLogs + report.importedLogs > 0 {
                state.withLock { $0.lastMoved = clock.now }
                writeBaselineIfDue()
                acknowledgeLater()
            }
            if report.exportedLogs + report.importedLogs > 0 {
                let (seconds, attoseconds) = (clock.now - start).components
                let milliseconds = Double(seconds) * 1000 + Double(attoseconds) / 1e15
                logger.info(
                    """
                    exported \(report.exportedLogs), imported \(report.importedLogs) \
                    (\(report.importedChanges) changes) in \(String(format: "%.2f ms", milliseconds))
                    """
                )
            }
            if report.conflicts > 0 {
                logger.notice(
                    """
                    \(report.conflicts) concurrent edit\(report.conflicts == 1 ? "" : "s") \
                    could not merge; see 'notes conflicts'
                    """
                )
            }
            for waiting in report.waiting { logger.debug("waiting: \(waiting.path): \(waiting.reason)") }
            announceClocks(report.clocksAhead)
        } catch let error as SyncError {
            switch error {
            case .detached:
                logger.notice("\(error); the store is kept, and sync resumes after 'notes sync enable'")
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
