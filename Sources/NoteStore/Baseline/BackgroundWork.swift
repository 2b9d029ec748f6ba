import Foundation

/// Work done on a thread of its own while the caller goes on: a baseline's copy is hashed and
/// its database checked, each reading the whole file, and two cores do it in about the time of
/// one read.
public final class BackgroundWork<Value>: @unchecked Sendable {
    private let done = DispatchSemaphore(value: 0)
    /// Set once by the thread, read after `done`.
    private var result: Result<Value, any Error>?
    private var waited = false

    public init(_ work: @escaping @Sendable () throws -> Value) {
        Thread.detachNewThread { [self] in
            result = Result { try work() }
            done.signal()
        }
    }

    /// Waits for the work, once, on every path of the caller, so that no thread is left
    /// reading what the caller removes.
    public func wait() -> Result<Value, any Error> {
        if !waited {
            done.wait()
            waited = true
        }
        return result!
    }
}
