import Foundation
import NoteFiles

#if canImport(Glibc)
    import Glibc
#endif

/// The cloud folder as a real folder on this machine, reached through POSIX calls.
///
/// Every path is opened one component at a time from the root with `openat(2)` and
/// `O_NOFOLLOW`, so a symbolic link anywhere below the root is never followed: whoever else
/// writes into the cloud folder cannot make this device read or write outside it. The root
/// itself may be a link (the user chose it).
///
/// Writes follow the rules of durable replacement (https://lwn.net/Articles/457667/): a
/// temporary file `.tmp-<writer>-<random>` in the same folder, written and `fsync`ed, renamed (or, for
/// an exclusive creation, hard-linked with `link(2)`, which fails when the name exists) to its
/// final name, then the folder is `fsync`ed. Readers ignore names starting with `.`. An
/// exclusive creation writes a file without a name (`O_TMPFILE`) instead, where the file
/// system allows it, and links that.
///
/// Modes: files are written 0600 and folders 0700, like the local store, whatever the umask;
/// 0640 and 0750 when the user asked for group access (``CloudAccess``).
public struct LocalCloudFileSystem: CloudFileSystem {
    public let root: URL
    /// Who may read what this file system writes.
    public let access: CloudAccess
    /// The device whose id temporary names carry, so that it can tell its own stale temporary
    /// files from those of writes in progress elsewhere.
    public let writer: UUID?
    /// Whether an exclusive creation writes a file without a name (`O_TMPFILE`) where the file
    /// system allows it; tests turn it off to reach the named temporary file of the others.
    var writesUnnamedFiles = true

    var fileMode: mode_t { access.fileMode }
    var folderMode: mode_t { access.folderMode }

    /// A file system on the cloud folder `root`, which is not created: a cloud folder that is
    /// missing (an unmounted drive, say) must not be taken for an empty one.
    public init(root: URL, writer: UUID? = nil, access: CloudAccess = .private) {
        self.root = root.standardizedFileURL
        self.writer = writer
        self.access = access
    }

    public func list(_ folder: String) throws(SyncError) -> [CloudEntry] {
        let fd = try openFolder(at: try components(of: folder)[...], path: folder)
        guard let stream = fdopendir(fd) else {
            let failure = error(errno, at: folder)
            close(fd)
            throw failure
        }
        defer { closedir(stream) }
        var entries: [CloudEntry] = []
        while true {
            errno = 0
            guard let record = readdir(stream) else {
                if errno != 0 { throw error(errno, at: folder) }
                return entries
            }
            if let entry = try describe(record, in: fd, folder: folder) { entries.append(entry) }
        }
    }

    public func entry(at path: String) throws(SyncError) -> CloudEntry {
        try inParent(of: path) { folder, name throws(SyncError) in
            var info = stat()
            guard fstatat(folder, name, &info, AT_SYMLINK_NOFOLLOW) == 0 else { throw error(errno, at: path) }
            return Self.entry(name, info)
        }
    }

    public func read(_ path: String, limit: Int) throws(SyncError) -> Data {
        try withRegularFile(path, limit: limit) { fd, size throws(SyncError) in
            try readAll(fd, expected: size, limit: limit, path: path)
        }
    }

    public func copyOut(_ path: String, to destination: URL, limit: Int) throws(SyncError) -> Int64 {
        try withRegularFile(path, limit: limit) { fd, _ throws(SyncError) in
            var copied: Int64 = 0
            do throws(FileError) {
                try LocalFile.create(destination, durability: .unsynced) { out in
                    let code = LocalFile.copy(from: fd, to: out, count: limit)
                    if code == 0 { copied = Int64(lseek(out, 0, SEEK_CUR)) }
                    return code
                }
            } catch {
                throw SyncError(error)
            }
            return copied
        }
    }

