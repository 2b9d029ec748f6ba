import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// The container key as a device keeps it: the file `container.key` in the store folder, mode
/// 0600, holding `{"container":"<uuid>","key":"<base64>"}`. Written when a passphrase first
/// unwraps the key, so that syncs never ask again; removed by `notes sync forget-key`.
public enum StoredKey {
    public static let fileName = "container.key"

    private struct Contents: Codable {
        var container: String
        var key: String
    }

    /// The key kept in `folder` for `container`, or nil when none is kept for it.
    public static func read(in folder: URL, container: UUID) -> ContainerKey? {
        guard let data = try? Data(contentsOf: file(in: folder)),
            let contents = try? JSONDecoder().decode(Contents.self, from: data),
            CloudName.uuid(contents.container) == container,
            let bytes = Data(base64Encoded: contents.key)
        else { return nil }
        return ContainerKey(bytes: bytes)
    }

    /// Keeps `key` for `container` in `folder`, replacing what was kept (written to a
    /// temporary file of mode 0600, synced, then renamed into place).
    public static func write(_ key: ContainerKey, container: UUID, in folder: URL) throws(SyncError) {
        let contents = Contents(container: container.storeString, key: key.bytes.base64EncodedString())
        let data = CloudJSON.encode(contents)
        let target = file(in: folder)
        let temporary = folder.appendingPathComponent(".\(fileName)-\(UUID().storeString.prefix(8))")
        try LocalFile.create(temporary) { fd in LocalFile.writeAll(data, to: fd) }
        guard rename(temporary.path, target.path) == 0 else {
            let code = errno
            unlink(temporary.path)
            throw .io(path: target.path, reason: LocalFile.errnoText(code))
        }
    }

    /// Removes the key kept in `folder`; returns whether there was one.
    @discardableResult
    public static func remove(in folder: URL) throws(SyncError) -> Bool {
        let path = file(in: folder).path
        if unlink(path) == 0 { return true }
        if errno == ENOENT { return false }
        throw .io(path: path, reason: LocalFile.errnoText(errno))
    }

    static func file(in folder: URL) -> URL {
        folder.appendingPathComponent(fileName)
    }
}
