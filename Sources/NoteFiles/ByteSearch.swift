import Foundation

/// Finding bytes in text with memchr(3): the standard library's generic searches over
/// `Substring` go a character at a time, which costs more than reading the file did.
public enum ByteSearch {
    /// The byte offset of the first `needle` (not empty) in `buffer` at or after `start`.
    public static func firstOffset(of needle: [UInt8], in buffer: UnsafeRawBufferPointer, from start: Int = 0) -> Int? {
        guard let base = buffer.baseAddress, let first = needle.first else { return nil }
        var offset = start
        while offset + needle.count <= buffer.count,
            let found = memchr(base + offset, Int32(first), buffer.count - offset - needle.count + 1)
        {
            let at = base.distance(to: UnsafeRawPointer(found))
            if needle.withUnsafeBytes({ memcmp(base + at, $0.baseAddress!, needle.count) }) == 0 { return at }
            offset = at + 1
        }
        return nil
    }

    /// The range of the first `needle` in `text` at or after `start`.
    public static func firstRange(of needle: [UInt8], in text: Substring, from start: Substring.Index? = nil) -> Range<
        Substring.Index
    >? {
        let utf8 = text.utf8
        let startOffset = start.map { utf8.distance(from: utf8.startIndex, to: $0) } ?? 0
        let found: Int?? = utf8.withContiguousStorageIfAvailable { buffer in
            firstOffset(of: needle, in: UnsafeRawBufferPointer(buffer), from: startOffset)
        }
        let offset: Int?
        if let found {
            offset = found
        } else {
            // Not contiguous (a bridged string): the slow way, which gives the same answer.
            var copy = String(text)
            offset = copy.withUTF8 { firstOffset(of: needle, in: UnsafeRawBufferPointer($0), from: startOffset) }
        }
        guard let offset else { return nil }
        let lower = utf8.index(utf8.startIndex, offsetBy: offset)
        return lower..<utf8.index(lower, offsetBy: needle.count)
    }

    /// Whether `text` holds `needle` (not empty), byte for byte.
    public static func contains(_ needle: [UInt8], in text: String) -> Bool {
        firstRange(of: needle, in: text[...]) != nil
    }

    /// The range of the last `needle` in `text`.
    public static func lastRange(of needle: [UInt8], in text: Substring) -> Range<Substring.Index>? {
        var last: Range<Substring.Index>?
        var from = text.startIndex
        while let range = firstRange(of: needle, in: text, from: from) {
            last = range
            from = text.utf8.index(after: range.lowerBound)
        }
        return last
    }
}
