import Foundation

/// Reading folders and files with the system's calls, for imports of many small files:
/// `readdir(3)` says what each entry is without a `stat(2)` per file, and a file is read
/// whole in one buffer of its size.
enum RawFiles {
    enum Kind {
        case folder
        case file
        /// Anything else: a symbolic link, a device, a socket.
        case other
    }

    /// The entries of the folder at `path`, but `.` and `..`, sorted by name, each with what
    /// it is (a symbolic link is not followed).
    static func entries(of path: String) throws(InterchangeError) -> [(name: String, kind: Kind)] {
        guard let folder = opendir(path) else {
            throw InterchangeError.io(path: path, reason: String(cString: strerror(errno)))
        }
        defer { closedir(folder) }
        var result: [(name: String, kind: Kind)] = []
        while true {
            // readdir(3) says an error only through errno: a folder read in part is an error.
            errno = 0
            guard let entry = readdir(folder) else {
                if errno != 0 { throw InterchangeError.io(path: path, reason: String(cString: strerror(errno))) }
                break
            }
            let name = withUnsafeBytes(of: entry.pointee.d_name) { bytes in
                String(decoding: bytes.prefix { $0 != 0 }, as: UTF8.self)
            }
            if name == "." || name == ".." { continue }
            let kind: Kind
            switch Int32(entry.pointee.d_type) {
            case Int32(DT_DIR): kind = .folder
            case Int32(DT_REG): kind = .file
            case Int32(DT_UNKNOWN): kind = lstatKind(path + "/" + name)
            default: kind = .other
            }
            result.append((name, kind))
        }
        return result.sorted { $0.name < $1.name }
    }

    /// What is at `path`, by lstat(2); `.other` when it cannot be told.
    private static func lstatKind(_ path: String) -> Kind {
        var info = stat()
        guard lstat(path, &info) == 0 else { return .other }
        switch info.st_mode & S_IFMT {
        case S_IFDIR: return .folder
        case S_IFREG: return .file
        default: return .other
        }
    }

    /// The bytes of the file at `path`, or nil with the reason when it cannot be read.
    static func contents(of path: String) -> Result<[UInt8], InterchangeError> {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { return .failure(.io(path: path, reason: String(cString: strerror(errno)))) }
        defer { close(descriptor) }
        var info = stat()
        guard fstat(descriptor, &info) == 0 else { return .failure(.io(path: path, reason: String(cString: strerror(errno)))) }
        var bytes = [UInt8](repeating: 0, count: max(Int(info.st_size), 0) + 1)
        var count = 0
        while true {
            if count == bytes.count { bytes.append(contentsOf: repeatElement(0, count: max(bytes.count, 4096))) }
            let read = bytes.withUnsafeMutableBytes { Glibc.read(descriptor, $0.baseAddress! + count, $0.count - count) }
            if read < 0 {
                if errno == EINTR { continue }
                return .failure(.io(path: path, reason: String(cString: strerror(errno))))
            }
            if read == 0 { break }
            count += read
        }
        bytes.removeSubrange(count...)
        return .success(bytes)
    }
}
