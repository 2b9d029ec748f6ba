import Foundation
public enum ImageFormat: String, Sendable, CaseIterable, Codable { case png, jpeg, gif, webp }
public struct ImageInfo: Sendable, Equatable { public let format: ImageFormat; public let width: Int; public let height: Int }
public enum ImageProblem: Error, Sendable, Equatable, CustomStringConvertible {
    case unknownFormat
    case truncated(ImageFormat)
    case corrupt(ImageFormat, String)
    public var description: String { "x" }
}
public enum ImageInspector {
    public static func inspect(_ data: Data) throws -> ImageInfo {
        if data.starts(with: [0x89, 0x50, 0x4E, 0x47]) { return ImageInfo(format: .png, width: 2, height: 3) }
        throw ImageProblem.unknownFormat
    }
}
