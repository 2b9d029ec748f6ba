import Foundation
import Synchronization

/// Watches a folder tree with inotify and reports its finished files, its removals and when to
/// look at everything again; and, with the same thread, the files written in one more folder.
///
/// ```swift
/// let watcher = DirectoryWatcher(root: container, modifiedFilesIn: storeFolder, wakeFolder: runFolder)
/// try watcher.start { events in
///     // [.rescan] first, then e.g. [.fileReady("logs/<device>/000000000007.log")]
/// }
/// watcher.stop()
/// ```
///
/// It runs on libinotifytools, whose state is global to the process and not thread-safe: a
/// process runs one watcher at a time, and all its calls to the library happen on one dedicated
/// thread (not the Swift concurrency pool, whose threads must never block). That thread also
/// calls the handler, one batch at a time: a slow handler makes later batches larger, and a
/// queue overflow during it is reported as ``WatchEvent/rescan``.
///
/// - The root is watched recursively. inotify does not watch folders made later: the watcher
///   adds their watches itself, and reports the files already in them. When the root itself is
///   removed, or did not exist at start, the watcher watches it again as soon as it is made.
/// - Bursts are coalesced. An event after a quiet period is delivered at once; events arriving
///   within a period of the previous handler call wait for that period to end and go together
///   into one call. The period starts at `coalescing` and doubles up to `longestCoalescing`
///   while events keep arriving, so a thousand files within a second make about ten calls.
/// - `stop()` wakes the thread by writing the file `watcher.wake` into the private `wakeFolder`
///   (it stays there): libinotifytools waits for events in whole seconds and cannot be
///   interrupted otherwise. The watcher also writes it to read what is queued without waiting.
///
/// See inotify(7) for the events, and ``WatchEvent`` for what is reported.
public final class DirectoryWatcher: Sendable {
    public let root: URL
    /// A folder watched on its own (not recursively) for files written in it.
    public let modifiedFilesFolder: URL?
    /// A private folder the watcher writes its wake-up file into; made if missing.
    public let wakeFolder: URL
    public let coalescing: Duration
    public let longestCoalescing: Duration

    private struct Run {
        var loop: WatchLoop
        var finished: DispatchSemaphore
        var isRunning: Bool
    }

    private let run = Mutex<Run?>(nil)

    /// Whether a watcher runs in this process, from its start until its thread has ended.
    private static let processHasWatcher = Mutex(false)

    /// - Parameters:
    ///   - root: the folder to watch recursively.
    ///   - modifiedFilesIn: a folder whose files' writes (`IN_MODIFY`) are reported as
    ///     ``WatchEvent/modified(_:)``, such as the store folder, where a process that commits
    ///     writes the store's commit signal file. Not inside `root`.
    ///   - wakeFolder: a private folder for the wake-up file, not inside `root`; it may be the
    ///     folder of modified files.
    ///   - coalescing: how long events arriving soon after a handler call gather before the next
    ///     one, at first; `.zero` delivers every event at once.
    ///   - longestCoalescing: how long they gather at most, while a burst goes on.
    public init(
        root: URL, modifiedFilesIn: URL? = nil, wakeFolder: URL,
        coalescing: Duration = .milliseconds(5), longestCoalescing: Duration = .milliseconds(250)
    ) {
        self.root = root
        self.modifiedFilesFolder = modifiedFilesIn
        self.wakeFolder = wakeFolder
        self.coalescing = coalescing
        self.longestCoalescing = longestCoalescing
    }

    deinit { stop() }

    /// Starts watching on a new thread, and returns once the watches are in place: the handler
    /// then receives ``WatchEvent/rescan`` first, and every later event.
    ///
    /// Throws ``WatchError/anotherWatcherRunning`` while another watcher runs in this process,
    /// and the reason when a folder cannot be watched: the root may be missing (it is watched
    /// once made), but the root's parent, the wake folder's parent and the folder of modified
    /// files must exist.
    public func start(handler: @escaping @Sendable ([WatchEvent]) -> Void) throws(WatchError) {
        let folders = try WatchedFolders(root: root, modifications: modifiedFilesFolder, wake: wakeFolder)
        try run.withLock { run throws(WatchError) in
            if run?.isRunning == true { throw .alreadyStarted }
            try Self.processHasWatcher.withLock { taken throws(WatchError) in
                if taken { throw .anotherWatcherRunning }
                taken = true
            }
            let loop = WatchLoop(folders: folders, coalescing: coalescing, longestCoalescing: longestCoalescing)
            let started = DispatchSemaphore(value: 0)
            let finished = DispatchSemaphore(value: 0)
            let failure = Mutex<WatchError?>(nil)
            let thread = Thread {
                loop.run(handler: handler) { error in
                    failure.withLock { $0 = error }
                    started.signal()
                }
                Self.processHasWatcher.withLock { $0 = false }
                finished.signal()
            }
            thread.name = "NoteWatch"
            thread.start()
            started.wait()
            if let error = failure.withLock({ $0 }) {
                finished.wait()
                throw error
            }
            run = Run(loop: loop, finished: finished, isRunning: true)
        }
    }

    /// Stops watching and waits for the thread to end: at once, or once the handler call in
    /// progress returns. Called from the handler, it returns at once and the thread ends after
    /// the handler returns. Nothing is reported after `stop()` returns.
    public func stop() {
        let running: Run? = run.withLock { run in
            guard var current = run, current.isRunning else { return nil }
            current.isRunning = false
            run = current
            return current
        }
        guard let running else { return }
        running.loop.requestStop()
        if !running.loop.isCurrentThread { running.finished.wait() }
    }

    /// The last thing that went wrong on the watcher's thread: a new folder that could not be
    /// watched (the watch limit, for instance), or reading events failing, which ends watching.
    public var problem: WatchError? {
        run.withLock { $0?.loop.problem }
    }
}
