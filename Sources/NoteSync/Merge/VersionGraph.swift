import NoteStore

/// Which version descends from which, for one property of one object: the heads, the
/// ancestors of a version, and the base of a merge (docs/sync-format.md, "History").
///
/// A version descends from its bases that are in history; a version without bases (sync
/// format 1, or saved before history) descends from every version with a smaller stamp. The
/// answers are functions of the set of versions only.
struct VersionGraph {
    private let bases: [ChangeStamp: [ChangeStamp]?]
    /// The versions edited from a merge by a build that merges them on merged bases.
    private let fromMerge: Set<ChangeStamp>
    /// Every stamp, smallest first.
    let stamps: [ChangeStamp]
    private var memo: [ChangeStamp: Set<ChangeStamp>] = [:]

    init(_ versions: [(stamp: ChangeStamp, bases: [ChangeStamp]?)], fromMerge: Set<ChangeStamp> = []) {
        var bases: [ChangeStamp: [ChangeStamp]?] = [:]
        for version in versions { bases[version.stamp] = version.bases }
        self.bases = bases
        self.fromMerge = fromMerge
        stamps = bases.keys.sorted()
    }

    init(_ versions: [Version]) {
        self.init(
            versions.map { (stamp: $0.stamp, bases: $0.bases) },
            fromMerge: Set(versions.filter(\.fromMerge).map(\.stamp)))
    }

    /// See ``Version/fromMerge``.
    func isFromMerge(_ stamp: ChangeStamp) -> Bool {
        fromMerge.contains(stamp)
    }

    /// The versions a version was edited from directly.
    func parents(of stamp: ChangeStamp) -> [ChangeStamp] {
        guard let entry = bases[stamp] else { return [] }
        guard let explicit = entry else { return stamps.prefix { $0 < stamp } }
        return explicit.filter { bases[$0] != nil }
    }

    /// The versions no other version descends from, smallest stamp first.
    var heads: [ChangeStamp] {
        var parents: Set<ChangeStamp> = []
        var greatestLegacy: ChangeStamp?
        for (stamp, entry) in bases {
            if let explicit = entry {
                parents.formUnion(explicit)
            } else if greatestLegacy.map({ stamp > $0 }) ?? true {
                greatestLegacy = stamp
            }
        }
        return stamps.filter { stamp in !parents.contains(stamp) && !(greatestLegacy.map { stamp < $0 } ?? false) }
    }

    /// Every version a version descends from, itself excluded.
    mutating func ancestors(of stamp: ChangeStamp) -> Set<ChangeStamp> {
        if let known = memo[stamp] { return known }
        // Iterative, parents first, so that a long history does not recurse deeply.
        var stack: [ChangeStamp] = [stamp]
        var entered: Set<ChangeStamp> = []
        while let top = stack.last {
            if memo[top] != nil {
                stack.removeLast()
                continue
            }
            let direct = parents(of: top)
            let pending = direct.filter { memo[$0] == nil && !entered.contains($0) }
            if entered.insert(top).inserted, !pending.isEmpty {
                stack.append(contentsOf: pending)
                continue
            }
            var result = Set(direct)
            for parent in direct { result.formUnion(memo[parent] ?? []) }
            result.remove(top)
            memo[top] = result
            stack.removeLast()
        }
        return memo[stamp] ?? []
    }

    /// A version and every version it descends from.
    mutating func lineage(of stamp: ChangeStamp) -> Set<ChangeStamp> {
        ancestors(of: stamp).union([stamp])
    }

    /// Whether neither version descends from the other.
    mutating func areConcurrent(_ a: ChangeStamp, _ b: ChangeStamp) -> Bool {
        a != b && !ancestors(of: a).contains(b) && !ancestors(of: b).contains(a)
    }

    /// The bases of a merge of two lineages: among the versions both hold, the ones no other
    /// common version descends from, smallest stamp first; none when they hold none in common.
    mutating func mergeBases(_ left: Set<ChangeStamp>, _ right: Set<ChangeStamp>) -> [ChangeStamp] {
        let common = left.intersection(right)
        var covered: Set<ChangeStamp> = []
        for stamp in common { covered.formUnion(ancestors(of: stamp)) }
        return common.subtracting(covered).sorted()
    }
}
