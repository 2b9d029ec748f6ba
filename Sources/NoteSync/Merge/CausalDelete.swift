import Foundation
import NoteStore

/// Purges against concurrent changes: a purge erases only what it had seen (docs/sync-format.md,
/// "Causal deletes").
///
/// A purge of sync format 2 says, per device, the greatest clock of the changes its device had
/// seen. An item stays (in the trash, as the purge left it) while it has a change that no purge
/// of it had seen: a value, a version of its name or body, an attachment. A purged item keeps
/// its merged state in its tombstone, so that such a change arriving later brings it back as it
/// would have been had the change come first. Every answer depends on the set of changes only.
struct CausalDelete {
    let replica: Replica
    let history: HistoryMerger

    /// Applies the purge of a note or collection: it moves the item to the trash (merged by
    /// stamp with the item's own moves), and erases it unless a change it had not seen is left.
    func applyPurge(of object: UUID, entity: Entity, stamp: ChangeStamp, seen: [UUID: UInt64]?) throws {
        try replica.recordPurge(of: object, entity: entity, stamp: stamp, seen: seen)
        guard try replica.state(of: object) != nil, let tombstone = try replica.tombstoneRecord(of: object) else {
            return
        }
        try trash(object, entity: entity, by: tombstone.stamp)
        try recheck(object)
    }

    /// Purges again an item kept for changes its purges had not seen, once its merged state no
    /// longer holds any (a later change replaced them, its unseen attachment was removed): the
    /// item is kept exactly while it has one, whatever the order changes arrive in.
    func recheck(_ object: UUID) throws {
        // A purge of format 1 (no `seen`) has seen everything: the item goes.
        guard let tombstone = try replica.tombstoneRecord(of: object),
            let state = try replica.state(of: object), state.entity.isItem,
            try !replica.survivalStamps(of: object).contains(where: { !tombstone.hasSeen($0) })
        else { return }
        try replica.remove(entity: state.entity, object: object, stamp: tombstone.stamp, seen: tombstone.seen)
    }

    /// Rechecks every item kept for changes its purges had not seen: after a local save,
    /// which may have removed the last of them (an attachment) and erases nothing itself.
    func recheckKeptItems() throws {
        for item in try replica.keptPurgedItems() { try recheck(item) }
    }

    /// Merges a change of a purged note or collection into its tombstone's state, and brings
    /// the item back when the state holds a change no purge had seen.
    func applyChange(_ change: LogChange, from device: UUID, to tombstone: TombstoneRecord) throws {
        guard change.entity == tombstone.entity, tombstone.seen != nil else { return }
        var values = tombstone.values ?? OutboxChanges()
        var stamps = tombstone.stamps
        if change.operation == .insert, stamps["*"] == nil { stamps["*"] = change.stamp(of: "*", device: device) }
        for (name, value) in change.values.properties where name != "kind" {
            let incoming = change.stamp(of: name, device: device)
            if values[name] != nil, let current = stamps[name] ?? stamps["*"], current >= incoming { continue }
            values.set(name, value)
            if incoming != stamps["*"] { stamps[name] = incoming }
        }
        // The purge moved it to the trash, merged by stamp like any move.
        if values["trashed"] == nil || (stamps["trashed"] ?? stamps["*"]).map({ $0 < tombstone.stamp }) ?? true {
            values.set("trashed", .integer(HybridClock.milliseconds(of: tombstone.stamp.clock)))
            stamps["trashed"] = tombstone.stamp
        }
        try replica.setTombstoneState(of: change.object, values: values, stamps: stamps)
        // Whole only once its insert came.
        guard stamps["*"] != nil, values["name"] != nil, values["created"] != nil else { return }
        let all = Array(stamps.values) + (try replica.survivalStamps(of: change.object))
        guard all.contains(where: { !tombstone.hasSeen($0) }) else { return }
        try bringBack(change.object, entity: tombstone.entity, values: values, stamps: stamps, purge: tombstone.stamp)
    }

    /// Brings back a purged note for an attachment its purge had not seen.
    func applyAttachment(to note: UUID, stamp: ChangeStamp) throws {
        guard try replica.state(of: note) == nil, let tombstone = try replica.tombstoneRecord(of: note),
            tombstone.entity == .note, !tombstone.hasSeen(stamp), let values = tombstone.values,
            tombstone.stamps["*"] != nil, values["name"] != nil, values["created"] != nil
        else { return }
        try bringBack(note, entity: .note, values: values, stamps: tombstone.stamps, purge: tombstone.stamp)
    }

    private func bringBack(
        _ object: UUID, entity: Entity, values: OutboxChanges, stamps: [String: ChangeStamp], purge: ChangeStamp
    ) throws {
        try replica.insert(entity: entity, object: object, values: values, stamps: stamps)
        for property in HistoryProperty.allCases where property == .name || entity == .note {
            try history.refresh(object, property, entity: entity)
        }
        try trash(object, entity: entity, by: purge)
    }

    /// The purge as a move to the trash at its time, merged by stamp with the item's own.
    private func trash(_ object: UUID, entity: Entity, by purge: ChangeStamp) throws {
        guard let state = try replica.state(of: object) else { return }
        if let current = state.stamp(of: "trashed"), current >= purge { return }
        var values = OutboxChanges()
        values.set("trashed", .integer(HybridClock.milliseconds(of: purge.clock)))
        try replica.update(entity: entity, object: object, values: values, stamps: ["trashed": purge])
    }
}
