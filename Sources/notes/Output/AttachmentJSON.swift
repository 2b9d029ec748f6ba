import Foundation
import NoteStore

/// The JSON shape of an attachment, as `attachments` and `show` print it.
struct AttachmentJSON: Encodable {
    let id: String
    let note: String
    let format: String
    let width: Int
    let height: Int
    let bytes: Int64
    let caption: String?
    let sha256: String
    let created: String

    init(_ attachment: Attachment) {
        id = attachment.id.storeString
        note = attachment.note.storeString
        format = attachment.format.rawValue
        width = attachment.width
        height = attachment.height
        bytes = attachment.bytes
        caption = attachment.caption
        sha256 = attachment.sha256
        created = Timestamp.iso(attachment.created)
    }

    enum CodingKeys: String, CodingKey {
        case id, note, format, width, height, bytes, caption, sha256, created
    }

    func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(id, forKey: .id)
        try container.encode(note, forKey: .note)
        try container.encode(format, forKey: .format)
        try container.encode(width, forKey: .width)
        try container.encode(height, forKey: .height)
        try container.encode(bytes, forKey: .bytes)
        try container.encode(caption, forKey: .caption)
        try container.encode(sha256, forKey: .sha256)
        try container.encode(created, forKey: .created)
    }

    /// One line for people: id, format, dimensions, size and caption.
    static func line(_ attachment: Attachment) -> String {
        let size = ByteCountFormatter.string(fromByteCount: attachment.bytes, countStyle: .file)
        let caption = attachment.caption.map { "  \($0.split(whereSeparator: \.isNewline).joined(separator: " "))" } ?? ""
        return "\(attachment.id.storeString.prefix(8))  \(attachment.format.rawValue.uppercased())  "
            + "\(attachment.width)×\(attachment.height)  \(size)\(caption)"
    }
}
