import Foundation
import GRDB

/// Everything that can go wrong in the store, with enough detail to say what and where.
public enum StoreError: Error, CustomStringConvertible, Sendable {
    /// The store folder or database could not be created or opened.
    case cannotOpen(path: String, reason: String)
    /// The store was written by a newer model than this build understands.
    case newerModel(path: String, found: Int, supported: Int)
    /// One or more validation rules failed on save; nothing was written.
    case validation([ValidationFailure])
    /// No item has this id.
    case notFound(UUID)
    /// A reference (id, id prefix or path) names no item; the candidates are the items
    /// closest to it, closest first (perhaps none).
    case unknownReference(String, scope: ReferenceScope, candidates: [ReferenceCandidate])
    /// A reference names several items: the candidates.
    case ambiguousReference(String, candidates: [ReferenceCandidate])
    /// A file could not be attached to a note.
    case cannotAttach(file: String, note: String, reason: String)
    /// No attachment has this id or id prefix.
    case unknownAttachment(String)
    /// An id prefix names several attachments.
    case ambiguousAttachment(String, candidates: [UUID])
    /// No version in an item's history has this id or id prefix, or several have.
    case unknownVersion(String, item: String, ambiguous: Bool)
    /// An attachment's bytes are missing or damaged.
    case blob(attachment: UUID, problem: String)
    /// The operation does not apply to this item (for example, restoring an item not in the trash).
    case invalidOperation(item: String, reason: String)
    /// A save would overwrite properties that changed in the store since the context read
    /// them (an import, or another process): nothing was saved.
    case changedElsewhere(item: String, properties: [String])
    /// A tag breaks the rules on tags (``Tag/problem(_:)``).
    case invalidTag(String, reason: String)
    /// A property's key or value breaks the rules on properties (``Property/problem(_:)``).
    case invalidProperty(String, reason: String)
    /// A row of the store's database holds what no model allows (an unknown kind, an id that
    /// is not one): it is reported, never read as a made-up value.
    case damagedRow(table: String, id: String, problem: String)
    /// A search query that does not read: what, and at which column.
    case invalidQuery(String)
    /// The underlying database failed.
    case database(path: String, underlying: any Error)

    public var description: String {
        switch self {
        case let .cannotOpen(path, reason):
            return "cannot open store '\(path)': \(reason)"
        case let .newerModel(path, found, supported):
            return "cannot open store '\(path)': it uses model version \(found), "
                + "and this build of notes understands up to \(supported)"
        case let .validation(failures):
            return failures.map(\.description).joined(separator: "; ")
        case let .notFound(id):
            return "no item with id \(id.storeString)"
        case let .unknownReference(reference, scope, candidates):
            let place = scope == .trashed ? "in the trash" : (scope == .live ? "outside the trash" : "")
            let start = "no item \(place.isEmpty ? "" : place + " ")matches '\(reference)'"
            guard candidates.isEmpty else {
                return start + "; the closest: " + candidates.map(\.description).joined(separator: ", ")
            }
            return start + ": give a full id, an id prefix of at least 4 characters, or a path such as 'Work/Ideas'"
        case let .ambiguousReference(reference, candidates):
            let shown = candidates.prefix(10).map(\.description).joined(separator: ", ")
            let more = candidates.count > 10 ? " and \(candidates.count - 10) more" : ""
            return "'\(reference)' matches \(candidates.count) items: \(shown)\(more); give an id instead"
        case let .cannotAttach(file, note, reason):
            return "cannot attach '\(file)' to note '\(note)': \(reason)"
        case let .unknownAttachment(reference):
            return "no attachment matches '\(reference)': give its id or an id prefix of at least 4 characters"
        case let .ambiguousAttachment(reference, candidates):
            let shown = candidates.prefix(10).map(\.storeString).joined(separator: ", ")
            return "'\(reference)' matches \(candidates.count) attachments: \(shown); give more of the id"
        case let .unknownVersion(reference, item, ambiguous):
            return ambiguous
                ? "version '\(reference)' of '\(item)' is ambiguous: give more of its id"
                : "'\(item)' has no version '\(reference)': "
                    + "give an id or a prefix of at least 4 characters from 'notes history'"
        case let .blob(attachment, problem):
            return "attachment \(attachment.storeString.prefix(8)): \(problem)"
        case let .invalidOperation(item, reason):
            return "cannot change '\(item)': \(reason)"
        case let .changedElsewhere(item, properties):
            let list = properties.joined(separator: " and ")
            return "cannot save '\(item)': its \(list) changed in the store since it was read "
                + "(from another device or process); nothing was saved"
        case let .invalidTag(tag, reason):
            return "invalid tag '\(tag.count > 60 ? tag.prefix(57) + "..." : tag)': \(reason)"
        case let .invalidProperty(key, reason):
            return "invalid property '\(key.count > 60 ? key.prefix(57) + "..." : key)': \(reason)"
        case let .damagedRow(table, id, problem):
            let shown = id.count > 40 ? id.prefix(37) + "..." : id
            return "row '\(shown)' of table \(table) is damaged: \(problem)"
        case let .invalidQuery(problem):
            return "invalid search: \(problem)"
        case let .database(path, underlying):
            return "store '\(path)': \(Self.describe(underlying, at: path))"
        }
    }

