import CFileSystem
import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// New files of this machine, written whole (sync's copies outside the cloud folder: a baseline
/// copied into the store folder, a key kept for a container), and the copying of bytes between
/// descriptors.
public enum LocalFile {
    /// How far ``create(_:durability:writing:)`` takes a new file towards the disk.
    public enum Durability: Sendable {
        /// Synced (fsync(2)) before it returns.
        case synced
        /// Not synced: a copy that is only read and removed is never waited for, and whoever
        /// keeps a file syncs it (a baseline made a new device's store).
        case unsynced
    }

    /// Creates `file` exclusively with mode 0600, lets `write` fill it (returning 0 or an
    /// errno), and syncs it to disk unless told otherwise (`durability`); nothing is left
    /// behind on failure, which throws the path and the ``errnoText(_:)`` of the errno.
    public static func create(
        _ file: URL, durability: Durability = .synced, writing write: (Int32) -> Int32
    ) throws(FileError) {
        let fd = open(file.path, O_CREAT | O_EXCL | O_WRONLY | O_NOFOLLOW | O_CLOEXEC, 0o600)
        guard fd >= 0 else { throw FileError(path: file.path, reason: errnoText(errno)) }
        var code = write(fd)
        if durability == .synced && code == 0 && fsync(fd) != 0 { code = errno }
        if close(fd) != 0 && code == 0 { code = errno }
        guard code == 0 else {
            unlink(file.path)
            throw FileError(path: file.path, reason: errnoText(code))
        }
    }

    /// Writes every byte, going on after short writes and interruptions; returns 0 or errno.
    public static func writeAll(_ data: Data, to fd: Int32) -> Int32 {
        data.withUnsafeBytes { buffer -> Int32 in
            var offset = 0
            while offset < buffer.count {
                let written = Glibc.write(fd, buffer.baseAddress! + offset, buffer.count - offset)
                if written < 0 {
                    if errno == EINTR { continue }
                    return errno
                }
                offset += written
            }
            return 0
        }
    }

    /// Copies `count` bytes from the start of `source` to `destination`, in the kernel where it
    /// can (`copy_file_range(2)`), else through a buffer; returns 0, `EFBIG` when the source
    /// has more than `count` bytes, or errno.
    public static func copy(from source: Int32, to destination: Int32, count: Int) -> Int32 {
        var copied = 0
        var inKernel = true
        var buffer = [UInt8](repeating: 0, count: 1 << 20)
        while true {
            let step: Int
            if inKernel {
                step = notes_copy_file_range(source, destination, min(max(count - copied, 0) + 1, 1 << 30))
                if step < 0, [EXDEV, ENOSYS, EINVAL, EOPNOTSUPP].contains(errno) {
                    inKernel = false
                    continue
                }
            } else {
                step = buffer.withUnsafeMutableBytes { Glibc.read(source, $0.baseAddress, $0.count) }
                if step > 0 {
                    let code = buffer.withUnsafeBytes { writeAll(Data($0.prefix(step)), to: destination) }
                    if code != 0 { return code }
                }
            }
            if step < 0 {
                if errno == EINTR { continue }
                return errno
            }
            if step == 0 { return 0 }
            copied += step
            if copied > count { return EFBIG }
        }
    }

    /// The system's text of an errno (strerror(3)), in lowercase.
    public static func errnoText(_ code: Int32) -> String {
        String(cString: strerror(code)).lowercased()
    }
}
