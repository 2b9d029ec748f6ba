import CFileSystem
import Foundation
import NoteFiles

#if canImport(Glibc)
    import Glibc
#endif

/// The file descriptor work behind `LocalCloudFileSystem`: walking paths without following
/// links, reading and writing whole files, and turning `errno` into errors.
extension LocalCloudFileSystem {
    static let linkNotFollowed = "it is a symbolic link, which is never followed"
    static let temporaryPrefix = ".tmp-"

    /// A new temporary name: `.tmp-<writer>-<random>`, or `.tmp-<random>` without a writer
    /// (docs/sync-format.md, "Write protocol"), the random part 1 to 16 lowercase hex digits.
    static func temporaryName(writer: UUID?) -> String {
        let random = String(UInt64.random(in: 1...UInt64.max), radix: 16)
        return temporaryPrefix + (writer.map { $0.uuidString.lowercased() + "-" } ?? "") + random
    }

    /// The components of a relative path, refused unless each is a plain name.
    func components(of path: String) throws(SyncError) -> [String] {
        if path.isEmpty { return [] }
        let parts = path.split(separator: "/", omittingEmptySubsequences: false).map(String.init)
        for part in parts where part.isEmpty || part == "." || part == ".." || part.contains("\0") {
            throw .invalidName(path, reason: "not a path below the cloud folder")
        }
        return parts
    }

