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

    /// The retention set for this store (``SyncEngine/compact(retentionDays:keepVersions:keepDays:)``), else
    /// the default.
    static func of(_ store: Store) throws -> HistoryRetention {
        let record = try store.syncRecord()
        return HistoryRetention(
            keepVersions: record.historyKeepVersions ?? Self.default.keepVersions,
            keepDays: record.historyKeepDays ?? Self.default.keepDays)
    }

    /// Whether this device knows that a baseline of its container dropped history.
    static func wasDropped(in store: Store) throws -> Bool {
        try store.syncRecord().historyDropped
    }

    /// Records that a baseline of the container dropped history.
    static func noteDropped(in store: Store) throws {
        guard try !wasDropped(in: store) else { return }
        try store.recordSync { ledger in try ledger.update { $0.historyDropped = true } }
    }

    /// Whether a baseline of the catalog says history was dropped (its own, or one before it).
    static func wasDropped(in catalog: BaselineCatalog) -> Bool {
        catalog.entries.contains { saysDropped($0.manifest) }
    }

    /// Whether a baseline says history was dropped: by its manifest, or by being of model 7
    /// (a build of model 7 wrote a copy with cuts at model 7, one without at model 6; later
    /// builds write their model, and `historyDropped` for a copy with cuts).
    static func saysDropped(_ manifest: BaselineManifest) -> Bool {
        manifest.historyDropped || manifest.modelVersion == 7
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
    static func cut(of versions: [Version], keepVersions: Int, since: UInt64) -> (
        cut: ChangeStamp, dropped: Set<ChangeStamp>
    )? {
        cut(of: versions.map { (stamp: $0.stamp, bases: $0.bases) }, keepVersions: keepVersions, since: since)
    }

    /// The same, for versions given by stamp and bases, in linear time after a sort: a history
    /// of thousands of versions costs no more than its size.
    ///
    /// In any order of the versions that puts each after its bases, a version is comparable
    /// with every other exactly when it is the only version, of those up to it, that none of
    /// them was edited from (every one before it then leads to it), and the only version, of
    /// those from it on, edited from none of them (every one after it comes from it). Such
    /// versions form a chain; a version kept must descend from the cut, so the cut is the last
    /// of them placed no later than the first version kept.
    static func cut(
        of versions: [(stamp: ChangeStamp, bases: [ChangeStamp]?)], keepVersions: Int, since: UInt64
    ) -> (cut: ChangeStamp, dropped: Set<ChangeStamp>)? {
        let count = versions.count
        guard count > keepVersions, versions.allSatisfy({ $0.bases != nil }) else { return nil }
        let sorted = versions.sorted { $0.stamp < $1.stamp }
        var index: [ChangeStamp: Int] = [:]
        for (position, version) in sorted.enumerated() { index[version.stamp] = position }
        var children = [[Int]](repeating: [], count: count)
        var parents = [Int](repeating: 0, count: count)
        for (child, version) in sorted.enumerated() {
            for base in Set(version.bases ?? []) {
                guard let parent = index[base], parent != child else { continue }
                children[parent].append(child)
                parents[child] += 1
            }
        }
        // Bases first, by stamp among the versions that are ready (Kahn's order).
        var order: [Int] = []
        order.reserveCapacity(count)
        var waiting = parents
        var ready = (0..<count).filter { waiting[$0] == 0 }
        var next = 0
        while next < ready.count {
            let current = ready[next]
            next += 1
            order.append(current)
            for child in children[current] {
                waiting[child] -= 1
                if waiting[child] == 0 { ready.append(child) }
            }
        }
        guard order.count == count else { return nil }
        // A version leads from every version before it when it is the only one of them with
        // no version after it among them; it leads to every version after it when it is the only
        // one of them with no base among them.
        var alone = [Bool](repeating: false, count: count)
        var hasChild = [Bool](repeating: false, count: count)
        var open = 0
        var parentsOf = [[Int]](repeating: [], count: count)
        for parent in 0..<count { for child in children[parent] { parentsOf[child].append(parent) } }
        for position in 0..<count {
            let version = order[position]
            open += 1
            for parent in parentsOf[version] where !hasChild[parent] {
                hasChild[parent] = true
                open -= 1
            }
            alone[position] = open == 1
        }
        var hasParent = [Bool](repeating: false, count: count)
        var roots = 0
        var kept = Set(sorted.suffix(keepVersions).map { index[$0.stamp]! })
        for (position, version) in sorted.enumerated() where version.stamp.clock >= since || children[position].isEmpty
        {
            kept.insert(position)
        }
        guard kept.count < count else { return nil }
        var place = [Int](repeating: 0, count: count)
        for (position, version) in order.enumerated() { place[version] = position }
        let firstKept = kept.map { place[$0] }.min() ?? 0
        var best: Int?
        for position in stride(from: count - 1, through: 0, by: -1) {
            let version = order[position]
            roots += 1
            for child in children[version] where !hasParent[child] {
                hasParent[child] = true
                roots -= 1
            }
            if best == nil, position <= firstKept, roots == 1, alone[position] { best = position }
        }
        guard let best, best > 0 else { return nil }
        return (sorted[order[best]].stamp, Set(order.prefix(best).map { sorted[$0].stamp }))
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
            guard let clean = registration.clean else {
                return "\(name) has not said what it had applied with nothing waiting"
            }
            guard (clean[device] ?? 0) <= (vector[device] ?? 0) else {
                return "\(name) published logs this device has not applied"
            }
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
