/// Checks a JPEG file marker by marker, from SOI to EOI, as ITU-T T.81 (ISO/IEC 10918-1) lays it out.
///
/// Verified: SOI; each marker segment's length (at least 2, within the data); the first frame
/// header (SOF0 to SOF15 but DHT, JPG and DAC) with a non-zero width and height and a length that
/// matches its component count; a frame header before the first scan; each scan header's
/// component count and length; after each scan, its entropy-coded data up to the next marker,
/// where 0xFF00 stuffing and RST0 to RST7 belong to the data; at least one scan; EOI.
/// Application segments (APP0 to APP15, so EXIF with its own embedded thumbnail too) are skipped
/// by their length and never read as part of the image. Bytes after EOI are allowed, as cameras
/// store further pictures there (CIPA DC-007 multi-picture files, motion photos).
/// See https://www.w3.org/Graphics/JPEG/itu-t81.pdf, annex B.
struct JPEGInspector {
    private var reader: ByteReader
    private var frame: (width: Int, height: Int)?
    private var scanCount = 0

    private init(reader: ByteReader) {
        self.reader = reader
    }

    static func inspect(_ bytes: [UInt8]) throws(ImageProblem) -> ImageInfo {
        var inspector = JPEGInspector(reader: ByteReader(bytes, whenExhausted: .truncated(.jpeg)))
        return try inspector.inspect()
    }

    private mutating func inspect() throws(ImageProblem) -> ImageInfo {
        guard try reader.readUInt16BigEndian() == 0xFFD8 else { throw Self.corrupt("no SOI marker") }
        while true {
            let offset = reader.offset
            let marker = try readMarker()
            switch marker {
            case 0xD9:
                guard let frame else { throw Self.corrupt("EOI at byte \(offset) before any frame header") }
                guard scanCount > 0 else { throw Self.corrupt("EOI at byte \(offset) before any scan") }
                return ImageInfo(format: .jpeg, width: frame.width, height: frame.height)
            case 0xD8:
                throw Self.corrupt("second SOI marker at byte \(offset)")
            case 0xD0...0xD7:
                throw Self.corrupt("restart marker outside a scan at byte \(offset)")
            case 0x01:
                continue  // TEM: a marker without a segment
            case 0x02...0xBF:
                throw Self.corrupt("reserved marker at byte \(offset)")
            default:
                try readSegment(marker, at: offset)
            }
        }
    }

    /// Reads a marker: 0xFF, optional 0xFF fill bytes, then the marker code.
    private mutating func readMarker() throws(ImageProblem) -> UInt8 {
        let offset = reader.offset
        guard try reader.readByte() == 0xFF else { throw Self.corrupt("expected a marker at byte \(offset)") }
        var code = try reader.readByte()
        while code == 0xFF { code = try reader.readByte() }
        guard code != 0x00 else { throw Self.corrupt("expected a marker at byte \(offset)") }
        return code
    }

    /// Reads a marker segment, checking frame and scan headers, and the data of each scan.
    private mutating func readSegment(_ marker: UInt8, at offset: Int) throws(ImageProblem) {
        let length = try reader.readUInt16BigEndian()
        guard length >= 2 else { throw Self.corrupt("segment at byte \(offset) has length \(length), less than 2") }
        var segment = try reader.reader(
            taking: length - 2,
            whenExhausted: Self.corrupt("segment at byte \(offset) is too short for its contents"))
        if Self.isFrameHeader(marker) {
            let size = try Self.readFrameHeader(&segment, at: offset)
            if frame == nil { frame = size }
        } else if marker == 0xDA {
            guard frame != nil else { throw Self.corrupt("scan at byte \(offset) before any frame header") }
            try Self.readScanHeader(&segment, at: offset)
            try skipEntropyCodedData()
            scanCount += 1
        }
    }

    /// SOF0 to SOF15 start a frame, except DHT (C4), JPG (C8) and DAC (CC).
    private static func isFrameHeader(_ marker: UInt8) -> Bool {
        (0xC0...0xCF).contains(marker) && marker != 0xC4 && marker != 0xC8 && marker != 0xCC
    }

    /// Checks a frame header (B.2.2) and returns the size it gives.
    private static func readFrameHeader(
        _ segment: inout ByteReader, at offset: Int
    ) throws(ImageProblem) -> (width: Int, height: Int) {
        _ = try segment.readByte()  // sample precision
        let height = try segment.readUInt16BigEndian()
        let width = try segment.readUInt16BigEndian()
        let components = Int(try segment.readByte())
        guard components >= 1, segment.remaining == 3 * components else {
            throw corrupt("frame header at byte \(offset) does not match its component count")
        }
        guard width > 0 else { throw corrupt("frame header at byte \(offset) gives width 0") }
        guard height > 0 else {
            throw corrupt(
                "frame header at byte \(offset) gives height 0 (a later DNL height is not supported)")
        }
        return (width, height)
    }

    /// Checks a scan header (B.2.3): 1 to 4 components, and a length that matches.
    private static func readScanHeader(_ segment: inout ByteReader, at offset: Int) throws(ImageProblem) {
        let components = Int(try segment.readByte())
        guard (1...4).contains(components), segment.remaining == 2 * components + 3 else {
            throw corrupt("scan header at byte \(offset) does not match its component count")
        }
    }

    /// Skips entropy-coded data, leaving the reader on the 0xFF of the marker that ends it.
    ///
    /// 0xFF followed by 0x00 is a stuffed data byte, and RST0 to RST7 separate restart intervals;
    /// any other marker ends the scan. Data that stops before a marker is truncated.
    private mutating func skipEntropyCodedData() throws(ImageProblem) {
        while true {
            try reader.skip(toNext: 0xFF)
            var distance = 1
            while reader.peek(at: distance) == 0xFF { distance += 1 }
            guard let code = reader.peek(at: distance) else { throw reader.exhausted }
            guard code == 0x00 || (0xD0...0xD7).contains(code) else { return }
            try reader.skip(distance + 1)
        }
    }

    static func corrupt(_ reason: String) -> ImageProblem {
        .corrupt(.jpeg, reason)
    }
}
