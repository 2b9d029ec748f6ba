import Foundation

/// The contents of `container.json`, the sentinel: the container's identity and format.
///
/// `{"container":"<uuid>","created":"<ISO 8601>","format":"note-collector-container","formatVersion":1}`
///
/// A device attaches to one identity. If `container.json` disappears, or comes back with
/// another identity, the container was switched off or replaced, and the device detaches (see
/// docs/sync-format.md, "Sentinel and identity"). Unknown keys are ignored, so that a newer
/// format can add some; a `formatVersion` newer than ``currentFormatVersion`` is read when its
/// keys are still understood, and ``isNewerFormat`` tells callers to write nothing.
public struct ContainerDescriptor: Codable, Equatable, Sendable {
    /// The value of the `format` key of every `container.json`.
    public static let format = "note-collector-container"
    /// The format version of a container whose files are plain: what every build reads.
    public static let currentFormatVersion = 1
    /// The format version of an encrypted container (docs/sync-format.md, section 16): builds
    /// before encryption refuse it, and so never write a plain file into it.
    public static let encryptedFormatVersion = 2
    /// The most bytes a `container.json` may have.
    public static let sizeLimit = 64 * 1024

    public var formatVersion: Int
    /// The identity of the container: a new UUID each time a container is created.
    public var container: UUID
    public var created: Date
    /// How the container's files are encrypted; nil for a plain container.
    public var encryption: EncryptionSettings?

    /// A descriptor of the current format, of version 2 when `encryption` is given; `created`
    /// is kept to the millisecond, as written.
    public init(container: UUID = UUID(), created: Date = Date(), encryption: EncryptionSettings? = nil) {
        formatVersion = encryption == nil ? Self.currentFormatVersion : Self.encryptedFormatVersion
        self.container = container
        self.created = CloudJSON.normalized(created)
        self.encryption = encryption
    }

    /// Whether the container was made by a newer build: this one must write nothing into it.
    public var isNewerFormat: Bool {
        formatVersion > Self.encryptedFormatVersion
    }

    private enum CodingKeys: String, CodingKey {
        case format, formatVersion, container, created, encryption
    }

    public init(from decoder: any Decoder) throws {
        let keys = try decoder.container(keyedBy: CodingKeys.self)
        try keys.requireFormat(Self.format, forKey: .format)
        formatVersion = try keys.decodeFormatVersion(forKey: .formatVersion)
        do {
            container = try keys.decodeCloudUUID(forKey: .container)
            created = try keys.decodeCloudDate(forKey: .created)
            if formatVersion == Self.encryptedFormatVersion {
                encryption = try keys.decode(EncryptionSettings.self, forKey: .encryption)
            } else if formatVersion > Self.encryptedFormatVersion {
                encryption = try? keys.decodeIfPresent(EncryptionSettings.self, forKey: .encryption)
            }
        } catch  where formatVersion > Self.encryptedFormatVersion {
            throw DecodingError.dataCorruptedError(
                forKey: .formatVersion, in: keys,
                debugDescription: "format version \(formatVersion), newer than this build understands")
        }
    }

    public func encode(to encoder: any Encoder) throws {
        var keys = encoder.container(keyedBy: CodingKeys.self)
        try keys.encode(Self.format, forKey: .format)
        try keys.encode(formatVersion, forKey: .formatVersion)
        try keys.encode(CloudName.text(of: container), forKey: .container)
        try keys.encode(created.isoText, forKey: .created)
        try keys.encodeIfPresent(encryption, forKey: .encryption)
    }
}
