import Foundation

extension ObjectContext {
    /// Properties to set and remove on one note on the next save: for each key, in the order
    /// they were changed, its new value and place, or nil to remove it.
    struct PropertyEdit {
        var keys: [String] = []
        var values: [String: (value: PropertyValue, position: Int64)?] = [:]

        mutating func set(_ key: String, _ change: (value: PropertyValue, position: Int64)?) {
            if values.index(forKey: key) == nil { keys.append(key) }
            values[key] = .some(change)
        }
    }

    /// Sets a property of a note on the next save. A key the note has keeps its place; a new
    /// one goes after the others. Throws, staging nothing, when the key or the value breaks
    /// the rules (``Property/problem(_:)``, ``PropertyValue/problem``).
    public func setProperty(_ id: UUID, _ key: String, to value: PropertyValue) throws {
        let key = try Property.checked(key)
        let value = try Property.checked(value, key: key)
        let current = try properties(of: try propertyNote(id).id)
        let position = current.first { $0.key == key }?.position ?? ((current.map(\.position).max() ?? -1) + 1)
        if current.first(where: { $0.key == key }) == nil, current.count >= Property.maximumCount {
            throw StoreError.invalidProperty(
                key, reason: "the note has \(Property.maximumCount) properties, the most it may have")
        }
        var edit = stagedProperties[id] ?? PropertyEdit()
        edit.set(key, (value, position))
        stage(edit, for: id)
    }

    /// Sets the properties of a note, in their order, in place of those it has: what an import
    /// gives. Each is checked as ``setProperty(_:_:to:)`` checks it.
    public func replaceProperties(_ id: UUID, with given: [(key: String, value: PropertyValue)]) throws {
        guard given.count <= Property.maximumCount else {
            throw StoreError.invalidProperty(
                given[Property.maximumCount].key, reason: "a note may have at most \(Property.maximumCount) properties")
        }
        var edit = PropertyEdit()
        var seen = Set<String>()
        for (index, property) in given.enumerated() {
            let key = try Property.checked(property.key)
            guard seen.insert(key).inserted else {
                throw StoreError.invalidProperty(key, reason: "the key is given twice")
            }
            edit.set(key, (try Property.checked(property.value, key: key), Int64(index)))
        }
        for old in try properties(of: try propertyNote(id).id) where !seen.contains(old.key) { edit.set(old.key, nil) }
        stage(edit, for: id)
    }

    /// Removes a property of a note on the next save; false when the note does not have it.
    @discardableResult
    public func removeProperty(_ id: UUID, _ key: String) throws -> Bool {
        let key = Property.normalized(key)
        guard try properties(of: try propertyNote(id).id).contains(where: { $0.key == key }) else { return false }
        var edit = stagedProperties[id] ?? PropertyEdit()
        edit.set(key, nil)
        stage(edit, for: id)
        return true
    }

    /// Sets a setting of the store, on the next save: a property of the settings object
    /// (``Property/settingsObject``), which syncs as a note's properties do.
    public func setSetting(_ key: String, to value: PropertyValue) throws {
        let key = try Property.checked(key)
        let value = try Property.checked(value, key: key)
        let current = try properties(of: Property.settingsObject)
        let position = current.first { $0.key == key }?.position ?? ((current.map(\.position).max() ?? -1) + 1)
        var edit = stagedProperties[Property.settingsObject] ?? PropertyEdit()
        edit.set(key, (value, position))
        stage(edit, for: Property.settingsObject)
    }

    /// Removes a setting of the store on the next save; false when there is none.
    @discardableResult
    public func removeSetting(_ key: String) throws -> Bool {
        let key = Property.normalized(key)
        guard try properties(of: Property.settingsObject).contains(where: { $0.key == key }) else { return false }
        var edit = stagedProperties[Property.settingsObject] ?? PropertyEdit()
        edit.set(key, nil)
        stage(edit, for: Property.settingsObject)
        return true
    }

    /// The properties of a note (or the settings) with the context's unsaved changes, in their
    /// order.
    public func properties(of id: UUID) throws -> [NoteProperty] {
        let stored = id == Property.settingsObject || registry[id]?.original != nil
        var current = stored ? try store.read { try PropertyTable.properties(of: id, $0) } : []
        guard let edit = stagedProperties[id] else { return current }
        for key in edit.keys {
            current.removeAll { $0.key == key }
            if case let .some(.some(change)) = edit.values[key] {
                current.append(NoteProperty(key: key, value: change.value, position: change.position))
            }
        }
        return current.sorted { ($0.position, $0.key) < ($1.position, $1.key) }
    }

    private func propertyNote(_ id: UUID) throws -> Item {
        let item = try object(with: id)
        guard item.isNote else {
            throw StoreError.invalidOperation(
                item: item.label, reason: "it is a collection, and only notes have properties")
        }
        return item
    }

    private func stage(_ edit: PropertyEdit, for id: UUID) {
        if edit.keys.isEmpty {
            stagedProperties[id] = nil
            propertiedOrder.removeAll { $0 == id }
        } else {
            if stagedProperties[id] == nil { propertiedOrder.append(id) }
            stagedProperties[id] = edit
        }
    }
}

extension SaveWriter {
    /// Writes a note's property changes with their outbox rows: a value set gets a dot with the
    /// save's stamp and removes the dots it replaces; a removal removes the dots the store
    /// holds. Each change carries, per device, the greatest clock among the dots it replaced
    /// (docs/sync-format.md, "Properties"). A value set as it is changes nothing.
    mutating func writeProperties(of id: UUID, _ edit: ObjectContext.PropertyEdit) throws {
        for key in edit.keys {
            let dots = try PropertyTable.dots(of: id, key, db)
            var seen: [UUID: UInt64] = [:]
            for dot in dots { seen[dot.stamp.device] = max(seen[dot.stamp.device] ?? 0, dot.stamp.clock) }
            let latest = dots.max { $0.stamp < $1.stamp }
            guard case let .some(change) = edit.values[key] else { continue }
            if let change {
                let json = change.value.json
                if dots.count == 1, let latest, latest.value == json, latest.position == change.position { continue }
                try PropertyTable.cover(item: id, key, seen: seen, db)
                try PropertyTable.insert(stamp, item: id, key, value: json, position: change.position, db)
                outbox.record(
                    .insert, entity: .property, object: id, changes: Self.propertyChanges(key, json, change.position),
                    history: seen.isEmpty ? nil : ChangeHistory(seen: seen))
            } else {
                guard !dots.isEmpty else { continue }
                try PropertyTable.cover(item: id, key, seen: seen, db)
                outbox.record(
                    .delete, entity: .property, object: id, changes: Self.propertyChanges(key),
                    history: ChangeHistory(seen: seen))
            }
            propertiesChanged.append(id)
            if key == Property.aliases, id != Property.settingsObject { searchIndex.namesChanged(id.storeString) }
        }
    }

    /// The values of a property change: the key, and for a value set, the value as JSON text
    /// and its place.
    static func propertyChanges(_ key: String, _ json: String? = nil, _ position: Int64? = nil) -> OutboxChanges {
        var changes = OutboxChanges()
        changes.set("key", .text(key))
        if let json { changes.set("value", .text(json)) }
        if let position { changes.set("position", .integer(position)) }
        return changes
    }
}