    public func createCopy(of source: URL, at path: String) throws(SyncError) -> Bool {
        let input = open(source.path, O_RDONLY | O_CLOEXEC)
        guard input >= 0 else { throw .io(path: source.path, reason: LocalFile.errnoText(errno)) }
        defer { close(input) }
        return try inParent(of: path) { folder, name throws(SyncError) in
            if let created = try createUnnamed(
                in: folder, name: name, for: path,
                writing: { LocalFile.copy(from: input, to: $0, count: Int.max - 1) })
            {
                return created
            }
            // The unnamed file may have read some of the source before it was given up.
            guard lseek(input, 0, SEEK_SET) == 0 else { throw error(errno, at: path) }
            let temporary = Self.temporaryName(writer: writer)
            let fd = openat(folder, temporary, O_CREAT | O_EXCL | O_WRONLY | O_NOFOLLOW | O_CLOEXEC, fileMode)
            guard fd >= 0 else { throw error(errno, at: path) }
            var code: Int32 = fchmod(fd, fileMode) == 0 ? 0 : errno
            if code == 0 { code = LocalFile.copy(from: input, to: fd, count: Int.max - 1) }
            if code == 0 && fsync(fd) != 0 { code = errno }
            if close(fd) != 0 && code == 0 { code = errno }
            guard code == 0 else {
                unlinkat(folder, temporary, 0)
                throw error(code, at: path)
            }
            let linked = linkat(folder, temporary, folder, name, 0) == 0
            let linkCode = errno
            unlinkat(folder, temporary, 0)
            if !linked && linkCode == EEXIST { return false }
            guard linked else { throw error(linkCode, at: path) }
            try syncFolder(folder, of: path)
            return true
        }
    }

    public func write(_ data: Data, to path: String) throws(SyncError) {
        try inParent(of: path) { folder, name throws(SyncError) in
            let temporary = try writeTemporary(data, in: folder, for: path)
            guard renameat(folder, temporary, folder, name) == 0 else {
                let failure = error(errno, at: path)
                unlinkat(folder, temporary, 0)
                throw failure
            }
            try syncFolder(folder, of: path)
        }
    }

    public func create(_ data: Data, at path: String) throws(SyncError) -> Bool {
        try inParent(of: path) { folder, name throws(SyncError) in
            if let created = try createUnnamed(
                in: folder, name: name, for: path, writing: { LocalFile.writeAll(data, to: $0) })
            {
                return created
            }
            let temporary = try writeTemporary(data, in: folder, for: path)
            let linked = linkat(folder, temporary, folder, name, 0) == 0
            let code = errno
            unlinkat(folder, temporary, 0)
            if !linked && code == EEXIST { return false }
            guard linked else { throw error(code, at: path) }
            try syncFolder(folder, of: path)
            return true
        }
    }

    @discardableResult
    public func makeFolder(_ path: String) throws(SyncError) -> Bool {
        try inParent(of: path) { folder, name throws(SyncError) in
            if mkdirat(folder, name, folderMode) != 0 {
                guard errno == EEXIST else { throw error(errno, at: path) }
                var info = stat()
                guard fstatat(folder, name, &info, AT_SYMLINK_NOFOLLOW) == 0 else { throw error(errno, at: path) }
                switch Self.kind(of: info) {
                case .folder: return false
                case .symbolicLink: throw .io(path: absolutePath(of: path), reason: Self.linkNotFollowed)
                default: throw .io(path: absolutePath(of: path), reason: "it exists and is not a folder")
                }
            }
            // mkdir applies the umask: set the mode the container promises.
            let created = openat(folder, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC)
            guard created >= 0 else { throw error(errno, at: path) }
            let changed = fchmod(created, folderMode) == 0
            let code = errno
            close(created)
            guard changed else { throw error(code, at: path) }
            try syncFolder(folder, of: path)
            return true
        }
    }

    public func remove(_ path: String) throws(SyncError) {
        try inParent(of: path) { folder, name throws(SyncError) in
            guard unlinkat(folder, name, 0) == 0 else { throw error(errno, at: path) }
            try syncFolder(folder, of: path)
        }
    }
}
