import Foundation
import Synchronization

#if canImport(Glibc)
    import Glibc
#endif

/// The body of a watcher's thread: sets up libinotifytools, then reads events, gathers them into
/// batches and hands each batch to the handler, until asked to stop.
///
/// Everything that touches libinotifytools happens in ``run(handler:started:)``, on the one
/// thread that calls it. Other threads only set the stop flag and write the wake file.
final class WatchLoop: Sendable {
    private let folders: WatchedFolders
    private let coalescing: Duration
    private let longestCoalescing: Duration
    private let stopping = Atomic<Bool>(false)
    private let thread = Mutex<pthread_t?>(nil)
    private let lastProblem = Mutex<WatchError?>(nil)

    init(folders: WatchedFolders, coalescing: Duration, longestCoalescing: Duration) {
        self.folders = folders
        self.coalescing = coalescing
        self.longestCoalescing = max(coalescing, longestCoalescing)
    }

    /// The last thing that went wrong on the watcher's thread.
    var problem: WatchError? { lastProblem.withLock { $0 } }

    /// Whether the caller runs on the watcher's thread (in the handler).
    var isCurrentThread: Bool {
        thread.withLock { current in current.map { pthread_equal($0, pthread_self()) != 0 } ?? false }
    }

    /// How long, in seconds, the loop waits for an event before it looks at the stop flag
    /// again: at rest the thread sleeps in the kernel, since a stop request writes the wake
    /// file and so wakes it at once; the bound only guards against a lost wake-up.
    static let idleTimeout = 30

    /// Asks the loop to end, and wakes it if it waits for an event.
    func requestStop() {
        stopping.store(true, ordering: .sequentiallyConsistent)
        _ = Self.touch(folders.wakeFile)
    }

    /// Runs the loop on the calling thread: calls `started` once set up (with the error that
    /// prevented it, if any), reports ``WatchEvent/rescan``, then batches until stopped.
    ///
    /// The handler is not kept beyond this call, so that a handler holding its watcher makes no
    /// cycle that outlives the thread.
    func run(handler: @Sendable ([WatchEvent]) -> Void, started: (WatchError?) -> Void) {
        thread.withLock { $0 = pthread_self() }
        let instance: InotifyInstance
        let translator: EventTranslator
        do {
            (instance, translator) = try setUp()
        } catch {
            started(error)
            return
        }
        defer { instance.close() }
        started(nil)
        // Whatever arrived while nothing watched: the receiver looks at everything once.
        handler([.rescan])
        loop(instance, translator, handler)
    }

    private func setUp() throws(WatchError) -> (InotifyInstance, EventTranslator) {
        let instance = try InotifyInstance()
        let translator = EventTranslator(instance: instance, folders: folders) { [weak self] problem in
            self?.lastProblem.withLock { $0 = problem }
        }
        try translator.watchFolders()
        try checkWakeUp(instance, translator)
        try translator.watchTree()
        return (instance, translator)
    }

    /// Batches events: an event that comes a period or more after the previous batch goes at
    /// once; one that comes sooner belongs to a burst, and waits with the events after it until
    /// that period has passed. The period starts at `coalescing` and doubles, up to
    /// `longestCoalescing`, as long as events keep coming while it runs; a period that gathered
    /// nothing more sets it back to `coalescing`. A thousand files within a second make about
    /// ten batches; saves that each wait for the previous one to be seen wait `coalescing` at most.
    private func loop(
        _ instance: InotifyInstance, _ translator: EventTranslator, _ handler: @Sendable ([WatchEvent]) -> Void
    ) {
        let clock = ContinuousClock()
        var lastDelivery = clock.now
        var period = coalescing
        while !stopping.load(ordering: .sequentiallyConsistent) {
            switch instance.nextEvent(timeout: Self.idleTimeout) {
            case .timeout:
                continue
            case let .failure(code):
                lastProblem.withLock { $0 = .cannotRead(reason: WatchError.reason(forErrno: code)) }
                return
            case let .event(first):
                if translator.isIgnorable(first) { continue }
                var events = [first]
                drain(instance, translator, into: &events)
                let periodEnd = lastDelivery.advanced(by: period)
                if clock.now < periodEnd {
                    let gathered = events.count
                    clock.sleepThread(until: periodEnd)
                    drain(instance, translator, into: &events)
                    period = events.count > gathered ? min(period * 2, longestCoalescing) : coalescing
                } else {
                    period = coalescing
                }
                let batch = translator.translate(events)
                guard !stopping.load(ordering: .sequentiallyConsistent) else { return }
                if !batch.isEmpty {
                    handler(batch)
                    lastDelivery = clock.now
                }
            }
        }
    }

    /// Reads every event queued so far without waiting for more, leaving out those that can be
    /// ignored: writes the wake file, and reads until its event, which the kernel queues after
    /// all the others. libinotifytools cannot be asked whether it has events buffered, and waits
    /// at least a second when it has none.
    private func drain(_ instance: InotifyInstance, _ translator: EventTranslator, into events: inout [RawEvent]) {
        guard Self.touch(folders.wakeFile) else { return }
        while case let .event(event) = instance.nextEvent(timeout: 1) {
            if translator.isWakeEvent(event) { return }
            if !translator.isIgnorable(event) { events.append(event) }
        }
    }

    /// Checks that events come through: writes the wake file and waits for its event. Events
    /// read before it are dropped: the first batch is a rescan.
    private func checkWakeUp(_ instance: InotifyInstance, _ translator: EventTranslator) throws(WatchError) {
        guard Self.touch(folders.wakeFile) else {
            throw .cannotWatch(path: folders.wakeFile, reason: WatchError.reason(forErrno: errno))
        }
        while true {
            switch instance.nextEvent(timeout: 1) {
            case let .event(event) where translator.isWakeEvent(event): return
            case .event: continue
            case .timeout: throw .cannotStart(reason: "no inotify event came for writing '\(folders.wakeFile)'")
            case let .failure(code): throw .cannotRead(reason: WatchError.reason(forErrno: code))
            }
        }
    }

    /// Opens the file for writing (making it if needed) and closes it: one `IN_CLOSE_WRITE`. The
    /// wake file stays in the wake folder.
    private static func touch(_ path: String) -> Bool {
        let descriptor = open(path, O_WRONLY | O_CREAT | O_CLOEXEC | O_NOFOLLOW, 0o600)
        guard descriptor >= 0 else { return false }
        close(descriptor)
        return true
    }
}

extension ContinuousClock {
    /// Blocks the calling thread (not a task) until `deadline`.
    fileprivate func sleepThread(until deadline: Instant) {
        let wait = now.duration(to: deadline)
        guard wait > .zero else { return }
        let (seconds, attoseconds) = wait.components
        var request = timespec(tv_sec: Int(seconds), tv_nsec: Int(attoseconds / 1_000_000_000))
        var remaining = timespec()
        while nanosleep(&request, &remaining) != 0 && errno == EINTR { request = remaining }
    }
}
