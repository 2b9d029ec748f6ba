import Foundation
import NoteStore

extension SyncEngine {
    /// Removes the store's leftovers of interrupted work (``Store/removeLeftovers()``) while
    /// no sync works on it: a sync writes the blobs of the logs it imports before the
    /// transaction that references them, which a removal meanwhile would leave without bytes.
    public func removeLeftovers() throws -> Int {
        let lock = try SyncLock(storeFolder: store.folder)
        defer { withExtendedLifetime(lock) {} }
        return try store.removeLeftovers()
    }
}
