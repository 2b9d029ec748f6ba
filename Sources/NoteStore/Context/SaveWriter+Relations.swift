import Foundation
import GRDB

extension SaveWriter {
    /// Purges each root and everything in the trash below it, including contents that another
    /// process added after the context read them. A live item below (moved into a collection
    /// that another device trashed meanwhile) is not purged: it moves to the top level.
    mutating func purge(roots: [UUID], expected: [Item]) throws {
        var ids: [String: ItemKind] = [:]
        for root in roots {
            guard let item = try Item.fetchOne(db, id: root, includingBody: false) else { continue }
            guard item.isTrashed else {
                failures.append(
                    ValidationFailure(
                        item: item.name, id: root, rule: .purgeNotTrashed,
                        message: "only an item in the trash can be purged"))
                continue
            }
            let rows = try SQLRequest<Row>(
                literal: """
                    WITH RECURSIVE subtree(id) AS (
                        SELECT \(root.storeString)
                        UNION SELECT item.id FROM item JOIN subtree ON item.parent = subtree.id
                        WHERE item.trashed IS NOT NULL)
                    SELECT item.id, item.kind FROM subtree JOIN item ON item.id = subtree.id
                    """
            ).fetchAll(db)
            for row in rows {
                let id: String = row[Item.Columns.id]
                ids[id] = try row.storeCase(Item.Columns.kind, as: ItemKind.self, table: "item", rowID: id)
            }
        }
        for item in expected { ids[item.id.storeString] = ids[item.id.storeString] ?? item.kind }
        let all = Array(ids.keys).sorted()
        guard !all.isEmpty else { return }
        try moveLiveContentsToTheTop(of: all)
        try deleteAttachments(ofNotes: all.filter { ids[$0] == .note })
        var states: [String: String] = [:]
        for id in all { states[id] = try TombstoneRecord.capturedState(of: id, db) }
        // A purge counts as a move to the trash that replaces every value of the item.
        try IDList.forEachChunk(of: all) { chunk in
            for stamps in try SQLRequest<String>(literal: "SELECT stamps FROM item WHERE id IN \(chunk)").fetchAll(db) {
                replacing(stamps)
            }
        }
        for id in all {
            try searchIndex.willChange(id, db)
            if let uuid = UUID(storeText: id) { try VersionStorage.keepCurrentText(of: uuid, nil, db) }
        }
        try IDList.forEachChunk(of: all) { chunk in
            try db.execute(literal: "DELETE FROM item WHERE id IN \(chunk)")
        }
        try searchIndex.didChange(db)
        // What this device had seen when it purged: the changes of other devices it had not
        // seen do not go with the purge (docs/sync-format.md, "Causal deletes").
        var seen = try Knowledge.clocks(db)
        seen[device] = stamp.clock
        for id in all {
            guard let uuid = UUID(storeText: id) else { continue }
            try recordTombstone(uuid, entity: Entity(ids[id] ?? .note), seen: seen, state: states[id])
            outbox.recordDeletion(of: uuid, kind: ids[id] ?? .note, seen: seen)
            purged.append(uuid)
        }
    }

    /// Moves the live items whose collection is being purged to the top level, as changes of
    /// this save.
    private mutating func moveLiveContentsToTheTop(of purged: [String]) throws {
        let purgedSet = Set(purged)
        var survivors: [(item: Item, stamps: String?)] = []
        try IDList.forEachChunk(of: purged) { chunk in
            survivors += try SQLRequest<Row>(
                literal:
                    "SELECT \(sql: ItemFilter.columns(includingBody: false)), stamps FROM item WHERE parent IN \(chunk)"
            ).fetchAll(db).map { (try Item(row: $0), $0["stamps"]) }.filter {
                !purgedSet.contains($0.item.id.storeString)
            }
        }
        for (var item, stamps) in survivors {
            replacing(stamps, ["parent", "modified"])
            item.parent = nil
            try db.execute(
                literal: """
                    UPDATE item SET parent = NULL, modified = \(now.storeMilliseconds),
                        stamps = json_set(stamps, '$.parent', \(stamp.text), '$.modified', \(stamp.text))
                    WHERE id = \(item.id.storeString)
                    """)
            try db.execute(literal: "DELETE FROM displaced WHERE item = \(item.id.storeString)")
            var changes = OutboxChanges()
            changes.set("parent", .null)
            changes.set("modified", .date(now))
            outbox.record(.update, item: item, changes: changes)
            updated.append(item.id)
        }
    }

    /// Checks the rules across items: the parent exists, is a collection, is not in the trash
    /// while the item is not, and an item is never inside itself.
    mutating func validateRelations() throws {
        // Many items of one save share a few parents: read each parent once.
        var parents: [UUID: Item?] = [:]
        for item in placed {
            guard let parentID = item.parent else { continue }
            if parents[parentID] == nil {
                parents[parentID] = .some(try Item.fetchOne(db, id: parentID, includingBody: false))
            }
            guard let parent = parents[parentID] ?? nil else {
                fail(item, .parentMissing, "its collection \(parentID.storeString) does not exist")
                continue
            }
            if parent.kind != .collection {
                fail(item, .parentNotCollection, "'\(parent.label)' is a note, not a collection")
            } else if parent.isTrashed && !item.isTrashed {
                fail(item, .parentTrashed, "the collection '\(parent.label)' is in the trash")
            } else if item.isCollection, try isInside(parentID, item.id) {
                fail(item, .cycle, "a collection cannot be moved into itself or into one of its descendants")
            }
        }
    }

    /// Whether `candidate` is `ancestor` or lies below it.
    private func isInside(_ candidate: UUID, _ ancestor: UUID) throws -> Bool {
        try SQLRequest<Bool>(
            literal: """
                WITH RECURSIVE up(id, parent) AS (
                    SELECT id, parent FROM item WHERE id = \(candidate.storeString)
                    UNION SELECT item.id, item.parent FROM item JOIN up ON item.id = up.parent)
                SELECT EXISTS (SELECT 1 FROM up WHERE id = \(ancestor.storeString))
                """
        ).fetchOne(db) ?? false
    }

    private mutating func fail(_ item: Item, _ rule: ValidationFailure.Rule, _ message: String) {
        failures.append(ValidationFailure(item: item.name, id: item.id, rule: rule, message: message))
    }

    /// Throws the collected failures, which rolls the transaction back; otherwise writes the
    /// outbox and the save counter.
    mutating func finish() throws {
        guard failures.isEmpty else { throw StoreError.validation(failures) }
        try checkStampAboveReplaced()
        try outbox.write(to: db, save: saveNumber, clock: stamp.clock, at: now)
        try db.cachedStatement(
            sql: "INSERT OR REPLACE INTO metadata(key, value) VALUES ('last_save', ?), ('clock', ?)"
        ).execute(arguments: [String(saveNumber), String(stamp.clock)])
        try searchIndex.write(db)
    }
}
