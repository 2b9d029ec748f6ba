import Foundation

/// Reading a file whole, for imports of many small files: one `read(2)` into a buffer of the
/// file's size.
enum RawFiles {
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
