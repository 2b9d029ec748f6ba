/// Names of blobs: the SHA-256 of their bytes in 64 lowercase hex digits, in the store's
/// `blobs` folder, in outbox rows and logs, and in the container (docs/sync-format.md).
public enum BlobName {
    /// Whether `name` is a SHA-256 as blobs are named: 64 lowercase hex digits.
    public static func isValid(_ name: some StringProtocol) -> Bool {
        name.utf8.count == 64 && name.utf8.allSatisfy { (0x30...0x39).contains($0) || (0x61...0x66).contains($0) }
    }
}
