import Foundation
import GRDB

/// The versions a baseline drops of one property of one object: every version its cut descends
/// from (docs/sync-format.md, "Retention of history").
public struct HistoryCut: Sendable, Equatable {
    public let object: UUID
    public let property: HistoryProperty
    /// The version every version kept descends from or is.
    public let stamp: ChangeStamp
    public let dropped: Set<ChangeStamp>

    public init(object: UUID, property: HistoryProperty, stamp: ChangeStamp, dropped: Set<ChangeStamp>) {
        self.object = object
        self.property = property
        self.stamp = stamp
        self.dropped = dropped
    }
}

/// What a copy of the store for a baseline drops of history: the properties it looks at (more
/// than `minimumVersions` versions, the oldest older than `olderThan`), and, for each, the cut
/// that `decide` finds among its versions (oldest stamp first), if any. Which versions may go
/// is sync's rule; the store only drops them.
public struct HistoryPruning: Sendable {
    /// Whether the store has a property that a copy with `pruning` would look at: more than
    /// its `minimumVersions` versions, the oldest older than `olderThan`.
    public static func hasCandidates(minimumVersions: Int, olderThan: UInt64, in store: Store) throws -> Bool {
        try store.read { db in
            try !VersionStorage.candidates(minimumVersions: minimumVersions, olderThan: olderThan, limit: 1, db).isEmpty
        }
    }

    public var minimumVersions: Int
    public var olderThan: UInt64
    public var decide: @Sendable ([Version]) -> (cut: ChangeStamp, dropped: Set<ChangeStamp>)?

    public init(
        minimumVersions: Int, olderThan: UInt64,
        decide: @escaping @Sendable ([Version]) -> (cut: ChangeStamp, dropped: Set<ChangeStamp>)?
    ) {
        self.minimumVersions = minimumVersions
        self.olderThan = olderThan
        self.decide = decide
    }
}

extension VersionStorage {
    /// Drops what `pruning` decides from the history of a database of the store's schema (a
    /// copy for a baseline), and records each cut; returns them.
    ///
    /// A kept version stored as a delta against a dropped one is stored whole, and a kept
    /// version whose context was that of a dropped one (a context not kept, looked up through
    /// its first bases) gets its own, so that every kept version reads as it did.
    static func prune(_ pruning: HistoryPruning, _ db: Database) throws -> [HistoryCut] {
        var cuts: [HistoryCut] = []
        for row in try candidates(
            minimumVersions: pruning.minimumVersions, olderThan: pruning.olderThan, limit: nil, db)
        {
            guard let object = (row["object"] as Data?).flatMap(HistoryEncoding.id),
                let property = HistoryEncoding.property(row["property"])
            else {
                continue
            }
            var line = try line(object, property, db)
            guard let (cut, dropped) = pruning.decide(versions(of: line)), !dropped.isEmpty, !dropped.contains(cut)
            else { continue }
            try drop(dropped, from: &line, db)
            try write(line, db)
            try recordCut(HistoryCut(object: object, property: property, stamp: cut, dropped: dropped), db)
            cuts.append(HistoryCut(object: object, property: property, stamp: cut, dropped: dropped))
        }
        return cuts
    }

    /// The properties of objects (object bytes, property code) with more than
    /// `minimumVersions` versions, the oldest older than `olderThan`.
    static func candidates(minimumVersions: Int, olderThan: UInt64, limit: Int?, _ db: Database) throws -> [Row] {
        let zero = UUID(uuid: (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0))
        let oldest = HistoryEncoding.bytes(of: ChangeStamp(clock: olderThan, device: zero))
        return try SQLRequest<Row>(
            literal: """
                SELECT object, property FROM history_line WHERE versions > \(minimumVersions) AND oldest < \(oldest)
                ORDER BY object, property LIMIT \(limit ?? -1)
                """
        ).fetchAll(db)
    }

