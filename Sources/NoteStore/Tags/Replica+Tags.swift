import Foundation

extension Replica {
    /// Whether a removal of the tag on the item had seen `dot`.
    public func isTagRemoved(_ dot: ChangeStamp, item: UUID, tag: String) throws -> Bool {
        try TagTable.isRemoved(dot, item: item, tag, db)
    }

    /// Adds a dot of the tag on the item.
    public func insertTagDot(_ dot: ChangeStamp, item: UUID, tag: String) throws {
        if try TagTable.insert(dot, item: item, tag, db) { written += 1 }
    }

    /// Records a removal of the tag on the item that had seen, per device, the dots up to a
    /// clock, and removes those dots.
    public func removeTag(_ tag: String, from item: UUID, seen: [UUID: UInt64]) throws {
        try TagTable.remove(item: item, tag, seen: seen, db)
        written += 1
    }
}
