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
        if mayHaveOrphanAttachments { try removeOrphanAttachments() }
        if mayHaveOrphanItems {
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
        // Placing an item writes only its own row, and changes no merged parent: each
        // placement is read once.
        var placements: [UUID: Placement] = [:]
        for item in candidates { placements[item] = try placement(of: item) }
        // Every member of a cycle that a candidate is on is placed too: the member that breaks
        // it may not have moved in this transaction. A note is never on a cycle: no item's
        // parent can be a note.
        for item in candidates where placements[item]?.isNote == false {
            if let cycle = try mergedCycle(from: item), cycle.contains(item) { candidates.formUnion(cycle) }
        }
        for (_, item) in candidates.map({ ($0.storeString, $0) }).sorted(by: { $0.0 < $1.0 }) {
            guard let placement = try placements[item] ?? placement(of: item) else { continue }
            try place(item, placement)
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

    /// Where an item is shown and where merge put it.
    private struct Placement {
        /// The parent shown: the `parent` column.
        let shown: UUID?
        /// The parent it won by merge: the shown one unless it is displaced.
        let merged: UUID?
        let isDisplaced: Bool
        let isNote: Bool
        /// Whether the merged parent is a collection that is there.
        let mergedIsCollection: Bool
    }

    private func placement(of item: UUID) throws -> Placement? {
        guard let row = try Row.fetchOne(
            db.cachedStatement(sql: """
                SELECT item.parent, displaced.item IS NOT NULL, displaced.parent, item.kind,
                    EXISTS (SELECT 1 FROM item AS up WHERE up.kind = 'collection'
                        AND up.id = (CASE WHEN displaced.item IS NULL THEN item.parent ELSE displaced.parent END))
                FROM item LEFT JOIN displaced ON displaced.item = item.id WHERE item.id = ?
                """),
            arguments: [item.storeString])
        else { return nil }
        let shown = (row[0] as String?).flatMap(UUID.init(uuidString:))
        let isDisplaced: Bool = row[1]
        let kind: String = row[3]
        return Placement(
            shown: shown, merged: isDisplaced ? (row[2] as String?).flatMap(UUID.init(uuidString:)) : shown,
            isDisplaced: isDisplaced, isNote: kind == ItemKind.note.rawValue, mergedIsCollection: row[4])
    }

    /// The parent an item won by merge.
    private func mergedParent(of item: UUID) throws -> UUID?? {
        try placement(of: item).map(\.merged)
    }

    private func isCollection(_ id: UUID) throws -> Bool {
        try Bool.fetchOne(
            db.cachedStatement(sql: "SELECT EXISTS (SELECT 1 FROM item WHERE id = ? AND kind = 'collection')"),
            arguments: [id.storeString]) ?? false
    }

    /// Shows one item at its merged parent, or at the top level when that cannot be.
    private func place(_ item: UUID, _ placement: Placement) throws {
        let merged = placement.merged
        var shown = merged
        if merged != nil {
            if !placement.mergedIsCollection {
                shown = nil
            } else if !placement.isNote, let cycle = try mergedCycle(from: item), cycle.contains(item), try breaker(of: cycle) == item {
                shown = nil
            }
        }
        // Most items are where merge put them already: nothing to write.
        if shown == placement.shown && placement.isDisplaced == (shown != merged) {
            return
        }
        try db.cachedStatement(sql: "UPDATE item SET parent = ? WHERE id = ?").execute(arguments: [shown?.storeString, item.storeString])
        if shown == merged {
            try db.cachedStatement(sql: "DELETE FROM displaced WHERE item = ?").execute(arguments: [item.storeString])
        } else {
            try db.cachedStatement(sql: "INSERT OR REPLACE INTO displaced(item, parent) VALUES (?, ?)")
                .execute(arguments: [item.storeString, merged?.storeString])
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
