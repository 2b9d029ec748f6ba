import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// Named points in export and import where a process can be made to die at once, to test that
/// a sync stopped anywhere loses nothing and applies nothing twice.
///
/// `NOTES_CRASH_AT=<point>` kills the process with SIGKILL the first time it reaches the point;
/// `<point>#<n>` the n-th time. Without the variable, reaching a point does nothing.
enum CrashPoint: String {
    case blobPublished = "export.blob"
    case logWritten = "export.log"
    case exportCommitted = "export.commit"
    case importRead = "import.read"
    /// Inside the import's transaction, once per change applied.
    case importApplying = "import.apply"
    case importCommitted = "import.commit"
    /// After a baseline's database was copied out of the store, before it is published.
    case baselineCopied = "baseline.copy"
    /// After a baseline's files were published, before the store records it.
    case baselinePublished = "baseline.publish"
    /// After a joining device copied and checked a baseline, before it becomes its store.
    case joinVerified = "join.verify"
    /// After a joining device's store was made from a baseline, before sync records it.
    case joinLinked = "join.link"
    /// After compaction removed one of this device's logs.
    case compactionRemoved = "compact.remove"

    nonisolated(unsafe) private static var reached: [String: Int] = [:]
    private static let target: (name: String, count: Int)? = {
        guard let text = ProcessInfo.processInfo.environment["NOTES_CRASH_AT"], !text.isEmpty else { return nil }
        let parts = text.split(separator: "#")
        return (String(parts[0]), parts.count > 1 ? Int(parts[1]) ?? 1 : 1)
    }()

    func reach() {
        guard let target = Self.target, target.name == rawValue else { return }
        let count = (Self.reached[rawValue] ?? 0) + 1
        Self.reached[rawValue] = count
        if count == target.count { kill(getpid(), SIGKILL) }
    }
}
