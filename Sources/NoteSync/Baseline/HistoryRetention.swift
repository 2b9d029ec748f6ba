import Foundation
import NoteStore

/// What a baseline keeps of history (docs/sync-format.md, "Retention of history"): at least the
/// last ``keepVersions`` versions of each property of each object and every version of the
/// last ``keepDays`` days, and all versions when the container is not *quiet*.
///
/// A version goes only below a *cut*: a version that every version kept descends from or is,
/// and that every version of the property descends from or is an ancestor of. What goes is
/// every ancestor of the newest such cut, and only those, so that every device, with or
/// without them, finds the same heads, merge bases and conflicts for every version that can
/// still arrive, all of which descend from the cut.
struct HistoryRetention: Equatable {
    var keepVersions: Int
    var keepDays: Int

    static let `default` = HistoryRetention(keepVersions: 100, keepDays: 90)
    static let versionsKey = "history.keep.versions"
    static let daysKey = "history.keep.days"

    /// The retention set for this store (``SyncEngine/compact(retentionDays:keepVersions:keepDays:)``), else
    /// the default.
    static func of(_ store: Store) throws -> HistoryRetention {
        let values = try store.syncValues(withPrefix: "history.keep.")
        return HistoryRetention(
            keepVersions: values[versionsKey].flatMap(Int.init) ?? Self.default.keepVersions,
            keepDays: values[daysKey].flatMap(Int.init) ?? Self.default.keepDays)
    }

    static let droppedKey = "history.dropped"

    /// Whether this device knows that a baseline of its container dropped history.
    static func wasDropped(in store: Store) throws -> Bool {
        try store.syncValues(withPrefix: droppedKey)[droppedKey] != nil
    }

    /// Records that a baseline of the container dropped history.
    static func noteDropped(in store: Store) throws {
        guard try !wasDropped(in: store) else { return }
        try store.recordSync { ledger in try ledger.setValue("1", for: droppedKey) }
    }

    /// Whether a baseline of the catalog says history was dropped (its own, or one before it).
    static func wasDropped(in catalog: BaselineCatalog) -> Bool {
        catalog.entries.contains { $0.manifest.historyDropped || $0.manifest.modelVersion >= 7 }
    }

    /// What a copy of the store drops at `now`.
    func pruning(now: Date) -> HistoryPruning {
        let since = HybridClock.physical(now.addingTimeInterval(-Double(keepDays) * 86400))
        let keepVersions = keepVersions
        return HistoryPruning(minimumVersions: keepVersions, olderThan: since) { versions in
            Self.cut(of: versions, keepVersions: keepVersions, since: since)
        }
    }

    /// The cut of the versions of one property, and the versions below it; nil when nothing
    /// may go. Versions without bases (format 1) descend from every smaller stamp: a property
    /// with any is left whole.
    static func cut(of versions: [Version], keepVersions: Int, since: UInt64) -> (cut: ChangeStamp, dropped: Set<ChangeStamp>)? {
        guard versions.count > keepVersions, versions.allSatisfy({ $0.bases != nil }) else { return nil }
        var graph = VersionGraph(versions)
        let stamps = graph.stamps
        var kept = Set(stamps.suffix(keepVersions)).union(graph.heads)
        kept.formUnion(stamps.filter { $0.clock >= since })
        guard kept.count < stamps.count else { return nil }
        var descendants: [ChangeStamp: Int] = [:]
        for stamp in stamps {
            for ancestor in graph.ancestors(of: stamp) { descendants[ancestor, default: 0] += 1 }
        }
        var common: Set<ChangeStamp>?
        for stamp in kept {
            let lineage = graph.lineage(of: stamp)
            common = common.map { $0.intersection(lineage) } ?? lineage
        }
        // A cut is comparable with every version; those form a chain, ordered by their ancestors.
        var best: (stamp: ChangeStamp, ancestors: Int)?
        for candidate in common ?? [] {
            let ancestors = graph.ancestors(of: candidate).count
            guard ancestors + (descendants[candidate] ?? 0) + 1 == stamps.count else { continue }
            if best.map({ ancestors > $0.ancestors }) ?? true { best = (candidate, ancestors) }
        }
        guard let best, best.ancestors > 0 else { return nil }
        return (best.stamp, graph.ancestors(of: best.stamp))
    }

    /// Why no version concurrent with a cut of the copy whose vector is `vector` (what it had
    /// applied, and this device's own last published log) could still arrive, or nil when none
    /// can, so that the copy may drop history. None can when the copy's outbox was empty; every
    /// registration reads and says what its device had applied at a moment its outbox was
    /// empty (`clean`), at least every log of the vector of the others, and nothing of its own
    /// past the vector; and the vector holds every log in the container of a device without
    /// registration.
    static func heldBack(
        vector: [UUID: Int64], unexported: Int, device me: UUID, container: CloudContainer
    ) throws -> String? {
        guard unexported == 0 else { return "this device saved changes while the baseline was being written" }
        let (registrations, skipped) = try container.devices()
        if let file = skipped.first { return "the registration '\(file.path)' cannot be read" }
        for registration in registrations where registration.device != me {
            let device = registration.device
            let name = "device '\(registration.name)' (\(device.storeString.prefix(8)))"
            guard let clean = registration.clean else { return "\(name) has not said what it had applied with nothing waiting" }
            guard (clean[device] ?? 0) <= (vector[device] ?? 0) else { return "\(name) published logs this device has not applied" }
            for (other, sequence) in vector where other != device && (clean[other] ?? 0) < sequence {
                return "\(name) has not applied everything this baseline holds"
            }
        }
        let registered = Set(registrations.map(\.device))
        let (devices, skippedFolders) = try container.logDevices()
        if let folder = skippedFolders.first { return "the log folder '\(folder.path)' cannot be read" }
        for device in devices where device != me && !registered.contains(device) {
            let newest = try container.logSequences(of: device).sequences.max() ?? 0
            guard newest <= (vector[device] ?? 0) else {
                return "device \(device.storeString.prefix(8)), not registered, has logs this device has not applied"
            }
        }
        return nil
    }
}
