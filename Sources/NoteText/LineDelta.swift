#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A text stored as its differences from another text: runs of the other text's lines to copy,
/// and bytes to insert.
///
/// Encoding: a version byte (1), then operations, each a LEB128 number whose low bit tells the
/// kind: `2n` copies lines (followed by the number of the first line), `2n + 1` inserts the `n`
/// bytes that follow. Decoding checks every bound: damaged bytes throw, never crash.
public struct LineDelta: Equatable, Sendable {
    public enum Operation: Equatable, Sendable {
        case copy(start: Int, count: Int)
        case insert([UInt8])
    }

    public private(set) var operations: [Operation]

    /// The delta that turns `base` into `text`.
    ///
    /// The lines the two texts share at their start and at their end are found by comparing
    /// bytes, and only the lines between are split and diffed (``LineDiff``): an edit of one
    /// line of a long text costs about a comparison of the two texts' bytes. The delta is the
    /// one the diff of all the lines gives, which trims the same lines first.
    public static func make(from base: String, to text: String) -> LineDelta {
        var base = base
        var text = text
        let shared = base.withUTF8 { old in text.withUTF8 { new in SharedLines(old, new) } }
        let baseLines = TextLines.split(shared.middle(of: base))
        let lines = TextLines.split(shared.middle(of: text, isBase: false))
        var operations: [Operation] = []
        var position = 0
        for hunk in LineDiff.hunks(from: baseLines, to: lines) {
            let old = (hunk.old.lowerBound + shared.headLines)..<(hunk.old.upperBound + shared.headLines)
            if old.lowerBound > position {
                operations.append(.copy(start: position, count: old.lowerBound - position))
            }
            if !hunk.new.isEmpty { operations.append(.insert(Array(lines[hunk.new].joined().utf8))) }
            position = old.upperBound
        }
        let baseLineCount = shared.headLines + baseLines.count + shared.tailLines
        if baseLineCount > position { operations.append(.copy(start: position, count: baseLineCount - position)) }
        return LineDelta(operations: operations)
    }

    /// The whole lines that two texts share at their start (the head) and at their end (the
    /// tail, which never reaches into the head of either).
    private struct SharedLines {
        /// The bytes and the lines of the head.
        var headBytes = 0
        var headLines = 0
        /// The bytes of the tail in each text, and its lines.
        var tailBytes = 0
        var tailLines = 0
        let counts: (old: Int, new: Int)

        init(_ old: UnsafeBufferPointer<UInt8>, _ new: UnsafeBufferPointer<UInt8>) {
            counts = (old.count, new.count)
            let shorter = min(old.count, new.count)
            var prefix = 0
            // Blocks first: memcmp is far faster than a loop of bytes.
            let block = 4_096
            while prefix + block <= shorter,
                memcmp(old.baseAddress! + prefix, new.baseAddress! + prefix, block) == 0
            {
                prefix += block
            }
            while prefix < shorter, old[prefix] == new[prefix] { prefix += 1 }
            // The head ends after the last line break of the shared bytes.
            var head = prefix
            while head > 0, old[head - 1] != 0x0A { head -= 1 }
            headBytes = head
            headLines = Self.breaks(in: UnsafeBufferPointer(rebasing: old[0..<head]))
            // The shared bytes at the end, within what the head leaves of the shorter text.
            let room = shorter - head
            var suffix = 0
            while suffix + block <= room,
                memcmp(
                    old.baseAddress! + old.count - suffix - block, new.baseAddress! + new.count - suffix - block, block)
                    == 0
            {
                suffix += block
            }
            while suffix < room, old[old.count - 1 - suffix] == new[new.count - 1 - suffix] { suffix += 1 }
            // The tail starts after a line break inside the shared bytes: the bytes before those
            // differ, so a break just before them is not in both texts.
            var tail = old.count - suffix
            while tail < old.count, old[tail] != 0x0A { tail += 1 }
            tail = min(tail + 1, old.count)
            tailBytes = old.count - tail
            let tailText = UnsafeBufferPointer(rebasing: old[tail...])
            tailLines = Self.breaks(in: tailText) + (tailText.last.map { $0 != 0x0A } == true ? 1 : 0)
        }

        /// The text between the head and the tail.
        func middle(of text: String, isBase: Bool = true) -> String {
            var text = text
            let count = isBase ? counts.old : counts.new
            return text.withUTF8 {
                String(decoding: UnsafeBufferPointer(rebasing: $0[headBytes..<(count - tailBytes)]), as: UTF8.self)
            }
        }

        private static func breaks(in bytes: UnsafeBufferPointer<UInt8>) -> Int {
            var count = 0
            for byte in bytes where byte == 0x0A { count += 1 }
            return count
        }
    }

    init(operations: [Operation]) {
        self.operations = operations
    }

