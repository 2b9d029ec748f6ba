/// A file of the container that was not used, and why; `notes sync status` lists them.
///
/// Files in the cloud are untrusted: whatever does not follow the container's naming rules or
/// cannot be read as what it claims to be is skipped, never read through a link, and reported
/// instead of failing the sync.
public struct SkippedFile: Equatable, Sendable, CustomStringConvertible {
    /// Why a file was skipped.
    public enum Reason: Equatable, Sendable, CustomStringConvertible {
        /// The name follows none of the container's patterns.
        case badlyNamed
        case symbolicLink
        /// A folder, device or other object where a regular file belongs.
        case notAFile
        /// A file or other object where a folder belongs.
        case notAFolder
        /// Larger than a file of its kind may be.
        case tooLarge
        /// It belongs to another container.
        case foreignContainer
        /// A log with a body delta against a version this device does not hold: passed over,
        /// and asked of its writer again.
        case missingBase
        /// A registration whose device is not the one its file name says.
        case wrongDevice
        /// It could not be read, or read but not understood.
        case unreadable(String)
        /// It does not open with the container's key (an encrypted container).
        case damaged(String)

        public var description: String {
            switch self {
            case .badlyNamed: return "badly named"
            case .symbolicLink: return "symbolic link"
            case .notAFile: return "not a file"
            case .notAFolder: return "not a folder"
            case .tooLarge: return "too large"
            case .foreignContainer: return "foreign container"
            case .missingBase: return "a body delta against a version this device lacks; asked of its writer"
            case .wrongDevice: return "names another device than its file name"
            case let .unreadable(reason): return "unreadable: \(reason)"
            case let .damaged(reason): return "damaged: \(reason)"
            }
        }
    }

    /// The path relative to the container folder, as `logs/<device>/notes.txt`.
    public var path: String
    public var reason: Reason

    public init(path: String, reason: Reason) {
        self.path = path
        self.reason = reason
    }

    public var description: String { "\(path): \(reason)" }
}

extension SkippedFile.Reason {
    /// Why an entry is skipped for being of another kind than `expected`; nil when it is not.
    init?(_ entry: CloudEntry, expected: CloudEntry.Kind) {
        if entry.kind == expected { return nil }
        switch entry.kind {
        case .symbolicLink: self = .symbolicLink
        default: self = expected == .folder ? .notAFolder : .notAFile
        }
    }

    /// Why a file that could not be read is skipped.
    init(_ error: SyncError) {
        switch error {
        case .tooLarge: self = .tooLarge
        case let .io(_, reason): self = .unreadable(reason)
        case let .damaged(_, reason): self = .damaged(reason)
        default: self = .unreadable(error.description)
        }
    }
}
