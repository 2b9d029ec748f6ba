import Foundation
import GRDB

extension Store {
    /// Sets a property of a note in one save.
    public func setProperty(_ id: UUID, _ key: String, to value: PropertyValue) throws {
        try change { try $0.setProperty(id, key, to: value) }
    }

    /// Removes a property of a note in one save; false when the note does not have it.
    @discardableResult
    public func removeProperty(_ id: UUID, _ key: String) throws -> Bool {
        try change { try $0.removeProperty(id, key) }
    }

    /// The settings of the store, synced: the properties of ``Property/settingsObject``.
    public func settings() throws -> [NoteProperty] {
        try properties(of: Property.settingsObject)
    }

    /// Sets a setting of the store in one save.
    public func setSetting(_ key: String, to value: PropertyValue) throws {
        try change { try $0.setSetting(key, to: value) }
    }

    /// Removes a setting of the store in one save; false when there is none.
    @discardableResult
    public func removeSetting(_ key: String) throws -> Bool {
        try change { try $0.removeSetting(key) }
    }

    /// The properties of an item, in their order.
    public func properties(of id: UUID) throws -> [NoteProperty] {
        try read { try PropertyTable.properties(of: id, $0) }
    }

    /// The properties of several items, in their order for each; items without any are left
    /// out.
    public func properties(ofItems ids: [UUID]) throws -> [UUID: [NoteProperty]] {
        try read { try PropertyTable.properties(ofItems: ids, $0) }
    }

    /// Every key of a property on a note of the store with the number of notes that have it, by
    /// key.
    public func propertyKeys() throws -> [(key: String, notes: Int)] {
        try read { db in
            try Row.fetchAll(
                db,
                sql: """
                    SELECT key, COUNT(DISTINCT property.item) AS notes \
                    FROM property JOIN item ON item.id = property.item
                    WHERE item.trashed IS NULL GROUP BY key ORDER BY key
                    """
            ).map { ($0["key"], $0["notes"]) }
        }
    }
}
