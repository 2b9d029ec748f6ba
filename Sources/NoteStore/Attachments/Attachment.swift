import Foundation
import GRDB

/// A file attached to a note: the abstract `Attachment` entity, whose sub-entities are
/// `ImageAttachment` (a PNG, JPEG, GIF or WebP image, checked, with its pixel size) and
/// `FileAttachment` (any other file: an SVG image, checked as XML, or opaque bytes with a
/// media type sniffed from their content).
///
/// The bytes live outside the database, in `blobs/<sha256>` in the store folder; attachments
/// with equal bytes share one blob. Images are rows of `attachment`, other files rows of
/// `file_attachment` (model version 10), so that builds before it never see one.
public struct Attachment: Hashable, Sendable, Identifiable {
    /// The sub-entities of `Attachment`.
    public enum Kind: String, Sendable, Codable {
        /// An `ImageAttachment`: PNG, JPEG, GIF or WebP.
        case image
        /// A `FileAttachment`: any other file.
        case file
    }

    public let id: UUID
    public let kind: Kind
    /// The note it belongs to; it is purged with the note.
    public let note: UUID
    /// The SHA-256 of the bytes, in lowercase hex: the blob's name.
    public let sha256: String
    /// The image format of an image; nil for a file.
    public let format: ImageFormat?
    /// The media type, such as `image/png`, `image/svg+xml` or `application/pdf`: an image's
    /// from its format, a file's sniffed from its bytes (``MediaTypeSniffer``).
    public let mediaType: String
    /// The name of the file it was attached from (its last path component); nil for an image.
    public let fileName: String?
    /// Pixel dimensions: an image's, read from the bytes; an SVG's from its `width` and
    /// `height` attributes when it has them; nil for other files.
    public let width: Int?
    public let height: Int?
    /// The size of the bytes.
    public let bytes: Int64
    /// At most 1,000 characters.
    public let caption: String?
    public let created: Date

    public init(
        id: UUID, kind: Kind, note: UUID, sha256: String, format: ImageFormat?, mediaType: String? = nil,
        fileName: String? = nil, width: Int?, height: Int?, bytes: Int64, caption: String?, created: Date
    ) {
        self.id = id
        self.kind = kind
        self.note = note
        self.sha256 = sha256
        self.format = format
        self.mediaType = mediaType ?? format?.mediaType ?? MediaTypeSniffer.octetStream
        self.fileName = fileName
        self.width = width
        self.height = height
        self.bytes = bytes
        self.caption = caption
        self.created = created
    }

    /// The largest image accepted, in bytes: an image over it is refused, as it always was.
    public static let maximumBytes: Int64 = 50 * 1024 * 1024
    /// The largest file accepted by default, in bytes (1 GiB); ``Store/attach(_:to:caption:limit:)``
    /// takes another limit, up to ``maximumFileBytes``.
    public static let defaultFileLimit: Int64 = 1 << 30
    /// The largest file any limit accepts, and the largest blob sync reads (16 GiB).
    public static let maximumFileBytes: Int64 = 1 << 34
    /// The largest image accepted, in pixels (width × height).
    public static let maximumPixels = 500_000_000
    /// The longest caption, in characters.
    public static let maximumCaptionLength = 1000
    /// The longest file name, in bytes of UTF-8.
    public static let maximumFileNameBytes = 255

    /// The entity name, as in the model and the outbox.
    public var entity: Entity { kind == .image ? .imageAttachment : .fileAttachment }

    /// The name a saved copy of the bytes takes: a file's own name, else `<id prefix>.<ext>`.
    public var suggestedFileName: String {
        fileName ?? String(id.storeString.prefix(8)) + "." + fileExtension
    }

    /// The extension a copy of the bytes takes: an image's format's (`jpg` for JPEG), else the
    /// file's own name's, else its media type's usual one, else `bin`.
    public var fileExtension: String {
        if let format { return format == .jpeg ? "jpg" : format.rawValue }
        if let own = fileName.map({ ($0 as NSString).pathExtension }), !own.isEmpty { return own }
        return MediaTypeSniffer.fileExtension(for: mediaType) ?? "bin"
    }

    /// A size as a limit is written: `1 GiB`, `300 MiB`, `64 KiB`, else in bytes.
    public static func sizeText(_ bytes: Int64) -> String {
        for (unit, shift) in [("TiB", 40), ("GiB", 30), ("MiB", 20), ("KiB", 10)] where bytes >= Int64(1) << shift {
            let value = Double(bytes) / Double(Int64(1) << shift)
            return (value == value.rounded() ? String(Int64(value)) : String(format: "%.1f", value)) + " " + unit
        }
        return "\(bytes) bytes"
    }

    /// Whether a file name can be kept as an attachment's: one path component of at most
    /// ``maximumFileNameBytes`` bytes, without control or bidirectional formatting characters.
    public static func isValidFileName(_ name: String) -> Bool {
        !name.isEmpty && name.utf8.count <= maximumFileNameBytes && name != "." && name != ".." && !name.contains("/")
            && !name.unicodeScalars.contains { ControlCharacters.contains($0) }
    }
}