    /// The text the delta makes of `base`, at most `limit` bytes of UTF-8: a delta from an
    /// untrusted source can copy the same lines again and again.
    public func apply(to base: String, limit: Int = .max) throws(LineDeltaError) -> String {
        var base = base
        base.makeContiguousUTF8()
        let made = base.utf8.withContiguousStorageIfAvailable { text in
            Result { () throws(LineDeltaError) -> String in try apply(to: text, limit: limit) }
        }
        // A contiguous string always has its storage at hand.
        guard let made else { throw .doesNotFit }
        return try made.get()
    }

    /// The text the delta makes of the UTF-8 bytes of a text: each copied run of lines is one
    /// copy of bytes, found through the offsets of the text's line breaks, straight into the
    /// new text's storage once its size is known.
    private func apply(to text: UnsafeBufferPointer<UInt8>, limit: Int) throws(LineDeltaError) -> String {
        // bounds[k] is where line k starts; the last one is where the text ends. Line breaks
        // are found by memchr, many bytes at a time: a 10 MB text has 200,000 lines.
        var bounds: [Int] = [0]
        if let start = text.baseAddress {
            var position = 0
            while position < text.count,
                let found = memchr(start + position, 0x0A, text.count - position)
            {
                position = start.distance(to: found.assumingMemoryBound(to: UInt8.self)) + 1
                bounds.append(position)
            }
        }
        if bounds[bounds.count - 1] != text.count { bounds.append(text.count) }
        let lineCount = bounds.count - 1
        var size = 0
        for operation in operations {
            switch operation {
            case let .copy(start, count):
                guard start >= 0, count >= 0, start <= lineCount, count <= lineCount - start else { throw .doesNotFit }
                guard bounds[start + count] - bounds[start] <= limit - size else { throw .tooLarge }
                size += bounds[start + count] - bounds[start]
            case let .insert(inserted):
                guard inserted.count <= limit - size else { throw .tooLarge }
                size += inserted.count
            }
        }
        guard size > 0 else { return "" }
        // Checked as UTF-8 as it is made (a byte that is not is read as U+FFFD), as
        // `String(decoding:as:)` would.
        return String(unsafeUninitializedCapacity: size) { made in
            var written = 0
            for operation in operations {
                switch operation {
                case let .copy(start, count):
                    let (from, to) = (bounds[start], bounds[start + count])
                    guard to > from else { continue }
                    _ = UnsafeMutableBufferPointer(rebasing: made[written..<written + to - from])
                        .initialize(from: UnsafeBufferPointer(rebasing: text[from..<to]))
                    written += to - from
                case let .insert(inserted):
                    _ = UnsafeMutableBufferPointer(rebasing: made[written..<written + inserted.count])
                        .initialize(from: inserted)
                    written += inserted.count
                }
            }
            return written
        }
    }

    public var encoded: [UInt8] {
        var bytes: [UInt8] = [1]
        for operation in operations {
            switch operation {
            case let .copy(start, count):
                Self.append(UInt64(count) << 1, to: &bytes)
                Self.append(UInt64(start), to: &bytes)
            case let .insert(inserted):
                Self.append(UInt64(inserted.count) << 1 | 1, to: &bytes)
                bytes += inserted
            }
        }
        return bytes
    }

    public init(decoding bytes: [UInt8]) throws(LineDeltaError) {
        guard bytes.first == 1 else { throw .damaged }
        var position = 1
        var operations: [Operation] = []
        while position < bytes.count {
            let head = try Self.number(bytes, &position)
            let length = Int(head >> 1)
            if head & 1 == 1 {
                guard length <= bytes.count - position else { throw .damaged }
                operations.append(.insert(Array(bytes[position..<(position + length)])))
                position += length
            } else {
                let start = try Self.number(bytes, &position)
                guard start <= UInt64(Int32.max) else { throw .damaged }
                operations.append(.copy(start: Int(start), count: length))
            }
        }
        self.operations = operations
    }

    private static func append(_ value: UInt64, to bytes: inout [UInt8]) {
        var value = value
        repeat {
            let low = UInt8(value & 0x7F)
            value >>= 7
            bytes.append(value == 0 ? low : low | 0x80)
        } while value != 0
    }

    private static func number(_ bytes: [UInt8], _ position: inout Int) throws(LineDeltaError) -> UInt64 {
        var value: UInt64 = 0
        var shift: UInt64 = 0
        while true {
            guard position < bytes.count, shift <= 56 else { throw .damaged }
            let byte = bytes[position]
            position += 1
            value |= UInt64(byte & 0x7F) << shift
            if byte & 0x80 == 0 {
                guard value >> 62 == 0 else { throw .damaged }
                return value
            }
            shift += 7
        }
    }
}

/// Why a delta cannot be read or used.
public enum LineDeltaError: Error, CustomStringConvertible, Sendable {
    /// The bytes are not a delta.
    case damaged
    /// The delta names lines the base does not have.
    case doesNotFit
    /// The text it makes is larger than the bound it was applied with.
    case tooLarge

    public var description: String {
        switch self {
        case .damaged: return "the delta is damaged"
        case .doesNotFit: return "the delta does not fit its base text"
        case .tooLarge: return "the delta makes a text larger than allowed"
        }
    }
}
