#if canImport(Glibc)
    import Glibc
#endif

/// The entries of a folder, read with `readdir(3)`; links are not followed.
enum FolderListing {
    struct Entry {
        let name: String
        let isDirectory: Bool
    }

    /// The entries of the folder at `path` other than `.` and `..`; none if it cannot be read
    /// (it may be gone already).
    static func entries(of path: String) -> [Entry] {
        guard let folder = opendir(path) else { return [] }
        defer { closedir(folder) }
        var entries: [Entry] = []
        while let entry = readdir(folder) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { bytes in
                String(decoding: bytes.prefix { $0 != 0 }, as: UTF8.self)
            }
            guard name != ".", name != ".." else { continue }
            entries.append(Entry(name: name, isDirectory: isDirectory(entry.pointee.d_type, name, in: folder)))
        }
        return entries
    }

    private static func isDirectory(_ type: UInt8, _ name: String, in folder: OpaquePointer) -> Bool {
        if type != UInt8(DT_UNKNOWN) { return type == UInt8(DT_DIR) }
        // Some file systems do not fill in d_type: ask lstat, without following a link.
        var info = stat()
        guard fstatat(dirfd(folder), name, &info, AT_SYMLINK_NOFOLLOW) == 0 else { return false }
        return (info.st_mode & S_IFMT) == S_IFDIR
    }
}
