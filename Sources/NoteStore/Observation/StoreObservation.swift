import Dispatch
import Foundation
import GRDB

/// A running observation of a store; it stops when cancelled or released.
// Unchecked: nothing changes after `init`, and the timer is safe to cancel from any thread.
public final class StoreObservation: @unchecked Sendable {
    private let timer: DispatchSourceTimer
    private let queue: DispatchQueue
    private let check: @Sendable () -> Void

    init(timer: DispatchSourceTimer, queue: DispatchQueue, check: @escaping @Sendable () -> Void) {
        self.timer = timer
        self.queue = queue
        self.check = check
    }

    /// Checks for a commit at once, on the observation's queue: what a process does that saw
    /// the store's ``Store/commitSignalFileName`` written, the moment another process committed.
    public func checkNow() {
        queue.async { [self] in
            if !timer.isCancelled { check() }
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
    /// The file in the store folder that is written after each commit (``CommitSignal``).
    public static var commitSignalFileName: String { CommitSignal.fileName }

    /// Calls `onChange` after every commit to the store, by this process or by another one.
    ///
    /// SQLite's `PRAGMA data_version` changes on a connection when any other connection,
    /// in any process, commits (https://sqlite.org/pragma.html#pragma_data_version). A
    /// dedicated read-only connection polls it every `interval`; several commits within one
    /// interval are reported once. `onChange` runs on a background queue. A process that
    /// watches the store folder calls ``StoreObservation/checkNow()`` when the file
    /// ``commitSignalFileName`` is written, and learns of a commit the moment it is whole.
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
        let version: @Sendable () -> Int? = {
            try? connection.inDatabase { try Int.fetchOne($0, sql: "PRAGMA data_version") }
        }
        let queue = DispatchQueue(label: "NoteStore.observeCommits")
        let timer = DispatchSource.makeTimerSource(queue: queue)
        // Unsafe: read and written only by the check, on the serial `queue`.
        nonisolated(unsafe) var last = version()
        let check: @Sendable () -> Void = {
            let current = version()
            if current != last {
                last = current
                onChange()
            }
        }
        timer.schedule(deadline: .now() + interval, repeating: interval)
        timer.setEventHandler(handler: check)
        timer.resume()
        return StoreObservation(timer: timer, queue: queue, check: check)
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
