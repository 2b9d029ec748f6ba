import Foundation
import NoteFiles

#if canImport(Glibc)
    import Glibc
#endif

/// The container keys a device keeps: one file per container in the store folder,
/// `container-<uuid>.key`, mode 0600, holding `{"container":"<uuid>","key":"<base64>"}`.
/// Written when a device makes a container or a passphrase first unwraps its key, so that syncs
/// never ask again; removed by `notes sync forget-key`. A key of one container is never
/// replaced by another's, so a failed attempt to attach elsewhere loses no key.
public enum StoredKey {
    static let prefix = "container-"
    static let suffix = ".key"

    private struct Contents: Codable {
        var container: String
        var key: String
    }

    /// The name of the file of `container`'s key in a store folder.
    public static func fileName(for container: UUID) -> String {
        prefix + container.storeString + suffix
    }

    /// The key kept in `folder` for `container`, or nil when none is kept for it.
    public static func read(in folder: URL, container: UUID) -> ContainerKey? {
        guard let data = try? Data(contentsOf: folder.appendingPathComponent(fileName(for: container))),
            let contents = try? JSONDecoder().decode(Contents.self, from: data),
            CloudName.uuid(contents.container) == container,
            let bytes = Data(base64Encoded: contents.key)
        else { return nil }
        return ContainerKey(bytes: bytes)
    }

    /// Keeps `key` for `container` in `folder`: written to a temporary file of mode 0600,
    /// synced, renamed into place, and the folder synced, so that it is on disk before anything
    /// that needs it is published.
    public static func write(_ key: ContainerKey, container: UUID, in folder: URL) throws(SyncError) {
        let contents = Contents(container: container.storeString, key: key.bytes.base64EncodedString())
        let data = CloudJSON.encode(contents)
        let target = folder.appendingPathComponent(fileName(for: container))
        let temporary = folder.appendingPathComponent(".\(prefix)\(UUID().storeString.prefix(8))")
        do throws(FileError) {
            try LocalFile.create(temporary) { fd in LocalFile.writeAll(data, to: fd) }
        } catch {
            throw SyncError(error)
        }
        guard rename(temporary.path, target.path) == 0 else {
            let code = errno
            unlink(temporary.path)
            throw .io(path: target.path, reason: LocalFile.errnoText(code))
        }
        let directory = open(folder.path, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard directory >= 0 else { throw .io(path: folder.path, reason: LocalFile.errnoText(errno)) }
        defer { close(directory) }
        guard fsync(directory) == 0 else { throw .io(path: folder.path, reason: LocalFile.errnoText(errno)) }
    }

    /// Removes every key kept in `folder`, and what a write stopped half way left; returns
    /// whether a key was kept.
    @discardableResult
    public static func remove(in folder: URL) throws(SyncError) -> Bool {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []
        var removed = false
        for name in names where (name.hasPrefix(prefix) && name.hasSuffix(suffix)) || name.hasPrefix("." + prefix) {
            let path = folder.appendingPathComponent(name).path
            guard unlink(path) == 0 || errno == ENOENT else {
                throw .io(path: path, reason: LocalFile.errnoText(errno))
            }
            if !name.hasPrefix(".") { removed = true }
        }
        return removed
    }
}
