import Foundation

/// The `encryption` object of an encrypted container's `container.json` (docs/sync-format.md,
/// section 16): the cipher, the scrypt parameters that every wrapping of the container key
/// uses, and the check that tells the container key from any other.
///
/// `{"cipher":"AES-256-GCM","kdf":"scrypt","keyCheck":"<base64>","n":131072,"p":1,"r":8}`
public struct EncryptionSettings: Codable, Equatable, Sendable {
    public static let cipher = "AES-256-GCM"
    public static let kdf = "scrypt"

    /// scrypt's cost (a power of 2), block size and parallelism.
    public var n: Int
    public var r: Int
    public var p: Int
    /// ``ContainerKey/check(for:)`` of the container's key.
    public var keyCheck: String

    /// scrypt's cost for a new container: 2^17, about 128 MiB and half a second with `r` = 8
    /// and `p` = 1 (docs/benchmarks.md).
    public static let defaultCost = 1 << 17

    /// The parameters a new container gets: ``defaultCost``, 8 and 1; tests may lower the cost
    /// (``SyncHooks``), which is never read for a container that exists.
    public static func new(for key: ContainerKey, container: UUID, cost n: Int = defaultCost) -> EncryptionSettings {
        return EncryptionSettings(n: n, r: 8, p: 1, keyCheck: key.check(for: container, n: n, r: 8, p: 1))
    }

    /// Whether scrypt parameters are within what a reader accepts: a cost of 2^10 to 2^22,
    /// a block size of 1 to 32, a parallelism of 1 to 16, at most 1 GiB of memory. A hostile
    /// container cannot make a device spend more.
    public static func isAccepted(n: Int, r: Int, p: Int) -> Bool {
        guard n >= 1 << 10, n <= 1 << 22, n & (n - 1) == 0, (1...32).contains(r), (1...16).contains(p) else {
            return false
        }
        return 128 * n * r * p <= 1 << 30
    }

    private enum CodingKeys: String, CodingKey {
        case cipher, kdf, n, r, p, keyCheck
    }

    init(n: Int, r: Int, p: Int, keyCheck: String) {
        self.n = n
        self.r = r
        self.p = p
        self.keyCheck = keyCheck
    }

    public init(from decoder: any Decoder) throws {
        let keys = try decoder.container(keyedBy: CodingKeys.self)
        try keys.requireFormat(Self.cipher, forKey: .cipher)
        try keys.requireFormat(Self.kdf, forKey: .kdf)
        n = try keys.decode(Int.self, forKey: .n)
        r = try keys.decode(Int.self, forKey: .r)
        p = try keys.decode(Int.self, forKey: .p)
        guard Self.isAccepted(n: n, r: r, p: p) else {
            throw DecodingError.dataCorruptedError(
                forKey: .n, in: keys, debugDescription: "its scrypt parameters are outside what this build accepts")
        }
        keyCheck = try keys.decode(String.self, forKey: .keyCheck)
    }

    public func encode(to encoder: any Encoder) throws {
        var keys = encoder.container(keyedBy: CodingKeys.self)
        try keys.encode(Self.cipher, forKey: .cipher)
        try keys.encode(Self.kdf, forKey: .kdf)
        try keys.encode(n, forKey: .n)
        try keys.encode(r, forKey: .r)
        try keys.encode(p, forKey: .p)
        try keys.encode(keyCheck, forKey: .keyCheck)
    }
}
