import Foundation
import Synchronization

#if canImport(Glibc)
    import Glibc
#endif

/// What a test may change of how this process syncs, given to ``SyncEngine`` by whoever makes
/// it: `notes` reads it from its environment (CONTRIBUTING.md, "Test hooks"). None of it is
/// part of the sync format, and ``none`` changes nothing.
public struct SyncHooks: Sendable {
    /// Where the process kills itself, if anywhere (``CrashPoint``).
    var crash: CrashSchedule?
    /// scrypt's cost `n` for the encrypted containers made here (``EncryptionSettings``).
    var scryptCost = EncryptionSettings.defaultCost
    /// How often, at most, a device rewrites its registration with what it has applied.
    public var acknowledgementInterval: TimeInterval = 600
    /// The log bytes one import transaction applies at most (``LogImporter/bytesPerTransaction``).
    public var transactionBytes = LogImporter.bytesPerTransaction
    /// How often a watcher looks for a commit that it was not told of by the store's commit
    /// signal: the fallback of `notes watch`.
    public var commitCheckInterval: TimeInterval = 2

    /// The hooks of a process that tests nothing.
    public static let none = SyncHooks()

    /// Hooks from their text; each nil, empty or unreadable text leaves its hook alone.
    ///
    /// - `crashAt`: `<point>` kills the process with SIGKILL the first time it reaches a
    ///   ``CrashPoint``, `<point>#<n>` the n-th time.
    /// - `scryptCost`: a power of 2 from 1,024 that readers accept with `r` = 8 and `p` = 1.
    /// - `acknowledgementSeconds`: 0 to 600.
    /// - `commitCheckSeconds`: 1 to 3,600.
    public init(
        crashAt: String? = nil, scryptCost: String? = nil, acknowledgementSeconds: String? = nil,
        commitCheckSeconds: String? = nil
    ) {
        if let crashAt, !crashAt.isEmpty {
            let parts = crashAt.split(separator: "#")
            crash = CrashSchedule(point: String(parts[0]), count: parts.count > 1 ? Int(parts[1]) ?? 1 : 1)
        }
        if let n = scryptCost.flatMap(Int.init), EncryptionSettings.isAccepted(n: n, r: 8, p: 1) {
            self.scryptCost = n
        }
        if let seconds = acknowledgementSeconds.flatMap(TimeInterval.init), (0...600).contains(seconds) {
            acknowledgementInterval = seconds
        }
        if let seconds = commitCheckSeconds.flatMap(TimeInterval.init), (1...3600).contains(seconds) {
            commitCheckInterval = seconds
        }
    }

    /// Kills the process when `point` is where, and this is when, it was asked to.
    func reach(_ point: CrashPoint) {
        crash?.reach(point)
    }
}

/// The crash point a process was asked to die at, and how often it has reached it.
final class CrashSchedule: Sendable {
    let point: String
    let count: Int
    private let reached = Mutex(0)

    init(point: String, count: Int) {
        self.point = point
        self.count = count
    }

    func reach(_ point: CrashPoint) {
        guard point.rawValue == self.point else { return }
        if reached.withLock({
            $0 += 1; return $0
        }) == count {
            kill(getpid(), SIGKILL)
        }
    }
}
