import Foundation
import NoteSync
import Synchronization

#if canImport(Glibc)
    import Glibc
#endif

/// A cloud file system that fails where a test tells it to, and otherwise passes every call to
/// the file system it wraps.
///
/// Faults are set per path (relative to the cloud folder, exactly as the container passes
/// them) and per kind of operation, with the `errno` to report: `EIO` for a disk or network
/// that fails, `EACCES` for a permission, `ENOENT` to pretend a file is not there. They stay
/// until healed. Safe to use from several threads.
public final class FaultyCloudFileSystem: CloudFileSystem {
    /// The kinds of operation a fault applies to.
    public enum Operation: Hashable, Sendable, CaseIterable {
        /// `list`.
        case list
        /// `entry(at:)`, which looks a name up without reading it.
        case inspect
        /// `read`.
        case read
        /// `write`, `create`, `makeFolder` and `remove`.
        case write
    }

    /// The faults set, by path and operation, and the calls that reached it, by operation.
    private struct State {
        var faults: [String: [Operation: Int32]] = [:]
        var counts: [Operation: Int] = [:]
    }

    public let base: any CloudFileSystem
    private let state = Mutex(State())

    public init(wrapping base: any CloudFileSystem) {
        self.base = base
    }

    /// A faulty file system over the real folder `root`.
    public convenience init(root: URL) {
        self.init(wrapping: LocalCloudFileSystem(root: root))
    }

    public var root: URL { base.root }

    /// Makes `operations` on `path` fail with `code` from now on.
    public func fail(_ operations: Set<Operation> = Set(Operation.allCases), at path: String, with code: Int32 = EIO) {
        state.withLock { state in
            for operation in operations { state.faults[path, default: [:]][operation] = code }
        }
    }

    /// Removes every fault set on `path`.
    public func heal(_ path: String) {
        state.withLock { _ = $0.faults.removeValue(forKey: path) }
    }

    /// How many calls of a kind reached this file system, failed or not.
    public func count(of operation: Operation) -> Int {
        state.withLock { $0.counts[operation, default: 0] }
    }

    private func check(_ operation: Operation, _ path: String) throws(SyncError) {
        let code: Int32? = state.withLock { state in
            state.counts[operation, default: 0] += 1
            return state.faults[path]?[operation]
        }
        guard let code else { return }
        let absolute = base.absolutePath(of: path)
        if code == ENOENT { throw .missing(path: absolute) }
        throw .io(path: absolute, reason: String(cString: strerror(code)).lowercased())
    }

    public func list(_ folder: String) throws(SyncError) -> [CloudEntry] {
        try check(.list, folder)
        return try base.list(folder)
    }

    public func entry(at path: String) throws(SyncError) -> CloudEntry {
        try check(.inspect, path)
        return try base.entry(at: path)
    }

    public func read(_ path: String, limit: Int) throws(SyncError) -> Data {
        try check(.read, path)
        return try base.read(path, limit: limit)
    }

    public func write(_ data: Data, to path: String) throws(SyncError) {
        try check(.write, path)
        try base.write(data, to: path)
    }

    public func create(_ data: Data, at path: String) throws(SyncError) -> Bool {
        try check(.write, path)
        return try base.create(data, at: path)
    }

    @discardableResult
    public func makeFolder(_ path: String) throws(SyncError) -> Bool {
        try check(.write, path)
        return try base.makeFolder(path)
    }

    public func remove(_ path: String) throws(SyncError) {
        try check(.write, path)
        try base.remove(path)
    }
}
