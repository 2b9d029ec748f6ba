import Foundation
import NoteStore
import NoteText

/// Merges an incoming version of a name or a body into history, and derives the current text
/// from the heads (docs/sync-format.md, "History").
///
/// The current body is the three-way merge of the heads, folded in order of stamp, each
/// against the base of the lineages merged so far; the current name is the head with the
/// greatest stamp. When two concurrent versions change the same region, the one with the
/// smaller stamp loses that region and, for a body, a conflict copy keeps its whole text. All
/// of it depends on the set of versions only, never on the order they arrived in.
struct HistoryMerger {
    let replica: Replica

    /// One incoming version.
    struct Incoming {
        var object: UUID
        var property: HistoryProperty
        var stamp: ChangeStamp
        var bases: [ChangeStamp]?
        var restored: ChangeStamp?
        var context: VersionContext?
        var text: String
        /// See ``Version/fromMerge``.
        var fromMerge = false
        /// The delta the log carried the text as, checked (``DeltaReader``).
        var delta: BodyDelta? = nil
        /// Whether `delta` made another text than its base's.
        var deltaChangesItsBase = false
    }

    /// A text the merge leaves to the caller to write, with other values of the same change.
    struct PendingText {
        let property: HistoryProperty
        let text: String
        let stamp: ChangeStamp
    }

    /// Adds the version to history (nothing when it is there) and makes the current text
    /// follow. In the usual case, an edit of the only head, the new text is returned instead
    /// of written, so that the caller writes it with the change's other values in one
    /// statement; any other case writes what it derives.
    ///
    /// With `isFirst`, the object was just inserted with this text and has no history yet: the
    /// version is its only one.
    @discardableResult
    func merge(_ incoming: Incoming, entity: Entity, isFirst: Bool = false) throws -> PendingText? {
        if isFirst {
            var draft = VersionDraft(
                object: incoming.object, property: incoming.property, stamp: incoming.stamp, bases: incoming.bases,
                restored: incoming.restored, context: incoming.context, text: incoming.text)
            draft.fromMerge = incoming.fromMerge
            draft.isCurrentText = true
            try replica.addVersion(draft)
            return nil
        }
        let heads = try replica.headsWithDepths(of: incoming.object, incoming.property)
        let before = heads.map(\.stamp)
        var draft = VersionDraft(
            object: incoming.object, property: incoming.property, stamp: incoming.stamp,
            origin: incoming.restored == nil ? .edit : .restore, bases: incoming.bases, restored: incoming.restored,
            context: incoming.context, text: incoming.text)
        draft.fromMerge = incoming.fromMerge
        if heads.count == 1, incoming.bases?.contains(before[0]) ?? false {
            if let delta = incoming.delta, delta.base == before[0] {
                // Stored as the delta the log carried: the base's text is not needed.
                draft.knownDelta = (delta.base, delta.lines)
                draft.deltaBaseDepth = heads[0].depth
            } else if let current = try replica.currentText(of: incoming.object, incoming.property) {
                draft.deltaBase = (before[0], current)
                draft.deltaBaseDepth = heads[0].depth
                draft.knownDelta = incoming.delta.map { ($0.base, $0.lines) }
            }
        }
        let fromEveryHead = incoming.bases.map { Set($0).isSuperset(of: before) } ?? false
        // A version that descends from no head may be one a baseline dropped, arriving again.
        if !fromEveryHead || before.isEmpty,
            try replica.isBelowHistoryCut(
                of: incoming.object, incoming.property, stamp: incoming.stamp, bases: incoming.bases)
        {
            return nil
        }
        // The usual case: edited from every head there is (or a first version); the version
        // becomes the only head as it is written.
        let usual = fromEveryHead && incoming.bases != nil
        guard try replica.addVersion(draft, asOnlyHead: usual) else { return nil }
        if usual {
            // Edited from the only head, which is the current text, into another text: written
            // without reading the current one (10 MB for a long note). Were the text there
            // already, writing it again would change nothing.
            let changed = incoming.deltaChangesItsBase && before == [incoming.delta?.base]
            guard
                try changed
                    || replica.currentText(of: incoming.object, incoming.property, differsFrom: incoming.text) == true
            else { return nil }
            return PendingText(property: incoming.property, text: incoming.text, stamp: incoming.stamp)
        }
        try resolve(incoming, entity: entity)
        return nil
    }

