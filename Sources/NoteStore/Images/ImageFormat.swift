/// The image formats that notes accept as attachments.
///
/// The raw value is the lowercase short name used in stored data and JSON output; ``name`` is the
/// spelling people know, used in messages.
public enum ImageFormat: String, Sendable, CaseIterable, Codable {
    case png, jpeg, gif, webp

    /// The name of the format as people write it: "PNG", "JPEG", "GIF" or "WebP".
    public var name: String {
        switch self {
        case .png: return "PNG"
        case .jpeg: return "JPEG"
        case .gif: return "GIF"
        case .webp: return "WebP"
        }
    }

    /// The registered media type, such as `image/png`.
    ///
    /// See https://www.iana.org/assignments/media-types/media-types.xhtml#image.
    public var mediaType: String {
        "image/\(rawValue)"
    }
}
