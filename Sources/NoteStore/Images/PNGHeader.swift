/// The fields of a PNG image header (IHDR), checked against what the specification allows.
///
/// See https://www.w3.org/TR/png-3/#11IHDR: width and height 1 to 2^31-1; bit depths 1, 2, 4, 8
/// and 16 by colour type; compression and filter method 0; interlace method 0 (none) or 1 (Adam7).
struct PNGHeader {
    let width: Int
    let height: Int
    let bitDepth: UInt8
    let colourType: UInt8
    let isInterlaced: Bool

    /// The bit depths allowed for each colour type.
    private static let allowedBitDepths: [UInt8: Set<UInt8>] = [
        0: [1, 2, 4, 8, 16],  // greyscale
        2: [8, 16],  // truecolour
        3: [1, 2, 4, 8],  // indexed-colour
        4: [8, 16],  // greyscale with alpha
        6: [8, 16],  // truecolour with alpha
    ]

    /// Parses and checks the data of an IHDR chunk.
    init(_ data: ArraySlice<UInt8>) throws(ImageProblem) {
        guard data.count == 13 else {
            throw PNGInspector.corrupt("IHDR chunk has length \(data.count), expected 13")
        }
        var reader = ByteReader(Array(data), whenExhausted: PNGInspector.corrupt("IHDR chunk too short"))
        width = try Self.readDimension("width", from: &reader)
        height = try Self.readDimension("height", from: &reader)
        bitDepth = try reader.readByte()
        colourType = try reader.readByte()
        let compression = try reader.readByte()
        let filter = try reader.readByte()
        let interlace = try reader.readByte()
        guard let depths = Self.allowedBitDepths[colourType] else {
            throw PNGInspector.corrupt("unknown colour type \(colourType) in IHDR")
        }
        guard depths.contains(bitDepth) else {
            throw PNGInspector.corrupt("bit depth \(bitDepth) is not allowed with colour type \(colourType)")
        }
        guard compression == 0 else {
            throw PNGInspector.corrupt("unknown compression method \(compression) in IHDR")
        }
        guard filter == 0 else { throw PNGInspector.corrupt("unknown filter method \(filter) in IHDR") }
        guard interlace <= 1 else {
            throw PNGInspector.corrupt("unknown interlace method \(interlace) in IHDR")
        }
        isInterlaced = interlace == 1
    }

    /// Colour types 2, 3 and 6 may carry a palette; greyscale types may not.
    var allowsPalette: Bool { colourType == 2 || colourType == 3 || colourType == 6 }

    private static func readDimension(_ name: String, from reader: inout ByteReader) throws(ImageProblem)
        -> Int
    {
        let value = try reader.readUInt32BigEndian()
        guard value != 0 else { throw PNGInspector.corrupt("image \(name) is 0 in IHDR") }
        guard value <= 0x7FFF_FFFF else {
            throw PNGInspector.corrupt("image \(name) \(value) exceeds 2^31-1 in IHDR")
        }
        return Int(value)
    }
}