    /// Recomputes the heads, records the conflicts of the new version, and writes the text the
    /// heads make.
    private func resolve(_ incoming: Incoming, entity: Entity) throws {
        let versions = try replica.versions(of: incoming.object, incoming.property)
        var graph = VersionGraph(versions)
        let heads = graph.heads
        try replica.setHeads(Set(heads), of: incoming.object, incoming.property)
        var texts: [ChangeStamp: String] = [:]
        func text(_ stamp: ChangeStamp) throws -> String {
            if let known = texts[stamp] { return known }
            let value = try replica.text(of: incoming.object, incoming.property, at: stamp) ?? ""
            texts[stamp] = value
            return value
        }
        let byStamp = Dictionary(versions.map { ($0.stamp, $0) }, uniquingKeysWith: { first, _ in first })
        for other in graph.stamps where graph.areConcurrent(other, incoming.stamp) {
            let (older, newer) = other < incoming.stamp ? (other, incoming.stamp) : (incoming.stamp, other)
            let conflicts: Int
            if incoming.property == .name {
                conflicts = try text(older) == text(newer) ? 0 : 1
            } else {
                let base = try Self.baseText(
                    graph.lineage(of: older), graph.lineage(of: newer),
                    onMergedBases: graph.isFromMerge(older) && graph.isFromMerge(newer),
                    graph: &graph, text: text)
                conflicts = ThreeWayMerge.merge(base: base, older: try text(older), newer: try text(newer)).conflicts
            }
            guard conflicts > 0, let loser = byStamp[older] else { continue }
            try recordConflict(loser: loser, winner: newer, text: try text(older))
        }
        guard let newest = heads.last else { return }
        let merged = try Self.text(of: heads, property: incoming.property, graph: &graph, text: text)
        if try !(replica.currentText(of: incoming.object, incoming.property)?.hasSameBytes(as: merged) ?? false) {
            try write(merged, stamp: newest, incoming, entity: entity)
        }
    }

    /// The text that heads make: for a body, the three-way merges of the heads folded in order
    /// of stamp, each against the base of the lineages merged so far (the newest head's text
    /// when the merge would be larger than a body may be); for a name, the newest head's.
    static func text(
        of heads: [ChangeStamp], property: HistoryProperty, graph: inout VersionGraph,
        text: (ChangeStamp) throws -> String
    ) throws -> String {
        guard let first = heads.first, let newest = heads.last else { return "" }
        guard property == .body else { return try text(newest) }
        var merged = try text(first)
        var lineage = graph.lineage(of: first)
        var allFromMerge = graph.isFromMerge(first)
        for head in heads.dropFirst() {
            let other = graph.lineage(of: head)
            allFromMerge = allFromMerge && graph.isFromMerge(head)
            let base = try baseText(lineage, other, onMergedBases: allFromMerge, graph: &graph, text: text)
            merged = ThreeWayMerge.merge(base: base, older: merged, newer: try text(head)).text
            lineage.formUnion(other)
        }
        return merged.utf8.count > Item.maximumBodyBytes ? try text(newest) : merged
    }

