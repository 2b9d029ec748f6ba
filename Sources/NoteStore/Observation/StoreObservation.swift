import Dispatch
import Foundation
import GRDB

/// A running observation of a store; it stops when cancelled or released.
public final class StoreObservation: @unchecked Sendable {
    private let timer: DispatchSourceTimer

    init(timer: DispatchSourceTimer) {
        self.timer = timer
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
    /// interval are reported once. `onChange` runs on a background queue.
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
        nonisolated(unsafe) var last = version()
        timer.schedule(deadline: .now() + interval, repeating: interval)
        timer.setEventHandler {
            let current = version()
            if current != last {
                last = current
                onChange()
            }
        }
        timer.resume()
        return StoreObservation(timer: timer)
    }

    /// Calls `onChange` with the request's results now, and again whenever they change.
    public func observe(
        _ request: ItemRequest, every interval: TimeInterval = 0.05,
        onChange: @escaping @Sendable ([Item]) -> Void
    ) throws -> StoreObservation {
        let initial = try fetch(request)
        onChange(initial)
        nonisolated(unsafe) var last = initial
        return try observeCommits(every: interval) { [self] in
            guard let items = try? fetch(request), items != last else { return }
            last = items
            onChange(items)
        }
    }
}
