import Foundation
import NoteStore

/// The merge rules: names and bodies through history (``HistoryMerger``), every other
/// property by last writer wins, by stamp, tags as a set where additions win (``TagMerge``),
/// a note's properties per key, the latest value that no change had seen (``PropertyMerge``);
/// a purge erases only what it had seen (docs/sync-format.md, "Merge").
///
/// Applying the same set of changes in any order gives the same state: each plain property
/// ends with the value of its greatest stamp, names and bodies are functions of their set of
/// versions, and tombstones only grow.
struct Merger {
    /// Where a test asks the process to die (``CrashPoint/importApplying``).
    var hooks = SyncHooks.none

    /// Applies one change of a log written by `device`; returns false when the change could not
    /// be used (its values break the model's rules) and was left out.
    ///
    /// `deltaChangesItsBase`: the change's body delta made another text than its base's
    /// (``DeltaReader/changesItsBase(at:)``).
    @discardableResult
    func apply(_ change: LogChange, from device: UUID, to replica: Replica, deltaChangesItsBase: Bool = false) throws
        -> Bool
    {
        // An entity this build does not know (docs/sync-format.md, 5.3).
        guard let entity = change.entity else { return false }
        if entity == .tag { return try TagMerge(replica: replica).apply(change, from: device) }
        if entity == .property { return try PropertyMerge(replica: replica).apply(change, from: device) }
        do {
            try merge(change, entity, from: device, into: replica, deltaChangesItsBase: deltaChangesItsBase)
            return true
        } catch let error as StoreError where error.isBadInput {
            return false
        }
    }

    /// Applies every change of a log written by `device`, in file order, calling `each` after
    /// each change; returns how many were left out and the greatest clock the log holds (of its
    /// changes and of the stamps they carry), which the replica's clock observes. Bodies
    /// carried as deltas are made by `deltas` (checked already, or made here: a failure
    /// throws ``DeltaReader/Failure`` part way).
    func apply(
        _ log: TransactionLog, from device: UUID, to replica: Replica, deltas: DeltaReader? = nil, each: () -> Void = {}
    ) throws -> (leftOut: Int, clock: UInt64) {
        var leftOut = 0
        var clock: UInt64 = 0
        var deltas = deltas ?? DeltaReader(replica: replica, device: device)
        for (index, change) in log.changes.enumerated() {
            hooks.reach(.importApplying)
            let change = try deltas.whole(change, at: index)
            let changesItsBase = deltas.changesItsBase(at: index)
            if !(try apply(change, from: device, to: replica, deltaChangesItsBase: changesItsBase)) { leftOut += 1 }
            each()
            clock = max(clock, change.clock, change.stamps.values.map(\.clock).max() ?? 0)
        }
        return (leftOut, clock)
    }

    private func merge(
        _ change: LogChange, _ entity: Entity, from device: UUID, into replica: Replica, deltaChangesItsBase: Bool
    ) throws {
        let stamp = change.stamp(of: "*", device: device)
        let history = HistoryMerger(replica: replica)
        let causal = CausalDelete(replica: replica, history: history)
        let state = try replica.state(of: change.object)
        if let state, state.entity != entity { return }
        if change.operation == .delete {
            if entity.isItem {
                try causal.applyPurge(of: change.object, entity: entity, stamp: stamp, seen: change.history?.seen)
            } else if try replica.tombstone(of: change.object) == nil {
                let note = try replica.attachmentNote(of: change.object)
                try replica.remove(entity: entity, object: change.object, stamp: stamp)
                if let note { try causal.recheck(note) }
            }
            return
        }
        if state == nil, let tombstone = try replica.tombstoneRecord(of: change.object) {
            // A purged item keeps its history, and versions made concurrently with the purge
            // join it: their conflicts (and copies) do not depend on when the purge arrived.
            let isInsert = change.operation == .insert
            for version in try incomingVersions(
                change, entity, from: device, isNew: isInsert, lenient: true, replica: replica)
            {
                try history.merge(version, entity: entity)
            }
            try causal.applyChange(change, from: device, to: tombstone)
            return
        }
        if state == nil, entity.isAttachment, change.operation == .insert,
            case let .text(note)? = change.values["note"], let noteID = UUID(storeText: note)
        {
            try causal.applyAttachment(to: noteID, stamp: stamp)
        }
        if state == nil && change.operation != .insert { return }
        var versions = try incomingVersions(change, entity, from: device, isNew: state == nil, replica: replica)
        for index in versions.indices where versions[index].delta != nil {
            versions[index].deltaChangesItsBase = deltaChangesItsBase
        }
        guard let state else {
            var stamps = change.stamps
            stamps["*"] = stamp
            try replica.insert(entity: entity, object: change.object, values: change.values, stamps: stamps)
            for version in versions { try history.merge(version, entity: entity, isFirst: true) }
            return
        }
        var winners = OutboxChanges()
        var winningStamps: [String: ChangeStamp] = [:]
        for (name, value) in change.values.properties where HistoryProperty(rawValue: name) == nil {
            let incoming = change.stamp(of: name, device: device)
            if let current = state.stamp(of: name), current >= incoming { continue }
            winners.set(name, value)
            winningStamps[name] = incoming
        }
        // Names and bodies first: an edit of the only head leaves its text to write here, with
        // the other values, in one statement.
        for version in versions {
            if let pending = try history.merge(version, entity: entity) {
                winners.set(pending.property.rawValue, .text(pending.text))
                winningStamps[pending.property.rawValue] = pending.stamp
            }
        }
        try replica.update(entity: entity, object: change.object, values: winners, stamps: winningStamps)
        try causal.recheck(change.object)
    }

    /// The versions of names and bodies a change brings, after the model's checks (a value
    /// that breaks them leaves the whole change out).
    ///
    /// The insert of a new object takes a missing or non-text name or body as empty, as the
    /// insert itself does (which then checks the name).
    /// With `lenient`, a value that breaks them is passed over instead.
    private func incomingVersions(
        _ change: LogChange, _ entity: Entity, from device: UUID, isNew: Bool, lenient: Bool = false, replica: Replica
    ) throws -> [HistoryMerger.Incoming] {
        guard entity.isItem else { return [] }
        var result: [HistoryMerger.Incoming] = []
        for property in HistoryProperty.allCases {
            let text: String
            if isNew {
                if property == .body && entity != .note { continue }
                if case let .text(value)? = change.values[property.rawValue] {
                    text = property == .name ? Item.normalizedName(value) : value
                } else {
                    text = ""
                }
            } else {
                guard let value = change.values[property.rawValue] else { continue }
                do {
                    text = try replica.checkedText(property.rawValue, value, entity: entity, object: change.object)
                } catch  where lenient {
                    continue
                }
            }
            result.append(incoming(change, property, text: text, device: device))
        }
        return result
    }

    private func incoming(_ change: LogChange, _ property: HistoryProperty, text: String, device: UUID)
        -> HistoryMerger.Incoming
    {
        HistoryMerger.Incoming(
            object: change.object, property: property, stamp: change.stamp(of: property.rawValue, device: device),
            bases: change.history?.bases[property], restored: change.history?.restored[property],
            context: change.history?.context, text: text,
            fromMerge: change.history?.fromMerge.contains(property) ?? false,
            delta: property == .body ? change.bodyDelta : nil)
    }
}