    /// True when the error comes from the data a person gave, not from the machine.
    public var isBadInput: Bool {
        switch self {
        case .validation, .invalidOperation, .cannotAttach, .invalidTag, .invalidProperty: return true
        default: return false
        }
    }

    /// A short description of an underlying error, without SQL text or arguments.
    /// What went wrong, as a person reads it; an I/O error of SQLite on a file system with no
    /// room left (where `path` is) says so.
    static func describe(_ error: any Error, at path: String? = nil) -> String {
        if let path, let error = error as? DatabaseError, [.SQLITE_IOERR, .SQLITE_FULL].contains(error.resultCode),
            StoreFolder.isFull(path)
        {
            return "no space left on device"
        }
        if let error = error as? StoreError { return error.description }
        if let error = error as? DatabaseError {
            let message = (error.message ?? "unknown error").lowercased()
            return "sqlite error \(error.resultCode.rawValue): \(message)"
        }
        return String(describing: error)
    }
}

/// One broken rule, naming the item and the rule.
public struct ValidationFailure: Sendable, CustomStringConvertible, Equatable {
    public enum Rule: String, Sendable {
        case nameEmpty = "name-empty"
        case nameTooLong = "name-too-long"
        case nameHasLineBreak = "name-line-break"
        case nameHasControlCharacter = "name-control-character"
        case bodyTooLarge = "body-too-large"
        case parentMissing = "parent-missing"
        case parentNotCollection = "parent-not-collection"
        case parentTrashed = "parent-trashed"
        case cycle = "cycle"
        case purgeNotTrashed = "purge-not-trashed"
    }

    public let item: String
    public let id: UUID
    public let rule: Rule
    public let message: String

    public var description: String { "invalid \(itemLabel): \(message)" }

    private var itemLabel: String {
        item.isEmpty ? "name" : "'\(item.count > 60 ? item.prefix(57) + "..." : item)'"
    }
}

extension UUID {
    /// The id of its 16 bytes (as `uuid` holds them, in the order of its text); nil when there
    /// are not 16.
    public init?(storeBytes bytes: Data) {
        guard bytes.count == 16 else { return nil }
        self.init(uuid: bytes.withUnsafeBytes { $0.loadUnaligned(as: uuid_t.self) })
    }

    /// The id a text gives, as `UUID(uuidString:)` reads it, without its `sscanf(3)` for the
    /// usual form (32 hex digits in either case, dashes after the 8th, 12th, 16th and 20th):
    /// ids are read from text on every row the store fetches.
    public init?(storeText text: String) {
        var parsed: uuid_t?
        if text.utf8.count == 36 {
            parsed = text.utf8.withContiguousStorageIfAvailable(Self.parseUsualForm) ?? nil
        }
        guard let parsed else {
            guard let read = UUID(uuidString: text) else { return nil }
            self = read
            return
        }
        self.init(uuid: parsed)
    }

    /// The 16 bytes of 36 characters in the usual form; nil for anything else.
    private static func parseUsualForm(_ text: UnsafeBufferPointer<UInt8>) -> uuid_t? {
        var value: uuid_t = (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)
        let parsed = withUnsafeMutableBytes(of: &value) { bytes -> Bool in
            var index = 0
            for byte in 0..<16 {
                if index == 8 || index == 13 || index == 18 || index == 23 {
                    guard text[index] == UInt8(ascii: "-") else { return false }
                    index += 1
                }
                guard let high = hexValue(text[index]), let low = hexValue(text[index + 1]) else { return false }
                bytes[byte] = high << 4 | low
                index += 2
            }
            return true
        }
        return parsed ? value : nil
    }

    private static func hexValue(_ character: UInt8) -> UInt8? {
        switch character {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): character - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): character - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): character - UInt8(ascii: "A") + 10
        default: nil
        }
    }

    /// Whether this id's bytes come before `other`'s: the order of the store's text of ids
    /// (lowercase hex digits, dashes at the same places), without making the text.
    public func precedesInStoreOrder(_ other: UUID) -> Bool {
        withUnsafeBytes(of: uuid) { left in
            withUnsafeBytes(of: other.uuid) { right in memcmp(left.baseAddress!, right.baseAddress!, 16) < 0 }
        }
    }

    /// The lowercase form in which the store writes ids (`uuidString`, lowercased), made
    /// without formatting: ids are written and compared on every change an import applies.
    public var storeString: String {
        let digits: StaticString = "0123456789abcdef"
        return withUnsafeBytes(of: uuid) { bytes in
            String(unsafeUninitializedCapacity: 36) { buffer in
                var out = 0
                for (index, byte) in bytes.enumerated() {
                    if index == 4 || index == 6 || index == 8 || index == 10 {
                        buffer[out] = UInt8(ascii: "-")
                        out += 1
                    }
                    buffer[out] = digits.utf8Start[Int(byte >> 4)]
                    buffer[out + 1] = digits.utf8Start[Int(byte & 0x0F)]
                    out += 2
                }
                return out
            }
        }
    }
}
