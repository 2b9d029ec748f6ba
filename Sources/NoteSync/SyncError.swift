import Foundation
import NoteFiles

/// Everything that can go wrong in sync, with enough detail to say what and where.
public enum SyncError: Error, CustomStringConvertible, Sendable, Equatable {
    /// The cloud folder or a file in it could not be read or written.
    case io(path: String, reason: String)
    /// A file or folder in the cloud folder does not exist (`ENOENT`), as opposed to any other
    /// failure to reach it.
    case missing(path: String)
    /// A file is larger than its kind may be; it was refused without being read.
    case tooLarge(path: String, limit: Int)
    /// A published file of that name exists already: published files are never replaced.
    case exists(path: String)
    /// A name given to the container layer does not follow the container's naming rules.
    case invalidName(String, reason: String)
    /// The container is of a newer format than this build understands: nothing may be written.
    case newerFormat(path: String, version: Int)
    /// A file of the container belongs to another container than the one attached to.
    case wrongContainer(path: String, expected: UUID, found: UUID)
    /// A blob's bytes do not have the SHA-256 that names it.
    case damagedBlob(path: String)
    /// Sync is not set up for this store.
    case notEnabled
    /// The container or this device's registration is gone, or the container is another one.
    case detached(reason: String)
    /// A file in the container is not what it claims to be.
    case badFile(path: String, reason: String)
    /// A file of the container could not be read: the message names it and says why.
    case unreadable(String)
    /// A file of an encrypted container does not open with its key: changed, cut, moved from
    /// another name, or written with another key.
    case damaged(path: String, reason: String)
    /// The container is encrypted and this device does not hold its key; the message says how
    /// to give the passphrase.
    case keyNeeded(container: String)
    /// The passphrase given does not unwrap the container key: nothing was written.
    case wrongPassphrase(path: String)
    /// What encryption needs is not right (no passphrase, a key file that is not this
    /// container's, a plain container asked to encrypt): the message says what.
    case encryption(String)
    /// A container asked to be encrypted exists and is plain: nothing was written.
    case plainContainer(path: String)

    public var description: String {
        switch self {
        case let .io(path, reason): return "cannot use '\(path)': \(reason)"
        case let .unreadable(message): return message
        case let .missing(path): return "cannot use '\(path)': it does not exist"
        case let .tooLarge(path, limit): return "refused '\(path)': larger than \(limit) bytes"
        case let .exists(path):
            return "cannot write '\(path)': it is already published, and published files never change"
        case let .invalidName(name, reason): return "invalid name '\(name)': \(reason)"
        case let .newerFormat(path, version):
            return "cannot write to the container of '\(path)': "
                + "its format version \(version) is newer than this build understands"
        case let .wrongContainer(path, expected, found):
            return "'\(path)' belongs to container \(found.uuidString.lowercased()), "
                + "not to \(expected.uuidString.lowercased())"
        case let .damagedBlob(path): return "blob '\(path)' is damaged: its bytes do not have the SHA-256 in its name"
        case .notEnabled: return "sync is not enabled for this store: run 'notes sync enable --cloud DIR'"
        case let .detached(reason): return "sync is off: \(reason)"
        case let .badFile(path, reason): return "skipped '\(path)': \(reason)"
        case let .damaged(path, reason): return "'\(path)' is damaged: \(reason)"
        case let .keyNeeded(container):
            return "the container '\(container)' is encrypted and this device does not hold its key: "
                + "run 'notes sync now' on a terminal, "
                + "or give the passphrase with NOTES_PASSPHRASE or --passphrase-file"
        case let .wrongPassphrase(path):
            return "wrong passphrase for the encrypted container '\(path)': nothing was written"
        case let .encryption(message): return message
        case let .plainContainer(path):
            return "the container '\(path)' exists and is not encrypted: its files stay as they are; "
                + "give another --container name to make an encrypted one"
        }
    }
}

extension SyncError {
    /// The ``io(path:reason:)`` of a file of this machine that could not be read or written.
    init(_ error: FileError) {
        self = .io(path: error.path, reason: error.reason)
    }
}
