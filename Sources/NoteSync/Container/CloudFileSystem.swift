import Foundation

/// The single boundary between sync and the shared cloud folder.
///
/// Everything `NoteSync` reads from or writes to the cloud goes through this protocol, as in
/// Ensembles' `CDECloudFileSystem`, so that tests can put a fault-injecting file system in place
/// of the real one (`LocalCloudFileSystem`) and check that an I/O error is never taken for the
/// absence of a file.
///
/// Paths are relative to `root` (the cloud folder), with components separated by `/`: the
/// empty path is the root itself, and no component is empty, `.` or `..`. Implementations never
/// follow a symbolic link below the root, and report every failure as a ``SyncError``: a path
/// that does not exist is ``SyncError/missing(path:)``, any other failure
/// ``SyncError/io(path:reason:)`` with the path and the system's text for the error.
public protocol CloudFileSystem: Sendable {
    /// The cloud folder that paths are relative to.
    var root: URL { get }

    /// The entries of a folder, without `.` and `..`, in no particular order.
    func list(_ folder: String) throws(SyncError) -> [CloudEntry]

    /// What is at `path`, without following a link there.
    func entry(at path: String) throws(SyncError) -> CloudEntry

    /// The bytes of a regular file, refused with ``SyncError/tooLarge(path:limit:)`` when it
    /// has more than `limit` bytes, before reading them.
    func read(_ path: String, limit: Int) throws(SyncError) -> Data

    /// Writes a file atomically: readers see either the former file or the whole new one.
    func write(_ data: Data, to path: String) throws(SyncError)

    /// Writes a file atomically unless a file of that name exists; returns whether it wrote.
    ///
    /// Of several writers creating one name at once, exactly one gets `true`.
    func create(_ data: Data, at path: String) throws(SyncError) -> Bool

    /// Makes a folder unless one exists; returns whether it made it. The parent must exist.
    @discardableResult
    func makeFolder(_ path: String) throws(SyncError) -> Bool

    /// Removes a file (or a link, never what it points to).
    func remove(_ path: String) throws(SyncError)
}

extension CloudFileSystem {
    /// The absolute path of `path`, as errors and reports show it.
    public func absolutePath(of path: String) -> String {
        path.isEmpty ? root.path : root.appendingPathComponent(path).path
    }
}
