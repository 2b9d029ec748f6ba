import Foundation
import NoteStore

/// A folder an export writes into, held open: every file and folder in it is made and opened
/// relative to it (openat(2), mkdirat(2)) without following a symbolic link, so that a link
/// left in the folder (or put there while the export runs) cannot lead a write outside it. A
/// link met where the export writes is refused, naming it.
final class ExportDirectory: Sendable {
    /// The folder's path, for messages.
    let url: URL
    private let descriptor: Int32

    private init(url: URL, descriptor: Int32) {
        self.url = url
        self.descriptor = descriptor
    }

    deinit {
        close(descriptor)
    }

    /// The folder an export writes into: made when absent; refused when it holds anything and
    /// `force` is not given. The path the person gave is taken as it is, links and all.
    static func prepare(_ folder: URL, force: Bool) throws -> ExportDirectory {
        let manager = FileManager.default
        var isFolder: ObjCBool = false
        if manager.fileExists(atPath: folder.path, isDirectory: &isFolder) {
            guard isFolder.boolValue else { throw InterchangeError.io(path: folder.path, reason: "it is not a folder") }
            let contents = try Result { try manager.contentsOfDirectory(atPath: folder.path) }.mapError {
                InterchangeError.io(folder, $0)
            }.get()
            if !contents.isEmpty && !force { throw InterchangeError.notEmpty(path: folder.path) }
        } else {
            do {
                try manager.createDirectory(at: folder, withIntermediateDirectories: true)
            } catch {
                throw InterchangeError.io(folder, error)
            }
        }
        let descriptor = open(folder.path, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard descriptor >= 0 else {
            throw InterchangeError.io(path: folder.path, reason: String(cString: strerror(errno)))
        }
        return ExportDirectory(url: folder, descriptor: descriptor)
    }

    /// The folder `name` inside this one, made when absent.
    func folder(_ name: String) throws -> ExportDirectory {
        let path = url.appendingPathComponent(name, isDirectory: true)
        if mkdirat(descriptor, name, 0o755) != 0, errno != EEXIST { throw failure(path, errno) }
        let inner = openat(descriptor, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC)
        guard inner >= 0 else { throw failure(path, errno) }
        return ExportDirectory(url: path, descriptor: inner)
    }

    /// Opens the file `name` in this folder for writing, empty.
    func create(_ name: String) throws -> FileHandle {
        FileHandle(fileDescriptor: try openFile(name), closeOnDealloc: true)
    }

    /// Writes a file, without waiting for the disk: an export can be made again, and waiting
    /// for each of 100,000 files would take minutes.
    func write(_ data: Data, to name: String) throws {
        let file = try openFile(name)
        defer { close(file) }
        var failure: Int32 = 0
        data.withUnsafeBytes { buffer in
            var offset = 0
            while offset < buffer.count {
                let written = Foundation.write(file, buffer.baseAddress! + offset, buffer.count - offset)
                if written < 0 {
                    if errno == EINTR { continue }
                    failure = errno
                    return
                }
                offset += written
            }
        }
        if failure != 0 {
            throw InterchangeError.io(
                path: url.appendingPathComponent(name).path, reason: String(cString: strerror(failure)))
        }
    }

    /// Writes an attachment's bytes to the file `name`, a chunk at a time (a file attachment may
    /// be larger than memory), checked against their hash; without waiting for the disk.
    func write(_ attachment: Attachment, of store: Store, to name: String) throws {
        let file = try openFile(name)
        defer { close(file) }
        try store.writeBytes(of: attachment, to: file, path: url.appendingPathComponent(name).path)
    }

    /// The file `name` in this folder, open for writing and empty: made when absent; a file of
    /// that name with other names elsewhere (a hard link) is replaced, not written through.
    private func openFile(_ name: String) throws -> Int32 {
        // Most files are new: made in one call, without looking first.
        let flags = O_WRONLY | O_CREAT | O_NOFOLLOW | O_CLOEXEC
        let made = openat(descriptor, name, flags | O_EXCL, 0o644)
        if made >= 0 { return made }
        // The path is made only for a message: making it for every file cost a tenth of an export.
        guard errno == EEXIST else { throw failure(url.appendingPathComponent(name), errno) }
        var info = stat()
        if fstatat(descriptor, name, &info, AT_SYMLINK_NOFOLLOW) == 0, info.st_mode & S_IFMT == S_IFREG,
            info.st_nlink > 1
        {
            guard unlinkat(descriptor, name, 0) == 0 else { throw failure(url.appendingPathComponent(name), errno) }
        }
        let file = openat(descriptor, name, flags | O_TRUNC, 0o644)
        guard file >= 0 else { throw failure(url.appendingPathComponent(name), errno) }
        return file
    }

    /// The error for a call on `path` that failed with `code`: a symbolic link where the export
    /// writes, named as such (`O_NOFOLLOW` fails with `ELOOP` on one, `O_DIRECTORY` with
    /// `ENOTDIR`), else the system's reason.
    private func failure(_ path: URL, _ code: Int32) -> InterchangeError {
        var info = stat()
        if code == ELOOP || code == ENOTDIR || code == EEXIST,
            fstatat(descriptor, path.lastPathComponent, &info, AT_SYMLINK_NOFOLLOW) == 0,
            info.st_mode & S_IFMT == S_IFLNK
        {
            return .symbolicLink(path: path.path)
        }
        return .io(path: path.path, reason: String(cString: strerror(code)))
    }
}
