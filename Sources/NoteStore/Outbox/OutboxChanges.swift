import Foundation
import GRDB

/// A property value as the outbox records it.
public enum OutboxValue: Sendable, Equatable {
    case text(String)
    case integer(Int64)
    case null

    static func id(_ id: UUID?) -> OutboxValue { id.map { .text($0.storeString) } ?? .null }
    static func date(_ date: Date?) -> OutboxValue { date.map { .integer($0.storeMilliseconds) } ?? .null }

    var databaseValue: DatabaseValue {
        switch self {
        case let .text(text): return text.databaseValue
        case let .integer(value): return value.databaseValue
        case .null: return .null
        }
    }
}

/// The changed properties of one object and their new values, in a stable order.
///
/// Encoded as a JSON object whose keys are property names, text as strings, dates as whole
/// milliseconds since 1970 and missing values as null.
public struct OutboxChanges: Sendable, Equatable {
    public private(set) var properties: [(name: String, value: OutboxValue)] = []

    public init() {}

    public init(inserting item: Item) {
        set("kind", .text(item.kind.rawValue))
        set("name", .text(item.name))
        set("parent", .id(item.parent))
        set("created", .date(item.created))
        set("modified", .date(item.modified))
        set("trashed", .date(item.trashed))
        if item.isNote { set("body", .text(item.body ?? "")) }
    }

    public mutating func remove(_ name: String) {
        properties.removeAll { $0.name == name }
    }

    public mutating func set(_ name: String, _ value: OutboxValue) {
        properties.removeAll { $0.name == name }
        properties.append((name, value))
    }

    public subscript(name: String) -> OutboxValue? {
        properties.first { $0.name == name }?.value
    }

    /// Equal when they have the same properties with the same values, in any order.
    public static func == (lhs: OutboxChanges, rhs: OutboxChanges) -> Bool {
        lhs.properties.count == rhs.properties.count
            && lhs.properties.allSatisfy { property in rhs[property.name] == property.value }
    }

    /// The JSON text of the changes.
    public var json: String {
        var out = "{"
        // One allocation for most changes: their text, and room for names and escapes.
        out.reserveCapacity(
            properties.reduce(16) { total, property in
                if case let .text(text) = property.value { return total + text.utf8.count + text.utf8.count / 8 + 24 }
                return total + 40
            })
        for (index, property) in properties.enumerated() {
            if index > 0 { out += "," }
            Self.appendJSONString(property.name, to: &out)
            out += ":"
            switch property.value {
            case let .text(text): Self.appendJSONString(text, to: &out)
            case let .integer(value): out += String(value)
            case .null: out += "null"
            }
        }
        return out + "}"
    }

    /// Decodes the JSON text written by ``json``.
    public init?(json: String) {
        var text = json
        let scanned = text.withUTF8 { JSONScanner.object(UnsafeRawBufferPointer($0)) }
        if let members = scanned {
            for (name, value) in members.sorted(by: { $0.key < $1.key }) {
                switch value {
                case let .text(text): set(name, .text(text))
                case let .integer(number): set(name, .integer(number))
                case .null, .object, .other: set(name, .null)
                }
            }
            return
        }
        guard let data = json.data(using: .utf8),
            let object = try? JSONSerialization.jsonObject(with: data) as? [String: Any]
        else { return nil }
        for (name, value) in object.sorted(by: { $0.key < $1.key }) {
            switch value {
            case let text as String: set(name, .text(text))
            case let number as NSNumber: set(name, .integer(number.int64Value))
            default: set(name, .null)
            }
        }
    }

    /// The JSON escape of a byte that needs one (a quote, a backslash or a control character).
    private static func appendEscape(of byte: UInt8, to bytes: inout [UInt8]) {
        let hex: StaticString = "0123456789abcdef"
        bytes.append(0x5C)
        switch byte {
        case 0x22, 0x5C: bytes.append(byte)
        case 0x0A: bytes.append(0x6E)
        case 0x0D: bytes.append(0x72)
        case 0x09: bytes.append(0x74)
        default:
            bytes.append(0x75)
            bytes.append(0x30)
            bytes.append(0x30)
            bytes.append(hex.utf8Start[Int(byte >> 4)])
            bytes.append(hex.utf8Start[Int(byte & 0x0F)])
        }
    }

    /// Appends `text` as a JSON string: `"` and `\` escaped, line feed, carriage return and
    /// tab as `\n`, `\r` and `\t`, other control characters as `\u00xx`, the rest as itself.
    public static func appendJSONString(_ text: String, to out: inout String) {
        func needsEscape(_ byte: UInt8) -> Bool { byte < 0x20 || byte == 0x22 || byte == 0x5C }
        // Bytes are looked at in the string's own buffer (made contiguous when it is not): the
        // generic iterator costs more. Most text needs no escape and is appended in one piece;
        // else it is escaped into one buffer (every byte that needs it is ASCII), the runs
        // between escapes appended whole.
        var text = text
        let escaped: String? = text.withUTF8 { text in
            guard text.contains(where: needsEscape) else { return nil }
            var bytes: [UInt8] = []
            bytes.reserveCapacity(text.count + text.count / 16 + 8)
            var runStart = 0
            for (index, byte) in text.enumerated() where needsEscape(byte) {
                bytes.append(contentsOf: UnsafeBufferPointer(rebasing: text[runStart..<index]))
                appendEscape(of: byte, to: &bytes)
                runStart = index + 1
            }
            bytes.append(contentsOf: UnsafeBufferPointer(rebasing: text[runStart...]))
            return String(decoding: bytes, as: UTF8.self)
        }
        out += "\""
        out += escaped ?? text
        out += "\""
    }
}
