import Foundation
import GRDB

extension Replica {
    /// Shows the merged hierarchy within the model's rules, as a function of the merged state
    /// alone, so that every device shows the same whatever the order it received changes in
    /// (docs/sync-format.md, "Merge").
    ///
    /// Each item has a merged parent: the value that won by stamp. It is shown there unless that
    /// collection is gone (or is not a collection), or following merged parents from it comes
    /// back to it: then it is shown at the top level, and its merged parent is kept in
    /// `displaced`, so that it can go back if the cause goes away and so that later merges
    /// compare with the merged value. A cycle is broken at the member whose parent was set
    /// last. Attachments whose note is gone go.
    func repairHierarchy() throws {
        if mayHaveOrphans {
            try removeOrphanAttachments()
            for id in try String.fetchAll(db, sql: """
                SELECT id FROM item
                WHERE parent IS NOT NULL AND NOT EXISTS (
                    SELECT 1 FROM item AS container WHERE container.id = item.parent AND container.kind = 'collection')
                """)
            {
                if let uuid = UUID(uuidString: id) { movedItems.insert(uuid) }
            }
        }
        guard !movedItems.isEmpty else { return }
        var candidates = movedItems.union(try displacedItems())
        // Every member of a cycle that a candidate is on is placed too: the member that breaks
        // it may not have moved in this transaction.
        for item in candidates {
            if let cycle = try mergedCycle(from: item), cycle.contains(item) { candidates.formUnion(cycle) }
        }
        for item in candidates.sorted(by: { $0.storeString < $1.storeString }) {
            try place(item)
        }
    }

    private func displacedItems() throws -> Set<UUID> {
        Set(try String.fetchAll(db, sql: "SELECT item FROM displaced").compactMap(UUID.init(uuidString:)))
    }

    private func removeOrphanAttachments() throws {
        let orphans = "NOT EXISTS (SELECT 1 FROM item WHERE item.id = attachment.note AND item.kind = 'note')"
        try db.execute(sql: "INSERT OR IGNORE INTO blob_release(sha256) SELECT sha256 FROM attachment WHERE \(orphans)")
        releasedBlobs = releasedBlobs || db.changesCount > 0
        try db.execute(sql: "DELETE FROM attachment WHERE \(orphans)")
    }

    /// The parent an item won by merge.
    private func mergedParent(of item: UUID) throws -> UUID?? {
        guard let row = try Row.fetchOne(
            db.cachedStatement(sql: """
                SELECT item.parent, displaced.item IS NOT NULL, displaced.parent
                FROM item LEFT JOIN displaced ON displaced.item = item.id WHERE item.id = ?
                """),
            arguments: [item.storeString])
        else { return nil }
        let isDisplaced: Bool = row[1]
        let text: String? = isDisplaced ? row[2] : row[0]
        return .some(text.flatMap(UUID.init(uuidString:)))
    }

    private func isCollection(_ id: UUID) throws -> Bool {
        try Bool.fetchOne(
            db.cachedStatement(sql: "SELECT EXISTS (SELECT 1 FROM item WHERE id = ? AND kind = 'collection')"),
            arguments: [id.storeString]) ?? false
    }

    /// Shows one item at its merged parent, or at the top level when that cannot be.
    private func place(_ item: UUID) throws {
        guard let merged = try mergedParent(of: item) else { return }
        var shown = merged
        if let parent = merged {
            if try !isCollection(parent) {
                shown = nil
            } else if let cycle = try mergedCycle(from: item), cycle.contains(item), try breaker(of: cycle) == item {
                shown = nil
            }
        }
        try db.execute(sql: "UPDATE item SET parent = ? WHERE id = ?", arguments: [shown?.storeString, item.storeString])
        if shown == merged {
            try db.execute(sql: "DELETE FROM displaced WHERE item = ?", arguments: [item.storeString])
        } else {
            try db.execute(
                sql: "INSERT OR REPLACE INTO displaced(item, parent) VALUES (?, ?)",
                arguments: [item.storeString, merged?.storeString])
        }
    }

    /// The cycle reached by following merged parents from `start`, or nil.
    private func mergedCycle(from start: UUID) throws -> [UUID]? {
        var path: [UUID] = []
        var next: UUID? = start
        while let id = next {
            if let index = path.firstIndex(of: id) { return Array(path[index...]) }
            path.append(id)
            guard let parent = try mergedParent(of: id), let parent, try isCollection(parent) else { return nil }
            next = parent
        }
        return nil
    }

    /// The member of a cycle whose parent was set last (by stamp, then by id).
    private func breaker(of cycle: [UUID]) throws -> UUID? {
        var best: (id: UUID, stamp: ChangeStamp?)?
        for member in cycle {
            let stamp = try state(of: member)?.stamp(of: "parent")
            guard let current = best else {
                best = (member, stamp)
                continue
            }
            let later: Bool
            switch (stamp, current.stamp) {
            case let (a?, b?) where a != b: later = a > b
            case (_?, nil): later = true
            case (nil, _?): later = false
            default: later = member.storeString > current.id.storeString
            }
            if later { best = (member, stamp) }
        }
        return best?.id
    }
}
