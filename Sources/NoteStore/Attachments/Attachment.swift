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

extension Attachment: FetchableRecord {
    /// The columns an attachment is read from, in the order of ``columns``.
    enum Columns {
        static let id = Column("id")
        static let kind = Column("kind")
        static let note = Column("note")
        static let sha256 = Column("sha256")
        static let format = Column("format")
        static let width = Column("width")
        static let height = Column("height")
        static let bytes = Column("bytes")
        static let caption = Column("caption")
        static let created = Column("created")
    }

    static let columns = "id, kind, note, sha256, format, width, height, bytes, caption, created"

    /// Decodes an attachment from a row of ``columns``.
    ///
    /// A row whose id or note is not an id, or whose kind or format is unknown, throws
    /// ``StoreError/damagedRow(table:id:problem:)``: it is never passed over in silence.
    public init(row: Row) throws {
        let (id, rowID) = try row.storeRowID(table: "attachment")
        self.init(
            id: id,
            kind: try row.storeCase(Columns.kind, table: "attachment", rowID: rowID),
            note: try row.storeID(Columns.note, table: "attachment", rowID: rowID),
            sha256: row[Columns.sha256],
            format: try row.storeCase(Columns.format, table: "attachment", rowID: rowID),
            width: row[Columns.width], height: row[Columns.height], bytes: row[Columns.bytes],
            caption: row[Columns.caption], created: Date(storeMilliseconds: row[Columns.created]))
    }

    /// The attachments of a note, oldest first.
    static func fetchAll(_ db: Database, note: UUID) throws -> [Attachment] {
        try SQLRequest<Attachment>(
            literal: "SELECT \(sql: columns) FROM attachment WHERE note = \(note.storeString) ORDER BY created, rowid",
            cached: true
        ).fetchAll(db)
    }
}

extension Attachment {
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
