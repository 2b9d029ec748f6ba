import Foundation

extension Replica {
    /// Whether a change of the key on the item had seen `dot`.
    public func isPropertyCovered(_ dot: ChangeStamp, item: UUID, key: String) throws -> Bool {
        try PropertyTable.isCovered(dot, item: item, key, db)
    }

    /// Adds a dot of the key on the item, with its value as JSON and its place.
    public func insertPropertyDot(_ dot: ChangeStamp, item: UUID, key: String, json: String, position: Int64) throws {
        if try PropertyTable.insert(dot, item: item, key, value: json, position: position, db) { written += 1 }
        if key == Property.aliases { searchIndex.namesChanged(item.storeString) }
    }

    /// Records a change of the key on the item that had seen, per device, the dots up to a
    /// clock, and removes those dots.
    public func coverProperty(_ key: String, of item: UUID, seen: [UUID: UInt64]) throws {
        try PropertyTable.cover(item: item, key, seen: seen, db)
        written += 1
        if key == Property.aliases { searchIndex.namesChanged(item.storeString) }
    }
}
