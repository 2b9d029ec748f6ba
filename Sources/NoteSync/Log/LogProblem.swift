/// Why a file in the container cannot be used as a log.
public enum LogProblem: Error, Sendable, Equatable, CustomStringConvertible {
    case tooLarge(Int)
    case unknownFormat(String)
    case truncated
    case corrupt(String)
    case checksumMismatch

    public var description: String {
        switch self {
        case let .tooLarge(size): return "too large (\(size) bytes, the limit is \(LogCodec.maximumSize))"
        case let .unknownFormat(what): return "unknown format: \(what)"
        case .truncated: return "truncated"
        case let .corrupt(reason): return "corrupt: \(reason)"
        case .checksumMismatch: return "corrupt: its checksum does not match"
        }
    }
}