extension Attachment: FetchableRecord {
    /// The columns an attachment is read from, in the order of ``columns``.
    enum Columns {
        static let id = Column("id")
        static let kind = Column("kind")
        static let note = Column("note")
        static let sha256 = Column("sha256")
        static let format = Column("format")
        static let mediaType = Column("media_type")
        static let fileName = Column("name")
        static let width = Column("width")
        static let height = Column("height")
        static let bytes = Column("bytes")
        static let caption = Column("caption")
        static let created = Column("created")
    }

    /// The columns of ``source``.
    static let columns = "id, kind, note, sha256, format, media_type, name, width, height, bytes, caption, created"
    /// The columns of the `attachment` table (images), in the order it has them.
    static let imageColumns = "id, kind, note, sha256, format, width, height, bytes, caption, created"
    /// The columns of the `file_attachment` table (files), in the order it has them.
    static let fileColumns = "id, note, sha256, media_type, name, width, height, bytes, caption, created"

    /// Every attachment, of both tables, as one relation of ``columns`` and `stamps`, with
    /// `position` (the row's rowid) to order ties: `SELECT … FROM \(sql: Attachment.source)`.
    static let source = source(where: "1")

    /// ``source`` of the rows that meet `condition` (in SQL, of the columns both tables have),
    /// tested in each table: SQLite carries a condition such as `IN (SELECT …)` into neither
    /// branch of the `UNION ALL`, and would scan both tables.
    static func source(where condition: String) -> String {
        """
        (SELECT id, kind, note, sha256, format, NULL AS media_type, NULL AS name, width, height, bytes, caption, \
        created, stamps, rowid AS position FROM attachment WHERE \(condition) \
        UNION ALL SELECT id, 'file', note, sha256, NULL, media_type, name, width, height, bytes, caption, created, \
        stamps, rowid FROM file_attachment WHERE \(condition))
        """
    }

    /// The table that holds attachments of this kind.
    static func table(of kind: Kind) -> String {
        kind == .image ? "attachment" : "file_attachment"
    }

    /// Decodes an attachment from a row of ``columns``.
    ///
    /// A row whose id or note is not an id, or whose kind or format is unknown, throws
    /// ``StoreError/damagedRow(table:id:problem:)``: it is never passed over in silence.
    public init(row: Row) throws {
        let (id, rowID) = try row.storeRowID(table: "attachment")
        let kind: Kind = try row.storeCase(Columns.kind, table: "attachment", rowID: rowID)
        let format: ImageFormat? =
            kind == .image ? try row.storeCase(Columns.format, table: "attachment", rowID: rowID) : nil
        self.init(
            id: id, kind: kind,
            note: try row.storeID(Columns.note, table: "attachment", rowID: rowID),
            sha256: row[Columns.sha256], format: format, mediaType: row[Columns.mediaType],
            fileName: row[Columns.fileName],
            width: row[Columns.width], height: row[Columns.height], bytes: row[Columns.bytes],
            caption: row[Columns.caption], created: Date(storeMilliseconds: row[Columns.created]))
    }

    /// The attachments of a note, oldest first.
    static func fetchAll(_ db: Database, note: UUID) throws -> [Attachment] {
        try SQLRequest<Attachment>(
            literal: """
                SELECT \(sql: columns) FROM \(sql: source) WHERE note = \(note.storeString) \
                ORDER BY created, kind DESC, position
                """,
            cached: true
        ).fetchAll(db)
    }

    /// The attachment with this id, or nil.
    static func fetchOne(_ db: Database, id: UUID) throws -> Attachment? {
        try SQLRequest<Attachment>(literal: "SELECT \(sql: columns) FROM \(sql: source) WHERE id = \(id.storeString)")
            .fetchOne(db)
    }
}

extension Attachment {
    /// The caption as kept: trimmed, nil when empty; throws when it is too long.
    static func checkedCaption(_ caption: String?, for note: Item) throws -> String? {
        let caption = caption.map { $0.trimmingCharacters(in: .whitespacesAndNewlines) }.flatMap {
            $0.isEmpty ? nil : $0
        }
        if let caption, caption.count > maximumCaptionLength {
            throw StoreError.invalidOperation(
                item: note.label,
                reason: "the caption has \(caption.count) characters, more than \(maximumCaptionLength)")
        }
        return caption
    }

    /// Reads and checks an image file for `note` (see ``Store/attachImages(_:to:caption:)``):
    /// the attachment it makes, created `now`, and its bytes. `caption` is trimmed, and nil
    /// when empty.
    static func prepare(_ file: URL, for note: Item, caption: String?, now: Date) throws -> (Attachment, Data) {
        let caption = try checkedCaption(caption, for: note)
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
        if kind == .image {
            changes.set("format", .text(format?.rawValue ?? ""))
            changes.set("width", .integer(Int64(width ?? 0)))
            changes.set("height", .integer(Int64(height ?? 0)))
        } else {
            changes.set("mediaType", .text(mediaType))
            changes.set("fileName", fileName.map(OutboxValue.text) ?? .null)
            changes.set("width", width.map { .integer(Int64($0)) } ?? .null)
            changes.set("height", height.map { .integer(Int64($0)) } ?? .null)
        }
        changes.set("bytes", .integer(bytes))
        changes.set("caption", caption.map(OutboxValue.text) ?? .null)
        changes.set("created", .date(created))
        return changes
    }
}
