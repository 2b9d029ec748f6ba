import Foundation
import NoteStore

/// Blobs between a store and the container, a chunk at a time: a file attachment may be far
/// larger than memory (docs/sync-format.md, section 5.4), so its bytes are never read whole,
/// on the way out (copied, and sealed, from the store's file) nor on the way in (copied, and
/// opened, into a temporary file of the store, checked against its hash, then moved into
/// place).
extension CloudContainer {
    /// Copies the blob `sha256` into `store`, checked against its name; refuses one of more
    /// than `limit` bytes. Throws ``SyncError/damagedBlob(path:)`` when its bytes do not match.
    public func copyBlob(_ sha256: String, into store: Store, limit: Int = blobSizeLimit) throws {
        let temporary = try store.temporaryBlobFile()
        defer { try? FileManager.default.removeItem(at: temporary) }
        try fetchBlob(sha256, to: temporary, limit: limit)
        do {
            try store.storeBlob(file: temporary, sha256: sha256)
        } catch StoreError.invalidOperation {
            throw SyncError.damagedBlob(path: absolutePath(blobPath(sha256)))
        }
    }

    /// Publishes the blob `sha256` of `store` unless the container has it.
    public func publishBlob(_ sha256: String, from store: Store) throws {
        let scratch = try store.temporaryBlobFile()
        defer { try? FileManager.default.removeItem(at: scratch) }
        try publishBlob(file: store.blobFile(sha256), sha256: sha256, scratch: scratch)
    }

    /// Puts right the blob `sha256` from `store`'s bytes when it is missing or damaged in the
    /// container; returns whether it had to.
    public func repairBlob(_ sha256: String, from store: Store) throws -> Bool {
        let scratch = try store.temporaryBlobFile()
        defer { try? FileManager.default.removeItem(at: scratch) }
        return try repairBlob(file: store.blobFile(sha256), sha256: sha256, scratch: scratch)
    }
}