    /// Opens the folder at `components` below the root, one component at a time, never
    /// following a link. The caller closes the descriptor.
    func openFolder(at components: ArraySlice<String>, path: String) throws(SyncError) -> Int32 {
        var fd = open(root.path, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard fd >= 0 else { throw error(errno, at: "") }
        var walked: [String] = []
        for component in components {
            walked.append(component)
            let next = openat(fd, component, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC)
            if next < 0 {
                let failure = error(errno, at: walked.joined(separator: "/"), in: fd, name: component)
                close(fd)
                throw failure
            }
            close(fd)
            fd = next
        }
        return fd
    }

    /// Runs `body` with a descriptor on the folder that holds `path` and the last component.
    func inParent<Result>(
        of path: String, _ body: (Int32, String) throws(SyncError) -> Result
    ) throws(SyncError) -> Result {
        var parts = try components(of: path)
        guard let name = parts.popLast() else { throw .invalidName(path, reason: "the cloud folder itself") }
        let folder = try openFolder(at: parts[...], path: path)
        defer { close(folder) }
        return try body(folder, name)
    }

    /// The entry of one `readdir` record, or nil for `.`, `..` and a name gone since.
    func describe(
        _ record: UnsafeMutablePointer<dirent>, in folder: Int32, folder path: String
    ) throws(SyncError) -> CloudEntry? {
        // The raw bytes of the name go to fstatat, so that a name that is not valid UTF-8 is
        // still looked up as itself; its String form only has to fail the name patterns.
        let result: Result<CloudEntry?, SyncError> = withUnsafePointer(to: &record.pointee.d_name) { tuple in
            tuple.withMemoryRebound(to: CChar.self, capacity: Int(NAME_MAX) + 1) { raw in
                let name = String(cString: raw)
                if name == "." || name == ".." { return .success(nil) }
                var info = stat()
                guard fstatat(folder, raw, &info, AT_SYMLINK_NOFOLLOW) == 0 else {
                    if errno == ENOENT { return .success(nil) }
                    return .failure(error(errno, at: path.isEmpty ? name : path + "/" + name))
                }
                return .success(Self.entry(name, info))
            }
        }
        return try result.get()
    }

    /// The entry of `name` as `info`, from `lstat(2)`, describes it.
    static func entry(_ name: String, _ info: stat) -> CloudEntry {
        let modified = Date(timeIntervalSince1970: Double(info.st_mtim.tv_sec) + Double(info.st_mtim.tv_nsec) / 1e9)
        return CloudEntry(
            name: name, kind: kind(of: info), size: Int64(info.st_size), modified: modified, inode: UInt64(info.st_ino))
    }

    static func kind(of info: stat) -> CloudEntry.Kind {
        switch info.st_mode & S_IFMT {
        case S_IFREG: return .file
        case S_IFDIR: return .folder
        case S_IFLNK: return .symbolicLink
        default: return .other
        }
    }

    func requireRegularFile(_ info: stat, at path: String) throws(SyncError) {
        switch Self.kind(of: info) {
        case .file: return
        case .symbolicLink: throw .io(path: absolutePath(of: path), reason: Self.linkNotFollowed)
        default: throw .io(path: absolutePath(of: path), reason: "it is not a regular file")
        }
    }

    /// Runs `body` with a descriptor on the regular file at `path` and its size, refused when
    /// it is not a regular file (checked before opening, since opening a device or a FIFO can
    /// block or act, and again on the descriptor) or has more than `limit` bytes.
    func withRegularFile<Result>(
        _ path: String, limit: Int, _ body: (Int32, Int) throws(SyncError) -> Result
    ) throws(SyncError) -> Result {
        try inParent(of: path) { folder, name throws(SyncError) in
            var info = stat()
            guard fstatat(folder, name, &info, AT_SYMLINK_NOFOLLOW) == 0 else { throw error(errno, at: path) }
            try requireRegularFile(info, at: path)
            let fd = openat(folder, name, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC)
            guard fd >= 0 else { throw error(errno, at: path, in: folder, name: name) }
            defer { close(fd) }
            guard fstat(fd, &info) == 0 else { throw error(errno, at: path) }
            try requireRegularFile(info, at: path)
            guard info.st_size <= limit else { throw .tooLarge(path: absolutePath(of: path), limit: limit) }
            return try body(fd, Int(info.st_size))
        }
    }

    /// Reads to the end of the file, refusing it as soon as it has more than `limit` bytes (it
    /// may have grown since its size was checked).
    func readAll(_ fd: Int32, expected: Int, limit: Int, path: String) throws(SyncError) -> Data {
        var data = Data()
        data.reserveCapacity(expected)
        var chunk = [UInt8](repeating: 0, count: min(max(expected + 1, 4096), 1 << 20))
        while true {
            let count = chunk.withUnsafeMutableBytes { Glibc.read(fd, $0.baseAddress, $0.count) }
            if count < 0 {
                if errno == EINTR { continue }
                throw error(errno, at: path)
            }
            if count == 0 { return data }
            chunk.withUnsafeBytes { data.append(contentsOf: $0.prefix(count)) }
            if data.count > limit { throw .tooLarge(path: absolutePath(of: path), limit: limit) }
        }
    }

    /// Writes `data` to a new temporary file in `folder` with the cloud file mode, synced to
    /// disk; returns its name. Nothing is left behind on failure.
    func writeTemporary(_ data: Data, in folder: Int32, for path: String) throws(SyncError) -> String {
        let name = Self.temporaryName(writer: writer)
        let fd = openat(folder, name, O_CREAT | O_EXCL | O_WRONLY | O_NOFOLLOW | O_CLOEXEC, fileMode)
        guard fd >= 0 else { throw error(errno, at: path) }
        var code: Int32 = fchmod(fd, fileMode) == 0 ? 0 : errno
        if code == 0 { code = LocalFile.writeAll(data, to: fd) }
        if code == 0 && fsync(fd) != 0 { code = errno }
        if close(fd) != 0 && code == 0 { code = errno }
        guard code == 0 else {
            unlinkat(folder, name, 0)
            throw error(code, at: path)
        }
        return name
    }

    /// Writes `data` into a new file without a name in `folder` (`O_TMPFILE`), syncs it and
    /// links it to `name`, then syncs the folder: the write protocol's exclusive creation with
    /// no temporary name, which neither leaves a file behind when the process dies nor shows
    /// a watcher of the folder a name before the published one. Returns false when `name`
    /// exists, nil when the file system makes no unnamed files (or `/proc` is missing), for the
    /// caller to write a named temporary file instead.
    func createUnnamed(in folder: Int32, name: String, for path: String, writing: (Int32) -> Int32) throws(SyncError)
        -> Bool?
    {
        guard writesUnnamedFiles, Self.canLinkUnnamedFiles else { return nil }
        let fd = notes_open_unnamed(folder, fileMode)
        guard fd >= 0 else { return nil }
        var code: Int32 = fchmod(fd, fileMode) == 0 ? 0 : errno
        if code == 0 { code = writing(fd) }
        if code == 0 && fsync(fd) != 0 { code = errno }
        if code == 0 && notes_link_unnamed(fd, folder, name) != 0 { code = errno }
        close(fd)
        switch code {
        case 0: break
        case EEXIST: return false
        case ENOENT: return nil
        default: throw error(code, at: path)
        }
        try syncFolder(folder, of: path)
        return true
    }

    /// Whether this process can give a file without a name its name: through `/proc/self/fd`,
    /// looked at once, so that a system without `/proc` does not write every file twice.
    static let canLinkUnnamedFiles = Glibc.access("/proc/self/fd", X_OK) == 0

    /// Makes a change of names in `folder` durable.
    func syncFolder(_ folder: Int32, of path: String) throws(SyncError) {
        guard fsync(folder) == 0 else { throw error(errno, at: path) }
    }

    /// The error for `code` at `path`; with the folder and name that failed to open, a link or
    /// a file where a folder was expected is said so.
    func error(_ code: Int32, at path: String, in folder: Int32? = nil, name: String? = nil) -> SyncError {
        let absolute = absolutePath(of: path)
        if code == ENOENT { return .missing(path: absolute) }
        if let folder, let name, code == ENOTDIR || code == ELOOP {
            var info = stat()
            if fstatat(folder, name, &info, AT_SYMLINK_NOFOLLOW) == 0 && Self.kind(of: info) == .symbolicLink {
                return .io(path: absolute, reason: Self.linkNotFollowed)
            }
        }
        return .io(path: absolute, reason: String(cString: strerror(code)).lowercased())
    }
}
