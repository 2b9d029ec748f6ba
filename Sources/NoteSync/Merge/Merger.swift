import Foundation
import NoteStore

/// The merge rules: last writer wins per property, by stamp; a purge is for ever
/// (docs/sync-format.md, "Merge").
///
/// Applying the same set of changes in any order gives the same state, because each property
/// ends with the value of its greatest stamp and tombstones only grow.
struct Merger {
    /// Applies one change of a log written by `device`; returns false when the change could not
    /// be used (its values break the model's rules) and was left out.
    @discardableResult
    func apply(_ change: LogChange, from device: UUID, to replica: Replica) throws -> Bool {
        do {
            try merge(change, from: device, into: replica)
            return true
        } catch let error as StoreError where error.isBadInput {
            return false
        }
    }

    private func merge(_ change: LogChange, from device: UUID, into replica: Replica) throws {
        let stamp = change.stamp(of: "*", device: device)
        if change.operation == .delete {
            if let state = try replica.state(of: change.object), state.entity != change.entity { return }
            if try replica.tombstone(of: change.object) == nil {
                try replica.remove(entity: change.entity, object: change.object, stamp: stamp)
            }
            return
        }
        guard try replica.tombstone(of: change.object) == nil else { return }
        guard let state = try replica.state(of: change.object) else {
            guard change.operation == .insert else { return }
            var stamps = change.stamps
            stamps["*"] = stamp
            try replica.insert(entity: change.entity, object: change.object, values: change.values, stamps: stamps)
            return
        }
        guard state.entity == change.entity else { return }
        var winners = OutboxChanges()
        var winningStamps: [String: ChangeStamp] = [:]
        for (name, value) in change.values.properties {
            let incoming = change.stamp(of: name, device: device)
            if let current = state.stamp(of: name), current >= incoming { continue }
            winners.set(name, value)
            winningStamps[name] = incoming
        }
        try replica.update(entity: change.entity, object: change.object, values: winners, stamps: winningStamps)
    }
}
