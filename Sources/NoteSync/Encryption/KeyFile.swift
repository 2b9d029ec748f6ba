import Crypto
import Foundation
import _CryptoExtras

/// The contents of `key.json` in an encrypted container: the container key, wrapped by a key
/// derived from the passphrase (docs/sync-format.md, section 16).
///
/// `{"container":"<uuid>","format":"note-collector-key","formatVersion":1,"salt":"<base64>",
/// "wrappedKey":"<base64>","written":"<ISO 8601>"}`
///
/// The wrapping key is scrypt of the passphrase (UTF-8, composed form) with `salt` (16 random
/// bytes, new at each wrapping) and the parameters of `container.json`; `wrappedKey` is the
/// AES-256-GCM sealed box (nonce, cipher text, tag) of the container key under it,
/// authenticated with `note-collector key <container>`. A changed passphrase replaces the file;
/// the container key, and so every file, stays the same.
public struct KeyFile: Codable, Equatable, Sendable {
    public static let format = "note-collector-key"
    public static let currentFormatVersion = 1
    public static let sizeLimit = 64 * 1024

    public var formatVersion: Int
    public var container: UUID
    public var salt: Data
    public var wrappedKey: Data
    public var written: Date

    /// Wraps `key` for `container` under `passphrase`, with the parameters of `settings`.
    public static func wrapping(
        _ key: ContainerKey, container: UUID, passphrase: String, settings: EncryptionSettings, now: Date = Date()
    ) throws -> KeyFile {
        let salt = FileSealing.randomBytes(16)
        let wrapping = try wrappingKey(passphrase, salt: salt, settings: settings)
        let box = try AES.GCM.seal(key.bytes, using: wrapping, authenticating: authenticated(container))
        guard let combined = box.combined else { throw FileSealing.Failure.unauthentic }
        return KeyFile(
            formatVersion: currentFormatVersion, container: container, salt: salt, wrappedKey: combined,
            written: CloudJSON.normalized(now))
    }

    /// The container key, when `passphrase` is the one it was wrapped with; nil for another.
    public func unwrap(passphrase: String, settings: EncryptionSettings) -> ContainerKey? {
        guard let wrapping = try? Self.wrappingKey(passphrase, salt: salt, settings: settings),
            let box = try? AES.GCM.SealedBox(combined: wrappedKey),
            let bytes = try? AES.GCM.open(box, using: wrapping, authenticating: Self.authenticated(container))
        else { return nil }
        return ContainerKey(bytes: bytes)
    }

    private static func wrappingKey(_ passphrase: String, salt: Data, settings: EncryptionSettings) throws
        -> SymmetricKey
    {
        try KDF.Scrypt.deriveKey(
            from: Data(passphrase.precomposedStringWithCanonicalMapping.utf8), salt: salt, outputByteCount: 32,
            rounds: settings.n, blockSize: settings.r, parallelism: settings.p)
    }

    private static func authenticated(_ container: UUID) -> Data {
        Data("note-collector key \(container.storeString)".utf8)
    }

    private init(formatVersion: Int, container: UUID, salt: Data, wrappedKey: Data, written: Date) {
        self.formatVersion = formatVersion
        self.container = container
        self.salt = salt
        self.wrappedKey = wrappedKey
        self.written = written
    }

    private enum CodingKeys: String, CodingKey {
        case format, formatVersion, container, salt, wrappedKey, written
    }

    public init(from decoder: any Decoder) throws {
        let keys = try decoder.container(keyedBy: CodingKeys.self)
        try keys.requireFormat(Self.format, forKey: .format)
        formatVersion = try keys.decodeFormatVersion(forKey: .formatVersion)
        container = try keys.decodeCloudUUID(forKey: .container)
        guard let salt = Data(base64Encoded: try keys.decode(String.self, forKey: .salt)), salt.count >= 16 else {
            throw DecodingError.dataCorruptedError(
                forKey: .salt, in: keys, debugDescription: "'salt' is not base64 of 16 bytes or more")
        }
        guard let wrapped = Data(base64Encoded: try keys.decode(String.self, forKey: .wrappedKey)),
            wrapped.count == 12 + ContainerKey.byteCount + 16
        else {
            throw DecodingError.dataCorruptedError(
                forKey: .wrappedKey, in: keys, debugDescription: "'wrappedKey' is not base64 of a sealed 32-byte key")
        }
        self.salt = salt
        wrappedKey = wrapped
        written = try keys.decodeCloudDate(forKey: .written)
    }

    public func encode(to encoder: any Encoder) throws {
        var keys = encoder.container(keyedBy: CodingKeys.self)
        try keys.encode(Self.format, forKey: .format)
        try keys.encode(formatVersion, forKey: .formatVersion)
        try keys.encode(CloudName.text(of: container), forKey: .container)
        try keys.encode(salt.base64EncodedString(), forKey: .salt)
        try keys.encode(wrappedKey.base64EncodedString(), forKey: .wrappedKey)
        try keys.encode(written.isoText, forKey: .written)
    }
}
