import Foundation
import NoteStore

/// How sync writes into the store: each transaction that applies changes, and each local
/// save before it is exported, leaves the hierarchy as the merge's rules place it
/// (docs/sync-format.md, "Merge").
extension Store {
    /// Runs `body` on a replica in one write transaction, then places the hierarchy by the
    /// merge's rules: how sync applies changes.
    @discardableResult
    func merge<T>(durable: Bool = true, _ body: (Replica) throws -> T) throws -> T {
        try replicate(durable: durable) { replica in
            let result = try body(replica)
            try HierarchyRepair(replica: replica).run()
            return result
        }
    }

    /// A local save applies no merge rule: what it moved may let an item the merge displaced
    /// go back, and what it removed may leave an item kept for a change its purge had not
    /// seen without one. Before its changes are exported, the rules place and erase here what
    /// they will on every device the changes reach.
    func settleLocalSaves() throws {
        guard try hasOutboxEntries() else { return }
        let displaced = try hasDisplacedItems()
        let kept = try hasKeptPurgedItems()
        guard displaced || kept else { return }
        try merge { replica in
            if displaced { try HierarchyRepair(replica: replica).placeDisplaced() }
            if kept { try CausalDelete(replica: replica, history: HistoryMerger(replica: replica)).recheckKeptItems() }
        }
    }
}
