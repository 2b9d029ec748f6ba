import Foundation
import Synchronization

/// Work done on a thread of its own while the caller goes on: a baseline's copy is hashed and
/// its database checked, each reading the whole file, and two cores do it in about the time of
/// one read.
public final class BackgroundWork<Value: Sendable>: Sendable {
    private let done = DispatchSemaphore(value: 0)
    /// Set once by the thread, before `done` is signalled.
    private let result = Mutex<Result<Value, any Error>?>(nil)

    public init(_ work: @escaping @Sendable () throws -> Value) {
        Thread.detachNewThread { [self] in
            let outcome = Result { try work() }
            result.withLock { $0 = outcome }
            done.signal()
        }
    }

    /// Waits for the work, on every path of the caller, so that no thread is left reading what
    /// the caller removes. Waiting again returns the same result at once.
    public func wait() -> Result<Value, any Error> {
        done.wait()
        done.signal()
        return result.withLock { $0! }
    }
}
