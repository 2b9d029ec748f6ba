import Foundation

extension ObjectContext {
    /// Tags to add to and remove from one note on the next save.
    struct TagEdit {
        var adding: [String] = []
        var removing: [String] = []
    }

    /// Adds tags to a note on the next save; returns those it did not carry yet. Each is
    /// checked and normalized (``Tag/checked(_:)``): one that breaks the rules throws and stages
    /// nothing.
    @discardableResult
    public func tag(_ id: UUID, with tags: [String]) throws -> [String] {
        let checked = try tags.map(Tag.checked)
        let note = try taggableNote(id)
        var edit = stagedTags[id] ?? TagEdit()
        let current = Set(try self.tags(of: id))
        var added: [String] = []
        for tag in checked where !current.contains(tag) && !added.contains(tag) {
            edit.removing.removeAll { $0 == tag }
            if !(try storedTags(of: note.id)).contains(tag) { edit.adding.append(tag) }
            added.append(tag)
        }
        stage(edit, for: id)
        return added
    }

    /// Removes tags from a note on the next save; returns those it carried.
    @discardableResult
    public func untag(_ id: UUID, _ tags: [String]) throws -> [String] {
        let checked = tags.map(Tag.normalized)
        let note = try taggableNote(id)
        var edit = stagedTags[id] ?? TagEdit()
        let current = Set(try self.tags(of: id))
        var removed: [String] = []
        for tag in checked where current.contains(tag) && !removed.contains(tag) {
            edit.adding.removeAll { $0 == tag }
            if (try storedTags(of: note.id)).contains(tag) { edit.removing.append(tag) }
            removed.append(tag)
        }
        stage(edit, for: id)
        return removed
    }

    /// The tags of an item with the context's unsaved changes, sorted.
    public func tags(of id: UUID) throws -> [String] {
        var tags = Set(try storedTags(of: id))
        if let edit = stagedTags[id] {
            tags.subtract(edit.removing)
            tags.formUnion(edit.adding)
        }
        return tags.sorted()
    }

    private func storedTags(of id: UUID) throws -> [String] {
        guard registry[id]?.original != nil else { return [] }
        return try store.read { try TagTable.names(of: id, $0) }
    }

    private func taggableNote(_ id: UUID) throws -> Item {
        let item = try object(with: id)
        guard item.isNote else {
            throw StoreError.invalidOperation(item: item.label, reason: "it is a collection, and only notes carry tags")
        }
        return item
    }

    private func stage(_ edit: TagEdit, for id: UUID) {
        if edit.adding.isEmpty && edit.removing.isEmpty {
            stagedTags[id] = nil
            taggedOrder.removeAll { $0 == id }
        } else {
            if stagedTags[id] == nil { taggedOrder.append(id) }
            stagedTags[id] = edit
        }
    }
}

extension SaveWriter {
    /// Writes a note's tag changes with their outbox rows: an added tag gets a dot with the
    /// save's stamp; a removed one removes the dots the store holds, and its change carries
    /// what it removed as, per device, the greatest clock among them (docs/sync-format.md,
    /// "Tags"). A note purged by the same save keeps no tag change.
    mutating func writeTags(of item: Item, _ edit: ObjectContext.TagEdit) throws {
        for name in edit.removing {
            let dots = try TagTable.dots(of: item.id, name, db)
            guard !dots.isEmpty else { continue }
            var seen: [UUID: UInt64] = [:]
            for dot in dots { seen[dot.device] = max(seen[dot.device] ?? 0, dot.clock) }
            try TagTable.remove(item: item.id, name, seen: seen, db)
            outbox.record(.delete, entity: .tag, object: item.id, changes: Self.tagChanges(name), history: ChangeHistory(seen: seen))
            retagged.append(item.id)
        }
        for name in edit.adding where try TagTable.dots(of: item.id, name, db).isEmpty {
            try TagTable.insert(stamp, item: item.id, name, db)
            outbox.record(.insert, entity: .tag, object: item.id, changes: Self.tagChanges(name))
            retagged.append(item.id)
        }
    }

    static func tagChanges(_ name: String) -> OutboxChanges {
        var changes = OutboxChanges()
        changes.set("name", .text(name))
        return changes
    }
}
