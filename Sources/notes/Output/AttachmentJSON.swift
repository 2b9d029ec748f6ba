import Foundation
import NoteStore

/// The JSON shape of an attachment, as `attachments` and `show` print it.
///
/// An image has `format`, `width` and `height`; any other file has `kind` (`file`),
/// `mediaType`, `fileName` (or null) and, for an SVG that states its size, `width` and
/// `height`.
struct AttachmentJSON: Encodable {
    let id: String
    let note: String
    let isFile: Bool
    let format: String?
    let mediaType: String
    let fileName: String?
    let width: Int?
    let height: Int?
    let bytes: Int64
    let caption: String?
    let sha256: String
    let created: String
    /// Whether the store waits for the bytes (sync has not fetched them yet); said only then.
    let waiting: Bool

    init(_ attachment: Attachment, waiting: Bool = false) {
        id = attachment.id.storeString
        note = attachment.note.storeString
        isFile = attachment.kind == .file
        format = attachment.format?.rawValue
        mediaType = attachment.mediaType
        fileName = attachment.fileName
        width = attachment.width
        height = attachment.height
        bytes = attachment.bytes
        caption = attachment.caption
        sha256 = attachment.sha256
        created = Timestamp.iso(attachment.created)
        self.waiting = waiting
    }

    /// The attachments of a note as printed, each saying whether its bytes are awaited.
    static func list(_ attachments: [Attachment], in store: Store) -> [AttachmentJSON] {
        attachments.map { AttachmentJSON($0, waiting: !store.hasBytes(of: $0)) }
    }

    enum CodingKeys: String, CodingKey {
        case id, note, kind, format, mediaType, fileName, width, height, bytes, caption, sha256, created, waiting
    }

    func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(id, forKey: .id)
        try container.encode(note, forKey: .note)
        if isFile {
            try container.encode("file", forKey: .kind)
            try container.encode(mediaType, forKey: .mediaType)
            try container.encode(fileName, forKey: .fileName)
            try container.encodeIfPresent(width, forKey: .width)
            try container.encodeIfPresent(height, forKey: .height)
        } else {
            try container.encode(format, forKey: .format)
            try container.encode(width, forKey: .width)
            try container.encode(height, forKey: .height)
        }
        try container.encode(bytes, forKey: .bytes)
        try container.encode(caption, forKey: .caption)
        try container.encode(sha256, forKey: .sha256)
        try container.encode(created, forKey: .created)
        if waiting { try container.encode(true, forKey: .waiting) }
    }

    /// One line for people: id, format (an image's) or media type and file name (a file's),
    /// dimensions when known, size and caption, and whether the bytes are awaited.
    var line: String {
        let size = ByteCountFormatter.string(fromByteCount: bytes, countStyle: .file)
        let caption = caption.map { "  \($0.split(whereSeparator: \.isNewline).joined(separator: " "))" } ?? ""
        let dimensions = width.flatMap { width in height.map { "  \(width)×\($0)" } } ?? ""
        let kind = isFile ? mediaType + (fileName.map { "  " + $0 } ?? "") : (format ?? "").uppercased()
        return "\(id.prefix(8))  \(kind)\(dimensions)  \(size)\(caption)" + (waiting ? "  (waiting for its bytes)" : "")
    }
}
