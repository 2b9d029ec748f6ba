import Foundation

#if canImport(Glibc)
    import Glibc
#endif
import NoteStore
import NoteTerminal

/// The JSON shape of an item, as `ls`, `show` and `search` print it.
struct ItemJSON: Encodable {
    let id: String
    let kind: String
    let name: String
    let parent: String?
    let path: String
    let created: String
    let modified: String
    let trashed: Bool
    var body: String?
    var snippet: String?
    var rank: Double?
    var attachments: [AttachmentJSON]?
    /// The lines of other notes that link to it (`show`).
    var linkedFrom: [Backlink]?
    /// A note's properties in their order (`show`).
    var properties: [PropertyJSON]?
    /// A note's tags, sorted; a collection's: none.
    var tags: [String] = []
    /// Whether the item is a conflict copy, in listings.
    var conflictCopy: Bool?

    init(_ item: Item, path: String, tags: [String] = [], includeBody: Bool = false) {
        self.tags = tags
        id = item.id.storeString
        kind = item.kind.rawValue
        name = item.name
        parent = item.parent?.storeString
        self.path = path
        created = Timestamp.iso(item.created)
        modified = Timestamp.iso(item.modified)
        trashed = item.isTrashed
        body = includeBody ? item.body : nil
    }

    enum CodingKeys: String, CodingKey {
        case id, kind, name, parent, path, created, modified, trashed, tags, body, snippet, rank, attachments,
            conflictCopy, linkedFrom
        case properties
    }

    func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(id, forKey: .id)
        try container.encode(kind, forKey: .kind)
        try container.encode(name, forKey: .name)
        try container.encode(parent, forKey: .parent)
        try container.encode(path, forKey: .path)
        try container.encode(created, forKey: .created)
        try container.encode(modified, forKey: .modified)
        try container.encode(trashed, forKey: .trashed)
        try container.encode(tags, forKey: .tags)
        try container.encodeIfPresent(body, forKey: .body)
        try container.encodeIfPresent(snippet, forKey: .snippet)
        try container.encodeIfPresent(rank, forKey: .rank)
        try container.encodeIfPresent(attachments, forKey: .attachments)
        try container.encodeIfPresent(linkedFrom, forKey: .linkedFrom)
        try container.encodeIfPresent(properties, forKey: .properties)
        try container.encodeIfPresent(conflictCopy, forKey: .conflictCopy)
    }
}

/// Writes JSON to standard output.
enum JSONOutput {
    static func print<T: Encodable>(_ value: T, compact: Bool = false) throws {
        let encoder = JSONEncoder()
        encoder.outputFormatting =
            compact ? [.sortedKeys, .withoutEscapingSlashes] : [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        var data = try encoder.encode(value)
        if data.filter({ !$0.isWhitespace }) == Data("[]".utf8) { data = Data("[]".utf8) }
        let text = TerminalText.escapedJSON(String(decoding: data, as: UTF8.self))
        FileHandle.standardOutput.write(Data((text + "\n").utf8))
    }
}

/// Dates as the command prints them.
enum Timestamp {
    /// ISO 8601 in UTC with milliseconds, for JSON.
    static func iso(_ date: Date) -> String { date.isoText }

    /// A formatter of minutes in the local time zone or in UTC, for lists read by people:
    /// `2026-11-21 05:24`.
    static func shortFormatter(utc: Bool) -> MinuteFormatter { MinuteFormatter(utc: utc) }
}

/// Minutes for lists read by people, `2026-11-21 05:24`, in the local time zone (`TZ`, else
/// the system's) or in UTC, through localtime_r(3) and gmtime_r(3): a DateFormatter loads ICU's
/// data when it is first made, which cost a listing a tenth of its time.
struct MinuteFormatter {
    let utc: Bool

    func string(from date: Date) -> String {
        var seconds = time_t(date.timeIntervalSince1970.rounded(.down))
        var parts = tm()
        if utc { gmtime_r(&seconds, &parts) } else { localtime_r(&seconds, &parts) }
        let year = Int(parts.tm_year) + 1900
        let (month, day) = (Int(parts.tm_mon) + 1, Int(parts.tm_mday))
        let (hour, minute) = (Int(parts.tm_hour), Int(parts.tm_min))
        guard (0...9999).contains(year) else {
            func two(_ value: Int) -> String { value < 10 ? "0\(value)" : String(value) }
            return "\(year)-\(two(month))-\(two(day)) \(two(hour)):\(two(minute))"
        }
        // The 16 characters written in place: a listing formats a date on every line.
        return String(unsafeUninitializedCapacity: 16) { buffer in
            func put(_ value: Int, digits: Int, at offset: Int) {
                var rest = value
                for position in (offset..<offset + digits).reversed() {
                    buffer[position] = UInt8(ascii: "0") + UInt8(rest % 10)
                    rest /= 10
                }
            }
            put(year, digits: 4, at: 0)
            buffer[4] = UInt8(ascii: "-")
            put(month, digits: 2, at: 5)
            buffer[7] = UInt8(ascii: "-")
            put(day, digits: 2, at: 8)
            buffer[10] = UInt8(ascii: " ")
            put(hour, digits: 2, at: 11)
            buffer[13] = UInt8(ascii: ":")
            put(minute, digits: 2, at: 14)
            return 16
        }
    }
}

extension UInt8 {
    fileprivate var isWhitespace: Bool { self == 0x20 || self == 0x0A || self == 0x0D || self == 0x09 }
}