    /// The base text of a merge of two lineages: the text of their common version that no
    /// other common version descends from, the newest of them when there are several; or,
    /// `onMergedBases` (both sides edited from merges, docs/sync-format.md, "History"), the
    /// merge of those versions, made the same way, as the text both sides were edited from.
    static func baseText(
        _ left: Set<ChangeStamp>, _ right: Set<ChangeStamp>, onMergedBases: Bool, graph: inout VersionGraph,
        text: (ChangeStamp) throws -> String
    ) throws -> String {
        let bases = graph.mergeBases(left, right)
        guard let newest = bases.last else { return "" }
        guard onMergedBases, bases.count > 1 else { return try text(newest) }
        var merged = try text(bases[0])
        var lineage = graph.lineage(of: bases[0])
        for base in bases.dropFirst() {
            let other = graph.lineage(of: base)
            let inner = try baseText(lineage, other, onMergedBases: true, graph: &graph, text: text)
            merged = ThreeWayMerge.merge(base: inner, older: merged, newer: try text(base)).text
            lineage.formUnion(other)
        }
        return merged
    }

    /// Sets the current text of an item that exists (a purged one keeps only its history).
    /// Writes the text the heads of a property make, for an item brought back.
    func refresh(_ object: UUID, _ property: HistoryProperty, entity: Entity) throws {
        let versions = try replica.versions(of: object, property)
        var graph = VersionGraph(versions)
        let heads = graph.heads
        guard let newest = heads.last else { return }
        let text = try Self.text(of: heads, property: property, graph: &graph) { stamp in
            try replica.text(of: object, property, at: stamp) ?? ""
        }
        guard try !(replica.currentText(of: object, property)?.hasSameBytes(as: text) ?? false) else { return }
        var values = OutboxChanges()
        values.set(property.rawValue, .text(text))
        try replica.update(entity: entity, object: object, values: values, stamps: [property.rawValue: newest])
    }

    private func write(_ text: String, stamp: ChangeStamp, _ incoming: Incoming, entity: Entity) throws {
        guard try replica.currentText(of: incoming.object, incoming.property) != nil else { return }
        var values = OutboxChanges()
        values.set(incoming.property.rawValue, .text(text))
        try replica.update(
            entity: entity, object: incoming.object, values: values, stamps: [incoming.property.rawValue: stamp])
    }

    /// Records a conflict, and for a body makes the conflict copy of the losing version once:
    /// never again after it was purged. A version of the copy below a cut of its history is not
    /// added: the copy is in a baseline being merged, whose record of it follows with the
    /// versions after the cut, and one below would read as concurrent with all of them.
    private func recordConflict(loser: Version, winner: ChangeStamp, text: String) throws {
        guard loser.property == .body else {
            try replica.recordConflict(
                object: loser.object, property: .name, loser: loser.stamp, winner: winner, copy: nil)
            return
        }
        let copy = ConflictCopy.id(note: loser.object, version: loser.stamp)
        try replica.recordConflict(
            object: loser.object, property: .body, loser: loser.stamp, winner: winner, copy: copy)
        guard try replica.state(of: copy) == nil, try replica.tombstone(of: copy) == nil else { return }
        let name = ConflictCopy.name(of: loser)
        let milliseconds = HybridClock.milliseconds(of: loser.stamp.clock)
        var values = OutboxChanges()
        values.set("name", .text(name))
        values.set("parent", loser.context?.parent.map { .text($0.storeString) } ?? .null)
        values.set("created", .integer(milliseconds))
        values.set("modified", .integer(milliseconds))
        values.set("trashed", .null)
        values.set("body", .text(text))
        try replica.insert(entity: .note, object: copy, values: values, stamps: ["*": loser.stamp])
        let context = VersionContext(name: name, parent: loser.context?.parent, device: loser.context?.device)
        for (property, value) in [(HistoryProperty.name, name), (.body, text)]
        where try !replica.isBelowHistoryCut(of: copy, property, stamp: loser.stamp, bases: []) {
            try replica.addVersion(
                VersionDraft(
                    object: copy, property: property, stamp: loser.stamp, origin: .conflict, bases: [],
                    context: context, text: value))
        }
    }
}
