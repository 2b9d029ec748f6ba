import Foundation

/// Reading a file whole, for imports of many small files: one `read(2)` into a buffer of the
/// file's size.
public enum RawFiles {
    /// What reading a file gave.
    public enum Read {
        case bytes([UInt8])
        /// The file holds more than the limit: it was not read (or not past the limit).
        case tooLarge
        case failed(FileError)
    }

    /// The bytes of the file at `path`, at most `limit` of them: a larger file is not read
    /// (nor one that grows past the limit while it is read).
    public static func contents(of path: String, limit: Int) -> Read {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { return .failed(FileError(path: path, reason: String(cString: strerror(errno)))) }
        defer { close(descriptor) }
        var info = stat()
        guard fstat(descriptor, &info) == 0 else {
            return .failed(FileError(path: path, reason: String(cString: strerror(errno))))
        }
        guard Int(info.st_size) <= limit else { return .tooLarge }
        var bytes = [UInt8](repeating: 0, count: max(Int(info.st_size), 0) + 1)
        var count = 0
        while true {
            if count > limit { return .tooLarge }
            // Room for one byte past the limit at most: enough to know the file is over it.
            if count == bytes.count {
                bytes.append(contentsOf: repeatElement(0, count: min(max(bytes.count, 4096), limit + 1 - bytes.count)))
            }
            let read = bytes.withUnsafeMutableBytes {
                Glibc.read(descriptor, $0.baseAddress! + count, $0.count - count)
            }
            if read < 0 {
                if errno == EINTR { continue }
                return .failed(FileError(path: path, reason: String(cString: strerror(errno))))
            }
            if read == 0 { break }
            count += read
        }
        bytes.removeSubrange(count...)
        return .bytes(bytes)
    }
}
