import Foundation

/// The value of a note's property: what a front matter block holds, as JSON holds it. Maps keep
/// the order of their keys, so that a note's front matter is written back as it was read.
public indirect enum PropertyValue: Sendable, Hashable {
    case null
    case bool(Bool)
    /// A whole number that fits 64 bits.
    case integer(Int64)
    /// Any other number.
    case number(Double)
    case string(String)
    case list([PropertyValue])
    case map([(key: String, value: PropertyValue)])

    /// At most this many bytes in the JSON of one value.
    public static let maximumBytes = 65_536
    /// At most this many levels of lists and maps.
    public static let maximumDepth = 32

    public static func == (lhs: PropertyValue, rhs: PropertyValue) -> Bool {
        switch (lhs, rhs) {
        case (.null, .null): return true
        case let (.bool(a), .bool(b)): return a == b
        case let (.integer(a), .integer(b)): return a == b
        case let (.number(a), .number(b)): return a == b
        case let (.string(a), .string(b)): return a == b
        case let (.list(a), .list(b)): return a == b
        case let (.map(a), .map(b)): return a.map(\.key) == b.map(\.key) && a.map(\.value) == b.map(\.value)
        default: return false
        }
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(json)
    }

    /// The value of a member of a map; nil for a map without it, or another value.
    public subscript(key: String) -> PropertyValue? {
        guard case let .map(pairs) = self else { return nil }
        return pairs.first { $0.key == key }?.value
    }

    /// The strings of a list of strings, or a string alone: how tags and aliases are given.
    public var strings: [String] {
        switch self {
        case let .string(text): return [text]
        case let .list(items): return items.compactMap { if case let .string(text) = $0 { text } else { nil } }
        default: return []
        }
    }

    /// The value as compact JSON, keys in their order.
    public var json: String {
        var out = ""
        append(to: &out)
        return out
    }

    private func append(to out: inout String) {
        switch self {
        case .null: out += "null"
        case let .bool(value): out += value ? "true" : "false"
        case let .integer(value): out += String(value)
        case let .number(value): out += Self.numberText(value)
        case let .string(text): OutboxChanges.appendJSONString(text, to: &out)
        case let .list(items):
            out += "["
            for (index, item) in items.enumerated() {
                if index > 0 { out += "," }
                item.append(to: &out)
            }
            out += "]"
        case let .map(pairs):
            out += "{"
            for (index, pair) in pairs.enumerated() {
                if index > 0 { out += "," }
                OutboxChanges.appendJSONString(pair.key, to: &out)
                out += ":"
                pair.value.append(to: &out)
            }
            out += "}"
        }
    }

    /// A number as JSON writes it: the shortest text that reads back as the same number; a
    /// number that is not finite has no JSON, and is written `null`.
    static func numberText(_ value: Double) -> String {
        guard value.isFinite else { return "null" }
        if value == value.rounded(), abs(value) < 1e15 { return String(format: "%.1f", value) }
        return "\(value)"
    }

    /// Reads JSON text (one value, white space around it allowed) with map keys in order; nil
    /// when it is not JSON, nests deeper than ``maximumDepth`` or is longer than
    /// ``maximumBytes``.
    public init?(json text: String) {
        self.init(json: text, maximumBytes: Self.maximumBytes)
    }

    /// Reads JSON text of at most `maximumBytes` bytes, as ``init(json:)`` does: a whole line of
    /// an export, whose members hold properties.
    public init?(json text: String, maximumBytes: Int) {
        guard text.utf8.count <= maximumBytes else { return nil }
        var reader = Reader(bytes: Array(text.utf8))
        guard let value = reader.value(depth: 0) else { return nil }
        reader.skipSpace()
        guard reader.index == reader.bytes.count else { return nil }
        self = value
    }

    /// Why the value cannot be a property's, or nil: its JSON is at most ``maximumBytes``, it
    /// nests at most ``maximumDepth`` levels, its strings and keys have no control character
    /// but line breaks and tabs, and its numbers are finite.
    public var problem: String? {
        if json.utf8.count > Self.maximumBytes {
            return "the value takes \(json.utf8.count) bytes as JSON, more than \(Self.maximumBytes)"
        }
        return problem(depth: 0)
    }

    private func problem(depth: Int) -> String? {
        if depth > Self.maximumDepth { return "the value nests more than \(Self.maximumDepth) levels" }
        switch self {
        case .null, .bool, .integer: return nil
        case let .number(value): return value.isFinite ? nil : "a number is not finite"
        case let .string(text): return Self.textProblem(text)
        case let .list(items):
            for item in items { if let problem = item.problem(depth: depth + 1) { return problem } }
            return nil
        case let .map(pairs):
            var keys = Set<String>()
            for pair in pairs {
                if !keys.insert(pair.key).inserted { return "the key '\(pair.key)' is given twice" }
                if let problem = Self.textProblem(pair.key) ?? pair.value.problem(depth: depth + 1) { return problem }
            }
            return nil
        }
    }

    private static func textProblem(_ text: String) -> String? {
        guard
            let control = ControlCharacters.first(
                in: text.replacingOccurrences(of: "\n", with: "").replacingOccurrences(of: "\t", with: ""))
        else { return nil }
        return "a value contains \(ControlCharacters.describe(control))"
    }

    /// A reader of JSON over its UTF-8 bytes.
    private struct Reader {
        let bytes: [UInt8]
        var index = 0

        mutating func skipSpace() {
            while index < bytes.count, [0x20, 0x09, 0x0A, 0x0D].contains(bytes[index]) { index += 1 }
        }

        mutating func value(depth: Int) -> PropertyValue? {
            guard depth <= PropertyValue.maximumDepth else { return nil }
            skipSpace()
            guard index < bytes.count else { return nil }
            switch bytes[index] {
            case 0x7B: return map(depth: depth)
            case 0x5B: return list(depth: depth)
            case 0x22: return string().map(PropertyValue.string)
            case 0x74: return word("true", .bool(true))
            case 0x66: return word("false", .bool(false))
            case 0x6E: return word("null", .null)
            default: return number()
            }
        }

        private mutating func word(_ text: String, _ value: PropertyValue) -> PropertyValue? {
            let utf8 = Array(text.utf8)
            guard bytes.count - index >= utf8.count, bytes[index..<index + utf8.count].elementsEqual(utf8) else {
                return nil
            }
            index += utf8.count
            return value
        }

        private mutating func number() -> PropertyValue? {
            let start = index
            var isInteger = true
            while index < bytes.count {
                let byte = bytes[index]
                if (0x30...0x39).contains(byte) || byte == 0x2D {
                } else if byte == 0x2E || byte == 0x65 || byte == 0x45 || byte == 0x2B {
                    isInteger = false
                } else {
                    break
                }
                index += 1
            }
            guard index > start, let text = String(bytes: bytes[start..<index], encoding: .utf8) else { return nil }
            if isInteger, let value = Int64(text) { return .integer(value) }
            guard let value = Double(text), value.isFinite,
                text.range(of: #"^-?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)?$"#, options: .regularExpression) != nil
            else { return nil }
            return .number(value)
        }

        private mutating func list(depth: Int) -> PropertyValue? {
            index += 1
            var items: [PropertyValue] = []
            skipSpace()
            if index < bytes.count, bytes[index] == 0x5D {
                index += 1
                return .list(items)
            }
            while true {
                guard let item = value(depth: depth + 1) else { return nil }
                items.append(item)
                skipSpace()
                guard index < bytes.count else { return nil }
                if bytes[index] == 0x2C { index += 1; continue }
                if bytes[index] == 0x5D { index += 1; return .list(items) }
                return nil
            }
        }

        private mutating func map(depth: Int) -> PropertyValue? {
            index += 1
            var pairs: [(key: String, value: PropertyValue)] = []
            skipSpace()
            if index < bytes.count, bytes[index] == 0x7D {
                index += 1
                return .map(pairs)
            }
            while true {
                skipSpace()
                guard index < bytes.count, bytes[index] == 0x22, let key = string() else { return nil }
                skipSpace()
                guard index < bytes.count, bytes[index] == 0x3A else { return nil }
                index += 1
                guard let item = value(depth: depth + 1) else { return nil }
                pairs.append((key, item))
                skipSpace()
                guard index < bytes.count else { return nil }
                if bytes[index] == 0x2C { index += 1; continue }
                if bytes[index] == 0x7D { index += 1; return .map(pairs) }
                return nil
            }
        }

        private mutating func string() -> String? {
            index += 1
            var out: [UInt8] = []
            while index < bytes.count {
                let byte = bytes[index]
                index += 1
                switch byte {
                case 0x22: return String(bytes: out, encoding: .utf8)
                case 0x5C:
                    guard index < bytes.count else { return nil }
                    let escape = bytes[index]
                    index += 1
                    switch escape {
                    case 0x22, 0x5C, 0x2F: out.append(escape)
                    case 0x62: out.append(0x08)
                    case 0x66: out.append(0x0C)
                    case 0x6E: out.append(0x0A)
                    case 0x72: out.append(0x0D)
                    case 0x74: out.append(0x09)
                    case 0x75:
                        guard var scalar = hex4() else { return nil }
                        if (0xD800...0xDBFF).contains(scalar) {
                            guard index + 1 < bytes.count, bytes[index] == 0x5C, bytes[index + 1] == 0x75 else {
                                return nil
                            }
                            index += 2
                            guard let low = hex4(), (0xDC00...0xDFFF).contains(low) else { return nil }
                            scalar = 0x10000 + ((scalar - 0xD800) << 10) + (low - 0xDC00)
                        }
                        guard let unicode = Unicode.Scalar(scalar) else { return nil }
                        out.append(contentsOf: Array(String(Character(unicode)).utf8))
                    default: return nil
                    }
                default:
                    guard byte >= 0x20 else { return nil }
                    out.append(byte)
                }
            }
            return nil
        }

        private mutating func hex4() -> UInt32? {
            guard bytes.count - index >= 4, let text = String(bytes: bytes[index..<index + 4], encoding: .ascii),
                let value = UInt32(text, radix: 16)
            else { return nil }
            index += 4
            return value
        }
    }
}
