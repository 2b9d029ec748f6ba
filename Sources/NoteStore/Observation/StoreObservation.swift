import Dispatch
import Foundation
import GRDB

/// A running observation of a store; it stops when cancelled or released.
// Unchecked: `quickUntil` is touched on the serial `queue` only, and the rest never changes.
public final class StoreObservation: @unchecked Sendable {
    private let timer: DispatchSourceTimer
    private let queue: DispatchQueue
    private let interval: TimeInterval
    /// Until when the commit check runs at the quick pace; touched on `queue` only.
    private var quickUntil = DispatchTime.distantFuture

    /// The pace of the checks after ``checkSoon()``, and for how long.
    public static let quickInterval: TimeInterval = 0.000_25
    public static let quickPeriod: TimeInterval = 0.05

    init(timer: DispatchSourceTimer, queue: DispatchQueue, interval: TimeInterval) {
        self.timer = timer
        self.queue = queue
        self.interval = interval
    }

    /// A hint that a commit may be under way (another process is writing the store's files):
    /// checks at once, then every ``quickInterval`` for ``quickPeriod``, then at the usual pace.
    public func checkSoon() {
        queue.async { [self] in
            quickUntil = .now() + Self.quickPeriod
            timer.schedule(deadline: .now(), repeating: Self.quickInterval, leeway: .microseconds(50))
        }
    }

    /// Called on `queue` after each check: back to the usual pace once the quick period is over.
    fileprivate func checked() {
        if quickUntil != .distantFuture, DispatchTime.now() >= quickUntil {
            quickUntil = .distantFuture
            timer.schedule(deadline: .now() + interval, repeating: interval)
        }
    }

    public func cancel() {
        timer.cancel()
    }

    deinit {
        timer.cancel()
    }
}

extension Store {
    /// Calls `onChange` after every commit to the store, by this process or by another one.
    ///
    /// SQLite's `PRAGMA data_version` changes on a connection when any other connection,
    /// in any process, commits (https://sqlite.org/pragma.html#pragma_data_version). A
    /// dedicated read-only connection polls it every `interval`; several commits within one
    /// interval are reported once. `onChange` runs on a background queue. A process that knows
    /// a commit is coming (it saw the store's WAL file written) calls
    /// ``StoreObservation/checkSoon()`` to learn of it within a fraction of a millisecond.
    public func observeCommits(
        every interval: TimeInterval = 0.05, onChange: @escaping @Sendable () -> Void
    ) throws -> StoreObservation {
        var configuration = Configuration()
        configuration.readonly = true
        configuration.busyMode = .timeout(10)
        let path = folder.appendingPathComponent(Self.databaseFileName).path
        let connection: DatabaseQueue
        do {
            connection = try DatabaseQueue(path: path, configuration: configuration)
        } catch {
            throw StoreError.database(path: folder.path, underlying: error)
        }
        let version = { try? connection.inDatabase { try Int.fetchOne($0, sql: "PRAGMA data_version") } }
        let queue = DispatchQueue(label: "NoteStore.observeCommits")
        let timer = DispatchSource.makeTimerSource(queue: queue)
        // Unsafe: read and written only by the timer's handler, on the serial `queue`.
        nonisolated(unsafe) var last = version()
        let observation = StoreObservation(timer: timer, queue: queue, interval: interval)
        timer.schedule(deadline: .now() + interval, repeating: interval)
        timer.setEventHandler { [weak observation] in
            let current = version()
            if current != last {
                last = current
                onChange()
            }
            observation?.checked()
        }
        timer.resume()
        return observation
    }

    /// Calls `onChange` with the request's results now, and again whenever they change.
    public func observe(
        _ request: ItemRequest, every interval: TimeInterval = 0.05,
        onChange: @escaping @Sendable ([Item]) -> Void
    ) throws -> StoreObservation {
        let initial = try fetch(request)
        onChange(initial)
        // Unsafe: read and written only by the commit check, on the observation's serial queue.
        nonisolated(unsafe) var last = initial
        return try observeCommits(every: interval) { [self] in
            guard let items = try? fetch(request), items != last else { return }
            last = items
            onChange(items)
        }
    }
}
