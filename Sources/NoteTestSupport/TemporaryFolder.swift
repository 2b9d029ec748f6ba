import Foundation

/// A fresh folder under the system's temporary folder, removed when released.
public final class TemporaryFolder: Sendable {
    public let url: URL

    public init(_ label: String = "notes-test") {
        let base = URL(fileURLWithPath: NSTemporaryDirectory())
        url = base.appendingPathComponent("\(label)-\(UUID().uuidString.prefix(12))")
        try? FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    }

    public var path: String { url.path }

    /// A path inside the folder.
    public func appending(_ name: String) -> URL {
        url.appendingPathComponent(name)
    }

    deinit {
        // Make anything a test made read-only writable again, so that it can be removed.
        if let paths = FileManager.default.enumerator(atPath: url.path) {
            for case let path as String in paths {
                chmod(url.appendingPathComponent(path).path, 0o700)
            }
        }
        chmod(url.path, 0o700)
        try? FileManager.default.removeItem(at: url)
    }
}

/// Waits until `condition` holds, checking it again and again until `timeout` has passed.
///
/// Returns whether the condition held. Never a fixed sleep: it returns as soon as it holds.
public func eventually(
    within timeout: TimeInterval = 10, pollingEvery interval: TimeInterval = 0.01,
    _ condition: () throws -> Bool
) rethrows -> Bool {
    let deadline = Date().addingTimeInterval(timeout)
    while true {
        if try condition() { return true }
        if Date() >= deadline { return false }
        Thread.sleep(forTimeInterval: interval)
    }
}
