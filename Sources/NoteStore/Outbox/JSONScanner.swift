import Foundation

/// A fast reader of the JSON that the outbox and the transaction logs are made of: objects
/// whose values are text, whole numbers, null, or objects of those, three levels deep at most
/// (a change line, its `history`, and the `bases` in it).
///
/// It reads that shape only, strictly. Anything else (a fraction, `true`, an array, invalid
/// UTF-8, a raw control character, trailing bytes) makes it return nil, and the caller then
/// reads the text with `JSONSerialization`, which decides: the fast path changes how quickly
/// a log is read, never what it means. A log of 4 MiB holds tens of thousands of such lines.
///
/// It belongs to the store, which reads its own columns with it (an outbox row's changes and
/// history, an item's stamps, a tombstone's state, a version's context) on every export and
/// every change an import applies; sync reads the lines of logs with it as well.
public struct JSONScanner {
    /// A value the scanner reads.
    public enum Value {
        case text(String)
        case integer(Int64)
        case null
        case object([(key: String, value: Value)])
        /// A value of another kind (an array, `true`): never made by the scanner, which declines
        /// such text, but by a caller that converts what `JSONSerialization` read, so that one
        /// interpretation serves both.
        case other
    }

    private let bytes: UnsafeRawBufferPointer
    private var position = 0

    private init(_ bytes: UnsafeRawBufferPointer) {
        self.bytes = bytes
    }

    /// The members of the JSON object in `bytes`, in order, or nil when it is not an object of
    /// the shape above.
    public static func object(_ bytes: UnsafeRawBufferPointer) -> [(key: String, value: Value)]? {
        var scanner = JSONScanner(bytes)
        guard let members = scanner.object(depth: 0) else { return nil }
        scanner.skipSpace()
        return scanner.position == bytes.count ? members : nil
    }

    public static func object(_ data: some DataProtocol & ContiguousBytes) -> [(key: String, value: Value)]? {
        data.withUnsafeBytes { object($0) }
    }

    private mutating func skipSpace() {
        while position < bytes.count {
            switch bytes[position] {
            case 0x20, 0x09, 0x0A, 0x0D: position += 1
            default: return
            }
        }
    }

    private mutating func take(_ byte: UInt8) -> Bool {
        skipSpace()
        guard position < bytes.count, bytes[position] == byte else { return false }
        position += 1
        return true
    }

    private mutating func object(depth: Int) -> [(key: String, value: Value)]? {
        guard depth < 3, take(0x7B) else { return nil }  // { (a change line, its history, and the bases in it)
        var members: [(key: String, value: Value)] = []
        if take(0x7D) { return members }  // }
        repeat {
            skipSpace()
            guard let key = string(), take(0x3A), let value = value(depth: depth) else { return nil }  // :
            members.append((key, value))
        } while take(0x2C)  // ,
        return take(0x7D) ? members : nil
    }

    private mutating func value(depth: Int) -> Value? {
        skipSpace()
        guard position < bytes.count else { return nil }
        switch bytes[position] {
        case 0x22: return string().map(Value.text)
        case 0x7B: return object(depth: depth + 1).map(Value.object)
        case 0x6E:  // null
            guard bytes.count - position >= 4, bytes[position + 1] == 0x75, bytes[position + 2] == 0x6C,
                bytes[position + 3] == 0x6C
            else { return nil }
            position += 4
            return .null
        case 0x2D, 0x30...0x39: return integer().map(Value.integer)
        default: return nil
        }
    }

    /// A whole number: an optional minus and digits, without a leading zero, fraction or
    /// exponent, within 64 bits.
    private mutating func integer() -> Int64? {
        let negative = bytes[position] == 0x2D
        if negative { position += 1 }
        let start = position
        var magnitude: UInt64 = 0
        while position < bytes.count, (0x30...0x39).contains(bytes[position]) {
            let (times, overflow) = magnitude.multipliedReportingOverflow(by: 10)
            let (sum, overflow2) = times.addingReportingOverflow(UInt64(bytes[position] - 0x30))
            guard !overflow, !overflow2 else { return nil }
            magnitude = sum
            position += 1
        }
        let count = position - start
        guard count > 0, !(count > 1 && bytes[start] == 0x30) else { return nil }
        if position < bytes.count, [0x2E, 0x65, 0x45].contains(bytes[position]) { return nil }  // . e E
        if negative {
            guard magnitude <= UInt64(Int64.max) + 1 else { return nil }
            return magnitude == UInt64(Int64.max) + 1 ? Int64.min : -Int64(magnitude)
        }
        guard magnitude <= UInt64(Int64.max) else { return nil }
        return Int64(magnitude)
    }

    /// A string, with its escapes; nil for invalid UTF-8 or a raw control character.
    private mutating func string() -> String? {
        guard position < bytes.count, bytes[position] == 0x22 else { return nil }
        position += 1
        var pieces: [UInt8] = []
        var start = position
        while position < bytes.count {
            let byte = bytes[position]
            if byte == 0x22 {
                let tail = UnsafeRawBufferPointer(rebasing: bytes[start..<position])
                position += 1
                if pieces.isEmpty { return String(validating: tail, as: UTF8.self) }
                pieces.append(contentsOf: tail)
                return String(validating: pieces, as: UTF8.self)
            }
            if byte < 0x20 { return nil }
            if byte == 0x5C {
                pieces.append(contentsOf: UnsafeRawBufferPointer(rebasing: bytes[start..<position]))
                position += 1
                guard position < bytes.count else { return nil }
                let escaped = bytes[position]
                position += 1
                switch escaped {
                case 0x22, 0x5C, 0x2F: pieces.append(escaped)
                case 0x62: pieces.append(0x08)
                case 0x66: pieces.append(0x0C)
                case 0x6E: pieces.append(0x0A)
                case 0x72: pieces.append(0x0D)
                case 0x74: pieces.append(0x09)
                case 0x75:
                    guard let scalar = unicodeEscape() else { return nil }
                    pieces.append(contentsOf: Array(String(Character(scalar)).utf8))
                default: return nil
                }
                start = position
                continue
            }
            position += 1
        }
        return nil
    }

    /// The scalar of `\uXXXX` (the `\u` already read), with its low surrogate when it is a high one.
    private mutating func unicodeEscape() -> Unicode.Scalar? {
        guard let first = hexQuad() else { return nil }
        if (0xD800...0xDBFF).contains(first) {
            guard bytes.count - position >= 6, bytes[position] == 0x5C, bytes[position + 1] == 0x75 else { return nil }
            position += 2
            guard let second = hexQuad(), (0xDC00...0xDFFF).contains(second) else { return nil }
            return Unicode.Scalar(0x10000 + ((first - 0xD800) << 10) + (second - 0xDC00))
        }
        return Unicode.Scalar(first)
    }

    private mutating func hexQuad() -> UInt32? {
        guard bytes.count - position >= 4 else { return nil }
        var value: UInt32 = 0
        for _ in 0..<4 {
            let byte = bytes[position]
            let digit: UInt8
            switch byte {
            case 0x30...0x39: digit = byte - 0x30
            case 0x61...0x66: digit = byte - 0x61 + 10
            case 0x41...0x46: digit = byte - 0x41 + 10
            default: return nil
            }
            value = value << 4 | UInt32(digit)
            position += 1
        }
        return value
    }
}
