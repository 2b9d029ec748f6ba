/// Checks a GIF file block by block, from the header to the trailer, as GIF89a lays it out.
///
/// Verified: the "GIF87a" or "GIF89a" header; the logical screen descriptor with a non-zero
/// width and height; the global colour table when flagged; then every block: extensions (label,
/// then data sub-blocks up to the terminator; a graphic control extension must be 4 bytes) and
/// images (descriptor, local colour table when flagged, LZW minimum code size 2 to 8, at least one
/// byte of data in sub-blocks up to the terminator); at least one image; the trailer (0x3B) with
/// nothing after it. Frames need not lie within the screen, and LZW data is not decoded.
/// See https://www.w3.org/Graphics/GIF/spec-gif89a.txt.
struct GIFInspector {
    private var reader: ByteReader
    private var imageCount = 0

    private init(reader: ByteReader) {
        self.reader = reader
    }

    static func inspect(_ bytes: [UInt8]) throws(ImageProblem) -> ImageInfo {
        var inspector = GIFInspector(reader: ByteReader(bytes, whenExhausted: .truncated(.gif)))
        return try inspector.inspect()
    }

    private mutating func inspect() throws(ImageProblem) -> ImageInfo {
        let header = try reader.readBytes(6)
        guard header.elementsEqual("GIF87a".utf8) || header.elementsEqual("GIF89a".utf8) else {
            throw Self.corrupt("unknown version in header")
        }
        let width = try reader.readUInt16LittleEndian()
        let height = try reader.readUInt16LittleEndian()
        guard width > 0, height > 0 else { throw Self.corrupt("logical screen size is 0") }
        let flags = try reader.readByte()
        try reader.skip(2)  // background colour index, pixel aspect ratio
        try skipColourTable(flags: flags)
        while try readBlock() {}
        guard imageCount > 0 else { throw Self.corrupt("no image before the trailer") }
        guard reader.isAtEnd else {
            throw Self.corrupt("\(reader.remaining) bytes after the trailer at byte \(reader.offset)")
        }
        return ImageInfo(format: .gif, width: width, height: height)
    }

    /// Reads one block; false when it is the trailer.
    private mutating func readBlock() throws(ImageProblem) -> Bool {
        let offset = reader.offset
        switch try reader.readByte() {
        case 0x21:
            try readExtension(at: offset)
        case 0x2C:
            try readImage(at: offset)
            imageCount += 1
        case 0x3B:
            return false
        default:
            throw Self.corrupt("unknown block type at byte \(offset)")
        }
        return true
    }

    private mutating func readExtension(at offset: Int) throws(ImageProblem) {
        let label = try reader.readByte()
        if label == 0xF9, let size = reader.peek(), size != 4 {
            throw Self.corrupt("graphic control extension at byte \(offset) is not 4 bytes long")
        }
        _ = try skipSubBlocks()
    }

    /// Reads an image descriptor, its local colour table and its LZW-coded data.
    private mutating func readImage(at offset: Int) throws(ImageProblem) {
        try reader.skip(8)  // left, top, width, height
        let flags = try reader.readByte()
        try skipColourTable(flags: flags)
        let codeSize = try reader.readByte()
        guard (2...8).contains(codeSize) else {
            throw Self.corrupt("image at byte \(offset) has LZW minimum code size \(codeSize), not 2 to 8")
        }
        guard try skipSubBlocks() > 0 else { throw Self.corrupt("image at byte \(offset) has no data") }
    }

    /// Skips a colour table when the flags byte (screen or image descriptor) says one follows.
    private mutating func skipColourTable(flags: UInt8) throws(ImageProblem) {
        guard flags & 0x80 != 0 else { return }
        try reader.skip(3 << (Int(flags & 0x07) + 1))
    }

    /// Skips data sub-blocks up to and including the empty one that ends them; returns the bytes of data.
    private mutating func skipSubBlocks() throws(ImageProblem) -> Int {
        var total = 0
        while true {
            let size = Int(try reader.readByte())
            if size == 0 { return total }
            try reader.skip(size)
            total += size
        }
    }

    static func corrupt(_ reason: String) -> ImageProblem {
        .corrupt(.gif, reason)
    }
}
