/// Reads the size of a picture from the start of a VP8 (lossy) or VP8L (lossless) bitstream.
///
/// Only the headers are checked, not the compressed data. VP8 key frames are described in
/// RFC 6386, sections 9.1 and 19.1; VP8L in RFC 9649, section 3.
enum WebPBitstream {
    /// The size in a VP8 key frame header: a 3-byte frame tag (a shown key frame, version 0 to 3,
    /// and a first partition that fits in the chunk), the start code 9D 01 2A, then 14-bit width
    /// and height, each with 2 bits of upscaling that do not change the stored size.
    static func size(
        ofLossy payload: ByteReader, at offset: Int
    ) throws(ImageProblem) -> (width: Int, height: Int) {
        var reader = payload
        guard reader.remaining >= 10 else {
            throw corrupt("VP8 chunk at byte \(offset) is too short for a frame header")
        }
        let chunkSize = reader.remaining
        let tag = try reader.readUInt24LittleEndian()
        guard tag & 0x01 == 0 else { throw corrupt("VP8 chunk at byte \(offset) is not a key frame") }
        guard (tag >> 1) & 0x07 <= 3 else {
            throw corrupt("VP8 chunk at byte \(offset) has an unknown version")
        }
        guard (tag >> 4) & 0x01 == 1 else {
            throw corrupt("VP8 chunk at byte \(offset) holds a frame that is not shown")
        }
        guard tag >> 5 <= chunkSize - 10 else {
            throw corrupt("VP8 chunk at byte \(offset) is shorter than its first partition")
        }
        guard try reader.readBytes(3).elementsEqual([0x9D, 0x01, 0x2A]) else {
            throw corrupt("VP8 chunk at byte \(offset) lacks the key frame start code")
        }
        let width = try reader.readUInt16LittleEndian() & 0x3FFF
        let height = try reader.readUInt16LittleEndian() & 0x3FFF
        guard width > 0, height > 0 else { throw corrupt("VP8 chunk at byte \(offset) gives a size of 0") }
        return (width, height)
    }

    /// The size in a VP8L header: signature 0x2F, then 14 bits of width - 1, 14 bits of
    /// height - 1, 1 bit for alpha and a 3-bit version that must be 0, least significant first.
    static func size(
        ofLossless payload: ByteReader, at offset: Int
    ) throws(ImageProblem) -> (width: Int, height: Int) {
        var reader = payload
        guard reader.remaining >= 5 else {
            throw corrupt("VP8L chunk at byte \(offset) is too short for a header")
        }
        guard try reader.readByte() == 0x2F else {
            throw corrupt("VP8L chunk at byte \(offset) lacks its signature")
        }
        let bits = try reader.readUInt32LittleEndian()
        guard bits >> 29 == 0 else { throw corrupt("VP8L chunk at byte \(offset) has an unknown version") }
        return (Int(bits & 0x3FFF) + 1, Int((bits >> 14) & 0x3FFF) + 1)
    }

    private static func corrupt(_ reason: String) -> ImageProblem {
        .corrupt(.webp, reason)
    }
}