    /// Removes `dropped` versions from a line, first making every other one independent of
    /// them: its text whole where its delta was against one of them, its context written out
    /// where it was looked up through one of them.
    private static func drop(_ dropped: Set<ChangeStamp>, from line: inout HistoryLine, _ db: Database) throws {
        var wholeTexts: [(ChangeStamp, String)] = []
        var contexts: [(ChangeStamp, String)] = []
        for entry in line.entries where !dropped.contains(entry.stamp) {
            if let against = entry.deltaOf, dropped.contains(against) {
                if let text = try text(entry.stamp, in: line, db) { wholeTexts.append((entry.stamp, text)) }
            }
            guard entry.context == nil, entry.bases?.first != nil else { continue }
            // As the versions are read: through first bases, the version itself counting as
            // the first of at most `maximumContextChain`.
            var next = entry.bases?.first
            var steps = 1
            var resolved: String?
            var throughDropped = false
            while let current = next, steps < maximumContextChain, let found = line.entry(current) {
                throughDropped = throughDropped || dropped.contains(current)
                steps += 1
                if let context = found.context {
                    resolved = context
                    break
                }
                next = found.bases?.first
            }
            if throughDropped { contexts.append((entry.stamp, resolved ?? "")) }
        }
        for (stamp, text) in wholeTexts {
            line.update(stamp) { entry in
                entry.content = Data(text.utf8)
                entry.isApart = false
                entry.deltaOf = nil
                entry.depth = 0
            }
        }
        for (stamp, context) in contexts {
            line.update(stamp) { entry in entry.context = context }
        }
        line.remove(dropped)
    }

    /// Records the cut of a property of an object, replacing an earlier one (every version
    /// kept descends from the later cut, which descends from the earlier).
    static func recordCut(_ cut: HistoryCut, _ db: Database) throws {
        // Cached statements with placeholders, here and below in this file: pruning and
        // imports run each for every line they weigh.
        try db.cachedStatement(sql: "INSERT OR REPLACE INTO history_cut (object, property, stamp) VALUES (?, ?, ?)")
            .execute(arguments: [
                HistoryEncoding.bytes(of: cut.object), HistoryEncoding.code(of: cut.property),
                HistoryEncoding.bytes(of: cut.stamp),
            ])
    }

    /// The cut recorded for a property of an object, if any.
    static func cut(of object: UUID, _ property: HistoryProperty, _ db: Database) throws -> ChangeStamp? {
        try Data.fetchOne(
            db.cachedStatement(sql: "SELECT stamp FROM history_cut WHERE object = ? AND property = ?"),
            arguments: [HistoryEncoding.bytes(of: object), HistoryEncoding.code(of: property)]
        ).flatMap { HistoryEncoding.stamp($0) }
    }

    /// Every cut recorded, without the versions dropped.
    static func cuts(_ db: Database) throws -> [HistoryCut] {
        try Row.fetchAll(db, sql: "SELECT object, property, stamp FROM history_cut ORDER BY object, property")
            .compactMap { row in
                guard let object = (row["object"] as Data?).flatMap(HistoryEncoding.id),
                    let property = HistoryEncoding.property(row["property"]),
                    let stamp = (row["stamp"] as Data?).flatMap({ HistoryEncoding.stamp($0) })
                else { return nil }
                return HistoryCut(object: object, property: property, stamp: stamp, dropped: [])
            }
    }

    /// Whether an arriving version of a property with a cut is one of the versions dropped
    /// below it, arriving again (a snapshot): it descends from none of the versions history
    /// holds, which all descend from the cut or are it. A version without bases (format 1)
    /// descends from every version with a smaller stamp. False when there is no cut.
    static func isBelowCut(
        _ object: UUID, _ property: HistoryProperty, stamp: ChangeStamp, bases: [ChangeStamp]?, _ db: Database
    ) throws -> Bool {
        // The cut itself is never below it (a baseline's cuts are recorded before its versions).
        guard let cut = try cut(of: object, property, db), cut != stamp else { return false }
        let line = try line(object, property, db)
        guard let bases else {
            return !(line.entries.first.map { $0.stamp < stamp } ?? false)
        }
        return !bases.contains { line.index(of: $0) != nil }
    }
}
