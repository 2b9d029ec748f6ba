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
        let (stored, current) = try storedAndCurrentTags(of: taggableNote(id).id)
        var edit = stagedTags[id] ?? TagEdit()
        var added: [String] = []
        for tag in checked where !current.contains(tag) && !added.contains(tag) {
            edit.removing.removeAll { $0 == tag }
            if !stored.contains(tag) { edit.adding.append(tag) }
            added.append(tag)
        }
        stage(edit, for: id)
        return added
    }

    /// Removes tags from a note on the next save; returns those it carried.
    @discardableResult
    public func untag(_ id: UUID, _ tags: [String]) throws -> [String] {
        let checked = tags.map(Tag.normalized)
        let (stored, current) = try storedAndCurrentTags(of: taggableNote(id).id)
        var edit = stagedTags[id] ?? TagEdit()
        var removed: [String] = []
        for tag in checked where current.contains(tag) && !removed.contains(tag) {
            edit.adding.removeAll { $0 == tag }
            if stored.contains(tag) { edit.removing.append(tag) }
            removed.append(tag)
        }
        stage(edit, for: id)
        return removed
    }

    /// The tags of an item with the context's unsaved changes, sorted.
    public func tags(of id: UUID) throws -> [String] {
        try storedAndCurrentTags(of: id).current.sorted()
    }

    /// The tags the store holds for an item (none for one inserted by this context), and
    /// those with the context's unsaved changes: one read.
    private func storedAndCurrentTags(of id: UUID) throws -> (stored: Set<String>, current: Set<String>) {
        let stored = registry[id]?.original == nil ? [] : Set(try store.read { try TagTable.names(of: id, $0) })
        var current = stored
        if let edit = stagedTags[id] {
            current.subtract(edit.removing)
            current.formUnion(edit.adding)
        }
        return (stored, current)
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
            outbox.record(
                .delete, entity: .tag, object: item.id, changes: Self.tagChanges(name),
                history: ChangeHistory(seen: seen))
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
