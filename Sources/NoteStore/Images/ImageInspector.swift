import Foundation

/// Decides whether bytes are a whole, valid PNG, JPEG, GIF or WebP image, and reads its size.
///
/// The format comes from the first bytes, never from a file name. Each format's checker then
/// walks the whole structure: every chunk, segment or block, with every length checked against
/// the bytes present, so a truncated or damaged file is refused rather than stored. Pixel data is
/// not decoded. Nothing is allocated from sizes written in the file, and no input makes it trap.
public enum ImageInspector {
    /// Checks the whole structure and returns format and dimensions.
    ///
    /// - Throws: ``ImageProblem`` only: `unknownFormat` when the first bytes are not those of a
    ///   supported format, `truncated` when the image ends early, `corrupt` for anything else.
    public static func inspect(_ data: Data) throws(ImageProblem) -> ImageInfo {
        let bytes = [UInt8](data)
        switch try format(announcedBy: bytes) {
        case .png: return try PNGInspector.inspect(bytes)
        case .jpeg: return try JPEGInspector.inspect(bytes)
        case .gif: return try GIFInspector.inspect(bytes)
        case .webp: return try WebPInspector.inspect(bytes)
        }
    }

    /// The format whose signature the bytes start with.
    ///
    /// Only as many bytes as make a format unmistakable are required here: "\u{89}PNG", the JPEG
    /// SOI marker, "GIF8", or "RIFF" with "WEBP" at byte 8. The checkers verify the rest of the
    /// signature, so a file cut inside it is reported as truncated rather than unknown.
    static func format(announcedBy bytes: [UInt8]) throws(ImageProblem) -> ImageFormat {
        if bytes.starts(with: [0x89, 0x50, 0x4E, 0x47]) { return .png }
        if bytes.starts(with: [0xFF, 0xD8]) { return .jpeg }
        if bytes.starts(with: Array("GIF8".utf8)) { return .gif }
        if bytes.starts(with: Array("RIFF".utf8)) {
            if bytes.count < 12 { throw ImageProblem.truncated(.webp) }
            if bytes[8..<12].elementsEqual("WEBP".utf8) { return .webp }
        }
        throw ImageProblem.unknownFormat
    }
}
