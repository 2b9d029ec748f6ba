import Foundation

/// What an export wrote.
public struct ExportReport: Equatable, Sendable {
    public var notes = 0
    public var collections = 0
    public var images = 0
    /// The attachments written that are not PNG, JPEG, GIF or WebP images.
    public var files = 0
}
