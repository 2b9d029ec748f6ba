/// Checks a PNG file chunk by chunk, as the PNG specification lays it out.
///
/// Verified: the 8-byte signature; every chunk's length (at most 2^31-1 and within the data),
/// type (four ASCII letters) and CRC-32; IHDR first (see ``PNGHeader``); PLTE before IDAT, once,
/// where the colour type needs or allows one; at least one IDAT, all IDATs consecutive; no
/// unknown critical chunk; IEND last and empty, with nothing after it. Compressed data is not
/// inflated. See https://www.w3.org/TR/png-3/#5DataRep.
struct PNGInspector {
    static let signature: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]

    /// The chunk types named in messages; any other is called an "unregistered chunk".
    private static let registeredTypes: Set<String> = [
        "IHDR", "PLTE", "IDAT", "IEND", "tRNS", "cHRM", "gAMA", "iCCP", "sBIT", "sRGB", "cICP",
        "mDCV", "cLLI", "tEXt", "zTXt", "iTXt", "bKGD", "hIST", "pHYs", "sPLT", "eXIf", "tIME",
        "acTL", "fcTL", "fdAT",
    ]

    /// One chunk whose length, type and CRC have been verified.
    private struct Chunk {
        let type: String
        let offset: Int
        let data: ArraySlice<UInt8>

        /// Critical chunks have an uppercase first letter; a reader must understand them all.
        var isCritical: Bool { type.utf8.first.map { $0 & 0x20 == 0 } ?? false }
        /// The chunk as named in messages, such as "chunk IDAT"; an unregistered type is not shown.
        var label: String {
            PNGInspector.registeredTypes.contains(type) ? "chunk \(type)" : "unregistered chunk"
        }
    }

    private enum DataRun { case notStarted, open, closed }

    private var reader: ByteReader
    private var header: PNGHeader?
    private var sawPalette = false
    private var dataRun = DataRun.notStarted

    private init(reader: ByteReader) {
        self.reader = reader
    }

    static func inspect(_ bytes: [UInt8]) throws(ImageProblem) -> ImageInfo {
        var inspector = PNGInspector(reader: ByteReader(bytes, whenExhausted: .truncated(.png)))
        return try inspector.inspect()
    }

    private mutating func inspect() throws(ImageProblem) -> ImageInfo {
        let found = try reader.readBytes(Self.signature.count)
        guard found.elementsEqual(Self.signature) else {
            throw Self.corrupt("damaged signature (were line endings converted?)")
        }
        var ended = false
        while !ended {
            ended = try accept(try readChunk())
        }
        guard reader.isAtEnd else {
            throw Self.corrupt("\(reader.remaining) bytes after IEND at byte \(reader.offset)")
        }
        guard let header else { throw Self.corrupt("no IHDR chunk") }
        return ImageInfo(format: .png, width: header.width, height: header.height)
    }

    /// Reads the next chunk and verifies its length, type and CRC.
    private mutating func readChunk() throws(ImageProblem) -> Chunk {
        let offset = reader.offset
        let length = try reader.readUInt32BigEndian()
        guard length <= 0x7FFF_FFFF else {
            throw Self.corrupt("chunk length \(length) exceeds 2^31-1 at byte \(offset)")
        }
        let dataLength = Int(length)
        guard reader.remaining >= 4, dataLength <= reader.remaining - 4 else { throw reader.exhausted }
        let typeAndData = try reader.readBytes(4 + dataLength)
        let typeBytes = typeAndData.prefix(4)
        guard typeBytes.allSatisfy({ (0x41...0x5A).contains($0 & ~0x20) }) else {
            throw Self.corrupt("invalid chunk type at byte \(offset)")
        }
        let chunk = Chunk(
            type: String(decoding: typeBytes, as: UTF8.self), offset: offset,
            data: typeAndData.dropFirst(4))
        let storedChecksum = try reader.readUInt32BigEndian()
        guard CRC32.checksum(of: typeAndData) == storedChecksum else {
            throw Self.corrupt("bad checksum in \(chunk.label) at byte \(offset)")
        }
        return chunk
    }

    /// Checks where a chunk stands in the sequence; true when it is the closing IEND.
    private mutating func accept(_ chunk: Chunk) throws(ImageProblem) -> Bool {
        guard let header else {
            guard chunk.type == "IHDR" else {
                throw Self.corrupt("\(chunk.label) at byte \(chunk.offset) comes first, expected IHDR")
            }
            header = try PNGHeader(chunk.data)
            return false
        }
        if dataRun == .open && chunk.type != "IDAT" { dataRun = .closed }
        switch chunk.type {
        case "IHDR":
            throw Self.corrupt("second IHDR chunk at byte \(chunk.offset)")
        case "PLTE":
            try acceptPalette(chunk, header: header)
        case "IDAT":
            guard dataRun != .closed else {
                throw Self.corrupt("IDAT chunk at byte \(chunk.offset) is apart from the earlier IDAT chunks")
            }
            guard header.colourType != 3 || sawPalette else {
                throw Self.corrupt("indexed-colour image without a PLTE chunk before IDAT")
            }
            dataRun = .open
        case "IEND":
            guard chunk.data.isEmpty else {
                throw Self.corrupt("IEND chunk at byte \(chunk.offset) is not empty")
            }
            guard dataRun != .notStarted else { throw Self.corrupt("no IDAT chunk before IEND") }
            return true
        default:
            guard !chunk.isCritical else {
                throw Self.corrupt("unknown critical chunk at byte \(chunk.offset)")
            }
        }
        return false
    }

    private mutating func acceptPalette(_ chunk: Chunk, header: PNGHeader) throws(ImageProblem) {
        guard !sawPalette else { throw Self.corrupt("second PLTE chunk at byte \(chunk.offset)") }
        guard dataRun == .notStarted else {
            throw Self.corrupt("PLTE chunk at byte \(chunk.offset) after IDAT")
        }
        guard header.allowsPalette else {
            throw Self.corrupt("PLTE chunk at byte \(chunk.offset) in a greyscale image")
        }
        let entries = chunk.data.count / 3
        guard chunk.data.count % 3 == 0, (1...256).contains(entries) else {
            throw Self.corrupt(
                "PLTE chunk at byte \(chunk.offset) has length \(chunk.data.count), "
                    + "not a multiple of 3 up to 768")
        }
        if header.colourType == 3, entries > 1 << Int(header.bitDepth) {
            throw Self.corrupt(
                "PLTE chunk at byte \(chunk.offset) has more entries than bit depth \(header.bitDepth) allows"
            )
        }
        sawPalette = true
    }

    static func corrupt(_ reason: String) -> ImageProblem {
        .corrupt(.png, reason)
    }
}
