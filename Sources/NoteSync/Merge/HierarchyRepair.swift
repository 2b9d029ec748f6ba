import Foundation
import NoteStore

/// Shows the merged hierarchy within the model's rules, as a function of the merged state
/// alone, so that every device shows the same whatever the order it received changes in
/// (docs/sync-format.md, "Merge").
///
/// Each item has a merged parent: the value that won by stamp. It is shown there unless that
/// collection is gone (or is not a collection), or following merged parents from it comes
/// back to it: then it is shown at the top level and stays *displaced* (its merged parent
/// kept), so that it can go back if the cause goes away and so that later merges compare with
/// the merged value. A cycle is broken at the member whose parent was set last.
struct HierarchyRepair {
    let replica: Replica

    /// Places what the transaction moved, the items a purge in it left without their parent,
    /// and every displaced item.
    func run() throws {
        var candidates = replica.itemsMoved
        if replica.mayHaveOrphanedItems { candidates.formUnion(try replica.itemsWithoutParentCollection()) }
        guard !candidates.isEmpty else { return }
        try place(candidates.union(try replica.displacedItems()))
    }

    /// Places every displaced item again: after a local save, which may have moved what kept
    /// one apart (the member of a cycle), and which places nothing itself.
    func placeDisplaced() throws {
        try place(try replica.displacedItems())
    }

    private func place(_ items: Set<UUID>) throws {
        var candidates = items
        // Placing an item writes only its own row, and changes no merged parent: each
        // placement is read once.
        var placements: [UUID: Replica.Placement] = [:]
        for item in candidates { placements[item] = try replica.placement(of: item) }
        // Every member of a cycle that a candidate is on is placed too: the member that breaks
        // it may not have moved in this transaction. A note is never on a cycle: no item's
        // parent can be a note.
        for item in candidates where placements[item]?.isNote == false {
            if let cycle = try mergedCycle(from: item), cycle.contains(item) { candidates.formUnion(cycle) }
        }
        for (_, item) in candidates.map({ ($0.storeString, $0) }).sorted(by: { $0.0 < $1.0 }) {
            guard let placement = try placements[item] ?? replica.placement(of: item) else { continue }
            try place(item, placement)
        }
    }

    /// Shows one item at its merged parent, or at the top level when that cannot be.
    private func place(_ item: UUID, _ placement: Replica.Placement) throws {
        let merged = placement.merged
        var shown = merged
        if merged != nil {
            if !placement.mergedIsCollection {
                shown = nil
            } else if !placement.isNote, let cycle = try mergedCycle(from: item), cycle.contains(item),
                try breaker(of: cycle) == item
            {
                shown = nil
            }
        }
        // Most items are where merge put them already: nothing to write.
        if shown == placement.shown && placement.isDisplaced == (shown != merged) { return }
        try replica.show(item, under: shown, mergedParent: merged)
    }

    /// The cycle reached by following merged parents from `start`, or nil.
    private func mergedCycle(from start: UUID) throws -> [UUID]? {
        var path: [UUID] = []
        var next: UUID? = start
        while let id = next {
            if let index = path.firstIndex(of: id) { return Array(path[index...]) }
            path.append(id)
            guard let placement = try replica.placement(of: id), let parent = placement.merged,
                placement.mergedIsCollection
            else { return nil }
            next = parent
        }
        return nil
    }

    /// The member of a cycle whose parent was set last (by stamp, then by id).
    private func breaker(of cycle: [UUID]) throws -> UUID? {
        var best: (id: UUID, stamp: ChangeStamp?)?
        for member in cycle {
            let stamp = try replica.state(of: member)?.stamp(of: "parent")
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
