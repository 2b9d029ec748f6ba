import Foundation

/// The SHA-256 of a file, computed on a thread of its own while the caller goes on.
///
/// A new device checks a baseline's copy two ways, its SHA-256 against the manifest and the
/// database itself; both read the whole file and neither needs the other, so they run on two
/// cores. The copy lies in the store folder, where nothing else writes, so both see the same
/// bytes.
final class BackgroundDigest: @unchecked Sendable {
    private let done = DispatchSemaphore(value: 0)
    /// Set once by the thread, read after `done`.
    private var result: Result<String, any Error> = .success("")
    private var waited = false

    init(of file: URL) {
        Thread.detachNewThread { [self] in
            result = Result { try BaselineLoader.sha256(of: file) }
            done.signal()
        }
    }

    /// Waits for the digest: 64 lowercase hex digits. Call it before the file goes, on every
    /// path, so that no thread is left reading.
    func wait() throws -> String {
        if !waited {
            done.wait()
            waited = true
        }
        return try result.get()
    }
}
