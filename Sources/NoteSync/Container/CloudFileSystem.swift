import Foundation
import NoteFiles

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

    /// Copies a regular file out of the cloud folder into a new local file, not yet synced; see the
    /// default implementation.
    func copyOut(_ path: String, to destination: URL, limit: Int) throws(SyncError) -> Int64

    /// Publishes a copy of a local file, unless a file of that name exists; see the default
    /// implementation.
    func createCopy(of source: URL, at path: String) throws(SyncError) -> Bool
}

extension CloudFileSystem {
    /// The absolute path of `path`, as errors and reports show it.
    public func absolutePath(of path: String) -> String {
        path.isEmpty ? root.path : root.appendingPathComponent(path).path
    }
}

extension CloudFileSystem {
    /// Copies the regular file at `path` into the local file `destination`, which is created
    /// (mode 0600, never replacing a file), not synced: whoever keeps it syncs it; refuses a file
    /// of more than `limit` bytes. Returns the bytes copied. This default reads the file whole into
    /// memory.
    public func copyOut(_ path: String, to destination: URL, limit: Int) throws(SyncError) -> Int64 {
        let data = try read(path, limit: limit)
        do throws(FileError) {
            try LocalFile.create(
                destination, durability: .unsynced, writing: { fd in LocalFile.writeAll(data, to: fd) })
        } catch {
            throw SyncError(error)
        }
        return Int64(data.count)
    }

    /// Publishes a copy of the local file `source` at `path`, as ``create(_:at:)`` publishes
    /// bytes, unless a file of that name exists; returns whether it wrote. This default reads
    /// the file whole into memory.
    public func createCopy(of source: URL, at path: String) throws(SyncError) -> Bool {
        let data: Data
        do {
            data = try Data(contentsOf: source)
        } catch {
            throw .io(path: source.path, reason: "cannot read it: \(error.localizedDescription)")
        }
        return try create(data, at: path)
    }
}
