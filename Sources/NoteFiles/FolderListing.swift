import Foundation

/// The entries of a folder, read with `readdir(3)`, which says what each entry is without a
/// `stat(2)` per entry; links are not followed. For walking trees of many files: an import's
/// folders, the folders a watcher arms.
public enum FolderListing {
    public enum Kind: Sendable {
        case folder
        case file
        /// Anything else: a symbolic link, a device, a socket.
        case other
    }

    public struct Entry: Sendable {
        public let name: String
        public let kind: Kind
    }

    /// The entries of the folder at `path` other than `.` and `..`, in the order the system
    /// gives them. A folder that cannot be opened, or whose reading fails part way, throws
    /// with the system's reason.
    public static func entries(of path: String) throws(FileError) -> [Entry] {
        guard let folder = opendir(path) else { throw FileError(path: path, reason: String(cString: strerror(errno))) }
        defer { closedir(folder) }
        var entries: [Entry] = []
        while true {
            // readdir(3) says an error only through errno: a folder read in part is an error.
            errno = 0
            guard let entry = readdir(folder) else {
                if errno != 0 { throw FileError(path: path, reason: String(cString: strerror(errno))) }
                return entries
            }
            // The name is read in place: the record readdir(3) gives is only as long as its
            // name, so a copy of the whole `d_name` field (256 bytes) could read past the
            // end of the system's buffer, into memory that is not mapped.
            let name = String(
                cString: UnsafeRawPointer(entry).advanced(by: nameOffset).assumingMemoryBound(to: CChar.self))
            guard name != ".", name != ".." else { continue }
            entries.append(Entry(name: name, kind: kind(entry.pointee.d_type, name, in: folder)))
        }
    }

    /// Where the name is in a `dirent`.
    private static let nameOffset = MemoryLayout<dirent>.offset(of: \dirent.d_name)!

    private static func kind(_ type: UInt8, _ name: String, in folder: OpaquePointer) -> Kind {
        switch Int32(type) {
        case Int32(DT_DIR): return .folder
        case Int32(DT_REG): return .file
        case Int32(DT_UNKNOWN):
            // Some file systems do not fill in d_type: ask lstat, without following a link.
            var info = stat()
            guard fstatat(dirfd(folder), name, &info, AT_SYMLINK_NOFOLLOW) == 0 else { return .other }
            switch info.st_mode & S_IFMT {
            case S_IFDIR: return .folder
            case S_IFREG: return .file
            default: return .other
            }
        default: return .other
        }
    }
}
