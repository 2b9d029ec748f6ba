/// A file or folder of this machine that could not be read or written: its path, and the
/// system's reason (strerror(3)).
///
/// Each library says it in its own error: sync as `SyncError.io`, interchange as
/// `InterchangeError.io`, with the same path and reason.
public struct FileError: Error, Sendable, CustomStringConvertible {
    public let path: String
    public let reason: String

    public init(path: String, reason: String) {
        self.path = path
        self.reason = reason
    }

    public var description: String { "cannot use '\(path)': \(reason)" }
}
