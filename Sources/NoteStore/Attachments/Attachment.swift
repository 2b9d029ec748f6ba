import Foundation
import GRDB

/// A file attached to a note: the abstract `Attachment` entity, of which `ImageAttachment` is
/// the one kind so far.
///
/// The bytes live outside the database, in `blobs/<sha256>` in the store folder; attachments
/// with equal bytes share one blob.
public struct Attachment: Hashable, Sendable, Identifiable {
    /// The sub-entities of `Attachment`.
    public enum Kind: String, Sendable, Codable {
        case image
    }

    public let id: UUID
    public let kind: Kind
    /// The note it belongs to; it is purged with the note.
    public let note: UUID
    /// The SHA-256 of the bytes, in lowercase hex: the blob's name.
    public let sha256: String
    public let format: ImageFormat
    /// Pixel dimensions, read from the bytes.
    public let width: Int
    public let height: Int
    /// The size of the bytes.
    public let bytes: Int64
    /// At most 1,000 characters.
    public let caption: String?
    public let created: Date

    /// The largest file accepted, in bytes.
    public static let maximumBytes: Int64 = 50 * 1024 * 1024
    /// The largest image accepted, in pixels (width × height).
    public static let maximumPixels = 500_000_000
    /// The longest caption, in characters.
    public static let maximumCaptionLength = 1000

    /// The entity name, as in the model and the outbox.
    public var entity: Entity { .imageAttachment }
}

extension Attachment {
    static let columns = "id, kind, note, sha256, format, width, height, bytes, caption, created"

    init?(row: Row) {
        guard let id = UUID(storeText: row[0]), let note = UUID(storeText: row[2]),
            let kind = Kind(rawValue: row[1]), let format = ImageFormat(rawValue: row[4])
        else { return nil }
        self.init(
            id: id, kind: kind, note: note, sha256: row[3], format: format, width: row[5],
            height: row[6], bytes: row[7], caption: row[8], created: Date(storeMilliseconds: row[9]))
    }

    static func fetchAll(_ db: Database, sql: String, arguments: StatementArguments) throws -> [Attachment] {
        try Row.fetchAll(db, sql: sql, arguments: arguments).compactMap(Attachment.init(row:))
    }

    /// The attachments of a note, oldest first.
    static func fetchAll(_ db: Database, note: UUID) throws -> [Attachment] {
        try Row.fetchAll(
            db.cachedStatement(sql: "SELECT \(columns) FROM attachment WHERE note = ? ORDER BY created, rowid"),
            arguments: [note.storeString]
        ).compactMap(Attachment.init(row:))
    }

    /// Reads and checks an image file for `note` (see ``Store/attachImages(_:to:caption:)``):
    /// the attachment it makes, created `now`, and its bytes. `caption` is trimmed, and nil
    /// when empty.
    static func prepare(_ file: URL, for note: Item, caption: String?, now: Date) throws -> (Attachment, Data) {
        let caption = caption.map { $0.trimmingCharacters(in: .whitespacesAndNewlines) }.flatMap { $0.isEmpty ? nil : $0 }
        if let caption, caption.count > maximumCaptionLength {
            throw StoreError.invalidOperation(
                item: note.label, reason: "the caption has \(caption.count) characters, more than \(maximumCaptionLength)")
        }
        let (data, info) = try ImageFile.read(file, note: note)
        let attachment = Attachment(
            id: UUID(), kind: .image, note: note.id, sha256: BlobStore.sha256(of: data), format: info.format,
            width: info.width, height: info.height, bytes: Int64(data.count), caption: caption, created: now)
        return (attachment, data)
    }

    var insertionChanges: OutboxChanges {
        var changes = OutboxChanges()
        changes.set("kind", .text(kind.rawValue))
        changes.set("note", .id(note))
        changes.set("sha256", .text(sha256))
        changes.set("format", .text(format.rawValue))
        changes.set("width", .integer(Int64(width)))
        changes.set("height", .integer(Int64(height)))
        changes.set("bytes", .integer(bytes))
        changes.set("caption", caption.map(OutboxValue.text) ?? .null)
        changes.set("created", .date(created))
        return changes
    }
}
