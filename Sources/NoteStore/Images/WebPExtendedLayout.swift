/// The rules for the chunks that follow a VP8X header in an extended WebP file.
///
/// A still image is an optional ALPH chunk then one VP8 or VP8L chunk, whose size must be the
/// canvas size. An animation (VP8X animation flag set) is an ANIM chunk then ANMF frames, each
/// within the canvas and holding its own optional ALPH and one VP8 or VP8L chunk. ICCP, EXIF, XMP
/// and unknown chunks may come anywhere and are skipped. See RFC 9649, section 2.7.
struct WebPExtendedLayout {
    /// The canvas size from VP8X, which is the size of the image.
    let canvas: (width: Int, height: Int)
    private let isAnimation: Bool
    private var sawAnimationHeader = false
    private var frameCount = 0
    private var sawAlpha = false
    private var sawImage = false

    /// Reads the VP8X chunk: flags, 3 reserved bytes, then 24-bit canvas width - 1 and height - 1.
    init(_ vp8x: WebPInspector.Chunk) throws(ImageProblem) {
        var reader = vp8x.payload
        guard reader.remaining == 10 else {
            throw WebPInspector.corrupt("\(vp8x.name) has length \(reader.remaining), expected 10")
        }
        let flags = try reader.readByte()
        try reader.skip(3)
        let width = try reader.readUInt24LittleEndian() + 1
        let height = try reader.readUInt24LittleEndian() + 1
        guard UInt64(width) * UInt64(height) <= 0xFFFF_FFFF else {
            throw WebPInspector.corrupt("canvas of \(width)x\(height) pixels is larger than 2^32-1 pixels")
        }
        canvas = (width, height)
        isAnimation = flags & 0x02 != 0
    }

    /// Checks one chunk that follows VP8X.
    mutating func accept(_ chunk: WebPInspector.Chunk) throws(ImageProblem) {
        switch (chunk.tag, isAnimation) {
        case ("ANIM", true):
            guard !sawAnimationHeader, frameCount == 0 else {
                throw WebPInspector.corrupt("\(chunk.name) is out of place")
            }
            guard chunk.payload.remaining >= 6 else {
                throw WebPInspector.corrupt("\(chunk.name) is too short")
            }
            sawAnimationHeader = true
        case ("ANMF", true):
            guard sawAnimationHeader else { throw WebPInspector.corrupt("\(chunk.name) comes before ANIM") }
            try checkFrame(chunk)
            frameCount += 1
        case ("ANIM", false), ("ANMF", false):
            throw WebPInspector.corrupt("\(chunk.name) in a file without the animation flag")
        case ("ALPH", _), ("VP8 ", _), ("VP8L", _):
            guard !isAnimation else { throw WebPInspector.corrupt("\(chunk.name) lies outside any frame") }
            let size = try checkImageChunk(chunk, sawAlpha: &sawAlpha, sawImage: &sawImage)
            if let size, size != canvas {
                throw WebPInspector.corrupt("\(chunk.name) gives a size other than the canvas size")
            }
        default:
            break
        }
    }

    /// Checks that the image data was complete.
    func finish() throws(ImageProblem) {
        if isAnimation {
            guard sawAnimationHeader else { throw WebPInspector.corrupt("animation without an ANIM chunk") }
            guard frameCount > 0 else { throw WebPInspector.corrupt("animation without an ANMF frame") }
        } else {
            guard sawImage else { throw WebPInspector.corrupt("no VP8 or VP8L chunk after VP8X") }
        }
    }

    /// Checks an ANMF frame: 24-bit x / 2, y / 2, width - 1, height - 1 and duration, a flags
    /// byte, then its own chunks.
    private func checkFrame(_ frame: WebPInspector.Chunk) throws(ImageProblem) {
        var reader = frame.payload
        guard reader.remaining >= 16 else { throw WebPInspector.corrupt("\(frame.name) is too short") }
        let x = try reader.readUInt24LittleEndian() * 2
        let y = try reader.readUInt24LittleEndian() * 2
        let width = try reader.readUInt24LittleEndian() + 1
        let height = try reader.readUInt24LittleEndian() + 1
        try reader.skip(4)  // duration, flags
        var sawAlpha = false
        var sawImage = false
        while !reader.isAtEnd {
            let chunk = try WebPInspector.readChunk(from: &reader, container: frame.name)
            guard let size = try checkImageChunk(chunk, sawAlpha: &sawAlpha, sawImage: &sawImage) else {
                continue
            }
            guard x + max(width, size.width) <= canvas.width, y + max(height, size.height) <= canvas.height
            else {
                throw WebPInspector.corrupt("\(frame.name) lies outside the canvas")
            }
        }
        guard sawImage else { throw WebPInspector.corrupt("\(frame.name) has no VP8 or VP8L chunk") }
    }

    /// Checks the order of ALPH, VP8 and VP8L chunks; returns the size of a bitstream chunk.
    private func checkImageChunk(
        _ chunk: WebPInspector.Chunk, sawAlpha: inout Bool, sawImage: inout Bool
    ) throws(ImageProblem) -> (width: Int, height: Int)? {
        switch chunk.tag {
        case "ALPH":
            guard !sawAlpha, !sawImage else { throw WebPInspector.corrupt("\(chunk.name) is out of place") }
            guard chunk.payload.remaining >= 1 else { throw WebPInspector.corrupt("\(chunk.name) is empty") }
            sawAlpha = true
            return nil
        case "VP8 ", "VP8L":
            guard !sawImage else { throw WebPInspector.corrupt("\(chunk.name) is a second image chunk") }
            sawImage = true
            return chunk.tag == "VP8L"
                ? try WebPBitstream.size(ofLossless: chunk.payload, at: chunk.offset)
                : try WebPBitstream.size(ofLossy: chunk.payload, at: chunk.offset)
        default:
            return nil
        }
    }
}
