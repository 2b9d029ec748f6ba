import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// The events that inotify(7) reports for one mask on a folder (by the names of its files, in
/// order) or on a file: what a test sees of what happened there, whoever did it.
public final class FileEvents {
    private let descriptor: Int32

    public init(path: String, mask: Int32) throws {
        descriptor = inotify_init1(Int32(IN_NONBLOCK | IN_CLOEXEC))
        guard descriptor >= 0, inotify_add_watch(descriptor, path, UInt32(mask)) >= 0 else {
            throw CocoaError(.fileReadUnknown)
        }
    }

    deinit { close(descriptor) }

    /// Whether an event came since the last call, waiting up to `seconds` for one; the events
    /// are read.
    public func happened(within seconds: Int32) throws -> Bool {
        var pending = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
        guard poll(&pending, 1, seconds * 1000) > 0 else { return false }
        _ = try names()
        return true
    }

    /// The names of the events since the last call, empty for an event of a watched file (the
    /// kernel queues each event before the call that caused it returns, so none is in flight).
    public func names() throws -> [String] {
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
    public func count(of name: String) throws -> Int {
        try names().filter { $0 == name }.count
    }
}
