/// What the bytes of a valid image say about it: its format and its size in pixels.
public struct ImageInfo: Sendable, Equatable {
    /// The format found in the bytes, whatever the file's name says.
    public let format: ImageFormat
    /// The width in pixels, always at least 1.
    public let width: Int
    /// The height in pixels, always at least 1.
    public let height: Int

    public init(format: ImageFormat, width: Int, height: Int) {
        self.format = format
        self.width = width
        self.height = height
    }
}
