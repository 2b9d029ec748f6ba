/// A cursor over a run of bytes that never reads outside it.
///
/// Every read checks the bytes left first and throws the reader's `exhausted` problem instead of
/// reading past the end, so the inspectors can follow sizes found in a file without trusting them.
/// A reader narrowed to part of the bytes (``reader(taking:whenExhausted:)``) shares the storage
/// and keeps offsets counted from the start of the file, so messages can say where a problem is.
struct ByteReader {
    private let bytes: [UInt8]
    private let end: Int
    /// The problem thrown when a read needs more bytes than are left.
    let exhausted: ImageProblem
    /// Where the next read starts, counted from the first byte of the file.
    private(set) var offset: Int

    init(_ bytes: [UInt8], whenExhausted exhausted: ImageProblem) {
        self.init(bytes, from: 0, to: bytes.count, whenExhausted: exhausted)
    }

    private init(_ bytes: [UInt8], from start: Int, to end: Int, whenExhausted exhausted: ImageProblem) {
        self.bytes = bytes
        self.offset = start
        self.end = end
        self.exhausted = exhausted
    }

    /// How many bytes are left to read.
    var remaining: Int { end - offset }

    /// True when every byte has been read.
    var isAtEnd: Bool { offset >= end }

    /// The byte `distance` bytes ahead of the cursor, or nil past the end; the cursor stays.
    func peek(at distance: Int = 0) -> UInt8? {
        guard distance >= 0, distance < remaining else { return nil }
        return bytes[offset + distance]
    }

    /// True when the next bytes are exactly `expected`; the cursor stays.
    func hasPrefix(_ expected: [UInt8]) -> Bool {
        guard expected.count <= remaining else { return false }
        return bytes[offset..<(offset + expected.count)].elementsEqual(expected)
    }

    mutating func readByte() throws(ImageProblem) -> UInt8 {
        guard remaining >= 1 else { throw exhausted }
        defer { offset += 1 }
        return bytes[offset]
    }

    /// The next `count` bytes, as a slice of the file (indices are file offsets).
    mutating func readBytes(_ count: Int) throws(ImageProblem) -> ArraySlice<UInt8> {
        guard count >= 0, count <= remaining else { throw exhausted }
        defer { offset += count }
        return bytes[offset..<(offset + count)]
    }

    mutating func skip(_ count: Int) throws(ImageProblem) {
        guard count >= 0, count <= remaining else { throw exhausted }
        offset += count
    }

    /// Moves the cursor to the next occurrence of `byte`, leaving it unread.
    mutating func skip(toNext byte: UInt8) throws(ImageProblem) {
        guard let found = bytes[offset..<end].firstIndex(of: byte) else {
            offset = end
            throw exhausted
        }
        offset = found
    }

    /// A reader over the next `count` bytes, which this reader then skips.
    ///
    /// The new reader throws `exhausted` when a read runs past those bytes; this one throws its
    /// own problem when fewer than `count` bytes are left.
    mutating func reader(taking count: Int, whenExhausted exhausted: ImageProblem) throws(ImageProblem)
        -> ByteReader
    {
        guard count >= 0, count <= remaining else { throw self.exhausted }
        defer { offset += count }
        return ByteReader(bytes, from: offset, to: offset + count, whenExhausted: exhausted)
    }

    mutating func readUInt16BigEndian() throws(ImageProblem) -> Int {
        try readInteger(byteCount: 2, bigEndian: true)
    }

    mutating func readUInt16LittleEndian() throws(ImageProblem) -> Int {
        try readInteger(byteCount: 2, bigEndian: false)
    }

    mutating func readUInt24LittleEndian() throws(ImageProblem) -> Int {
        try readInteger(byteCount: 3, bigEndian: false)
    }

    mutating func readUInt32BigEndian() throws(ImageProblem) -> UInt32 {
        UInt32(truncatingIfNeeded: try readInteger(byteCount: 4, bigEndian: true))
    }

    mutating func readUInt32LittleEndian() throws(ImageProblem) -> UInt32 {
        UInt32(truncatingIfNeeded: try readInteger(byteCount: 4, bigEndian: false))
    }

    /// An unsigned integer of up to 4 bytes, gathered in a `UInt64` so it never overflows.
    private mutating func readInteger(byteCount: Int, bigEndian: Bool) throws(ImageProblem) -> Int {
        let field = try readBytes(byteCount)
        var value: UInt64 = 0
        for (position, byte) in field.enumerated() {
            let shift = bigEndian ? (byteCount - 1 - position) * 8 : position * 8
            value |= UInt64(byte) << UInt64(shift)
        }
        return Int(truncatingIfNeeded: value)
    }
}
