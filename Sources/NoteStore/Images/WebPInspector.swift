/// Checks a WebP file: its RIFF container, every chunk, and the headers of its bitstreams.
///
/// Verified: "RIFF", a size that accounts for exactly the bytes of the file, "WEBP"; every chunk
/// header complete, its payload and padding byte within the data around it. The first chunk
/// decides the layout:
/// - VP8 (simple lossy) or VP8L (simple lossless): the only chunk, with a valid bitstream header.
/// - VP8X (extended): 10 bytes, a canvas of at most 2^32-1 pixels, then either one still image
///   (an optional ALPH, then one VP8 or VP8L whose size is the canvas size) or, with the
///   animation flag, an ANIM chunk followed by at least one ANMF frame that lies within the canvas
///   and holds an optional ALPH and one VP8 or VP8L. Other chunks (ICCP, EXIF, XMP, unknown
///   ones) are skipped, as readers must.
/// The size reported is the canvas size for VP8X, else the bitstream's. See RFC 9649.
struct WebPInspector {
    /// One chunk: its four-character code, where it starts, and a reader over its payload.
    struct Chunk {
        let tag: String
        let offset: Int
        let payload: ByteReader

        private static let knownTags: Set<String> = [
            "VP8 ", "VP8L", "VP8X", "ALPH", "ANIM", "ANMF", "ICCP", "EXIF", "XMP ",
        ]

        /// The chunk as named in messages, such as "VP8 chunk at byte 12"; no unknown tag is shown.
        var name: String {
            let tagName = Self.knownTags.contains(tag) ? String(tag.prefix { $0 != " " }) : "unknown"
            return "\(tagName) chunk at byte \(offset)"
        }
    }

    static func inspect(_ bytes: [UInt8]) throws(ImageProblem) -> ImageInfo {
        var reader = ByteReader(bytes, whenExhausted: .truncated(.webp))
        try reader.skip(4)  // "RIFF", checked by ImageInspector
        guard let riffSize = Int(exactly: try reader.readUInt32LittleEndian()) else {
            throw ImageProblem.truncated(.webp)
        }
        guard riffSize <= reader.remaining else { throw ImageProblem.truncated(.webp) }
        guard riffSize == reader.remaining else {
            throw corrupt(
                "RIFF size \(riffSize) leaves \(reader.remaining - riffSize) bytes of the file outside it")
        }
        try reader.skip(4)  // "WEBP", checked by ImageInspector
        var body = try reader.reader(
            taking: reader.remaining, whenExhausted: corrupt("RIFF data ends inside a chunk"))
        let first = try readChunk(from: &body, container: "the RIFF data")
        let size: (width: Int, height: Int)
        switch first.tag {
        case "VP8 ":
            size = try WebPBitstream.size(ofLossy: first.payload, at: first.offset)
        case "VP8L":
            size = try WebPBitstream.size(ofLossless: first.payload, at: first.offset)
        case "VP8X":
            var extended = try WebPExtendedLayout(first)
            while !body.isAtEnd {
                try extended.accept(try readChunk(from: &body, container: "the RIFF data"))
            }
            try extended.finish()
            size = extended.canvas
        default:
            throw corrupt("\(first.name) comes first, expected VP8, VP8L or VP8X")
        }
        guard body.isAtEnd else {
            throw corrupt("chunk at byte \(body.offset) follows the only image chunk of a simple file")
        }
        return ImageInfo(format: .webp, width: size.width, height: size.height)
    }

    /// Reads a chunk header and skips its payload and padding byte, all within `reader`.
    static func readChunk(from reader: inout ByteReader, container: String) throws(ImageProblem) -> Chunk {
        let offset = reader.offset
        guard reader.remaining >= 8 else {
            throw corrupt("incomplete chunk header at byte \(offset) in \(container)")
        }
        let tag = String(decoding: try reader.readBytes(4), as: UTF8.self)
        let rawSize = try reader.readUInt32LittleEndian()
        let header = Chunk(tag: tag, offset: offset, payload: reader)
        guard let size = Int(exactly: rawSize), size <= reader.remaining else {
            throw corrupt("\(header.name) extends past the end of \(container)")
        }
        let payload = try reader.reader(taking: size, whenExhausted: corrupt("\(header.name) is too short"))
        if size % 2 == 1 {
            guard reader.remaining >= 1 else { throw corrupt("\(header.name) lacks its padding byte") }
            try reader.skip(1)
        }
        return Chunk(tag: tag, offset: offset, payload: payload)
    }

    static func corrupt(_ reason: String) -> ImageProblem {
        .corrupt(.webp, reason)
    }
}
