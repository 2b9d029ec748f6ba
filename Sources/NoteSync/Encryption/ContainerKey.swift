import Crypto
import Foundation

/// The random 256-bit key of an encrypted container, from which every file's key and every
/// blob's name derive (docs/sync-format.md, section 16).
///
/// Made once, by the device that creates the container; it never changes. Devices keep it in
/// their store; the container holds it only wrapped by a key derived from the passphrase
/// (``KeyFile``).
public struct ContainerKey: Sendable, Equatable {
    public static let byteCount = 32
    /// The key's bytes: written only into the store's key file and, wrapped, into `key.json`.
    public let bytes: Data

    /// A new random key.
    public static func random() -> ContainerKey {
        ContainerKey(bytes: SymmetricKey(size: .bits256).withUnsafeBytes { Data($0) })!
    }

    /// The key of 32 bytes, or nil for any other count.
    public init?(bytes: Data) {
        guard bytes.count == Self.byteCount else { return nil }
        self.bytes = bytes
    }

    /// A key for one use, named by `purpose`: HKDF-SHA256 of this key, without salt.
    func derived(_ purpose: String) -> SymmetricKey {
        HKDF<SHA256>.deriveKey(
            inputKeyMaterial: SymmetricKey(data: bytes), info: Data(purpose.utf8), outputByteCount: 32)
    }

    /// What `container.json` records to tell this key from any other, for `container` and the
    /// scrypt parameters `n`, `r`, `p` that wrap it: the first 16 bytes of HMAC-SHA256 of
    /// `note-collector key check <container> scrypt <n> <r> <p>`, in base64. It says nothing of
    /// the key, and a device that holds the key finds parameters changed in the folder.
    public func check(for container: UUID, n: Int, r: Int, p: Int) -> String {
        let text = "note-collector key check \(container.storeString) scrypt \(n) \(r) \(p)"
        let code = HMAC<SHA256>.authenticationCode(for: Data(text.utf8), using: derived("note-collector key check"))
        return Data(code).prefix(16).base64EncodedString()
    }

    /// Whether `settings` are those of this key for `container`: their check is this key's.
    public func isKey(of settings: EncryptionSettings, container: UUID) -> Bool {
        check(for: container, n: settings.n, r: settings.r, p: settings.p) == settings.keyCheck
    }
}
