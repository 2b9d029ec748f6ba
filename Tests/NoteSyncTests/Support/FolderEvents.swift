import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// The names that inotify(7) reports in a folder for the events of one mask, in order: what a
/// test sees of what happened to the folder's files, whoever did it.
final class FolderEvents {
    private let descriptor: Int32

    init(folder: String, mask: Int32) throws {
        descriptor = inotify_init1(Int32(IN_NONBLOCK | IN_CLOEXEC))
        guard descriptor >= 0, inotify_add_watch(descriptor, folder, UInt32(mask)) >= 0 else {
            throw CocoaError(.fileReadUnknown)
        }
    }

    deinit { close(descriptor) }

    /// The names of the events since the last call (the kernel queues each event before the
    /// call that caused it returns, so none is in flight).
    func names() throws -> [String] {
        var names: [String] = []
        var buffer = [UInt8](repeating: 0, count: 65536)
        while true {
            let count = buffer.withUnsafeMutableBytes { Glibc.read(descriptor, $0.baseAddress, $0.count) }
            if count < 0 {
                if errno == EINTR { continue }
                if errno == EAGAIN { return names }
                throw CocoaError(.fileReadUnknown)
            }
            var offset = 0
            while offset + 16 <= count {
                let length = Int(buffer[offset + 12]) | Int(buffer[offset + 13]) << 8 | Int(buffer[offset + 14]) << 16
                let bytes = buffer[(offset + 16)..<(offset + 16 + length)].prefix { $0 != 0 }
                names.append(String(decoding: bytes, as: UTF8.self))
                offset += 16 + length
            }
        }
    }

    /// How many of the events since the last call name `name`.
    func count(of name: String) throws -> Int {
        try names().filter { $0 == name }.count
    }
}
