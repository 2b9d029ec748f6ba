/// Why a file is not accepted as an image.
///
/// Messages say what is wrong and where (a byte offset), never what the file contains.
public enum ImageProblem: Error, Sendable, Equatable, CustomStringConvertible {
    /// The first bytes are not those of a PNG, JPEG, GIF or WebP image.
    case unknownFormat
    /// The bytes start like an image of this format but end before the image does.
    case truncated(ImageFormat)
    /// The bytes break a rule of this format; the reason says which, and where.
    case corrupt(ImageFormat, String)

    public var description: String {
        switch self {
        case .unknownFormat:
            return "not a PNG, JPEG, GIF or WebP image"
        case .truncated(let format):
            return "truncated \(format.name) image"
        case .corrupt(let format, let reason):
            return "corrupt \(format.name) image: \(reason)"
        }
    }
}
