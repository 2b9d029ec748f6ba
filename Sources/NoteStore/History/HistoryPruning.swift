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
        minimumVersions: Int, olderThan: UInt64, decide: @escaping @Sendable ([Version]) -> (cut: ChangeStamp, dropped: Set<ChangeStamp>)?
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
    /// version whose context was that of a dropped one (a NULL context, looked up through its
    /// first bases) gets its own, so that every kept version reads as it did.
    static func prune(_ pruning: HistoryPruning, _ db: Database) throws -> [HistoryCut] {
        var cuts: [HistoryCut] = []
        for row in try candidates(minimumVersions: pruning.minimumVersions, olderThan: pruning.olderThan, limit: nil, db) {
            guard let object = (row[0] as Data?).flatMap(HistoryEncoding.id), let property = HistoryEncoding.property(row[1]) else {
                continue
            }
            let versions = try self.versions(object, property, db)
            guard let (cut, dropped) = pruning.decide(versions), !dropped.isEmpty, !dropped.contains(cut) else { continue }
            try drop(dropped, of: object, property, db)
            try recordCut(HistoryCut(object: object, property: property, stamp: cut, dropped: dropped), db)
            cuts.append(HistoryCut(object: object, property: property, stamp: cut, dropped: dropped))
        }
        return cuts
    }

    /// The properties of objects (object bytes, property code) with more than
    /// `minimumVersions` versions, the oldest older than `olderThan`.
    static func candidates(minimumVersions: Int, olderThan: UInt64, limit: Int?, _ db: Database) throws -> [Row] {
        let zero = UUID(uuid: (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0))
        return try Row.fetchAll(
            db,
            sql: """
                SELECT object, property FROM history GROUP BY object, property
                HAVING COUNT(*) > ? AND MIN(stamp) < ? LIMIT ?
                """,
            arguments: [minimumVersions, HistoryEncoding.bytes(of: ChangeStamp(clock: olderThan, device: zero)), limit ?? -1])
    }

    /// Removes `dropped` versions of a property of an object, first making every other one
    /// independent of them: its text whole where its delta was against one of them, its
    /// context written out where it was looked up through one of them.
    private static func drop(_ dropped: Set<ChangeStamp>, of object: UUID, _ property: HistoryProperty, _ db: Database) throws {
        let key = (HistoryEncoding.bytes(of: object), HistoryEncoding.code(of: property))
        struct Stored {
            var bases: [ChangeStamp]?
            var context: String?
            var deltaOf: Data?
        }
        var rows: [ChangeStamp: Stored] = [:]
        for row in try Row.fetchAll(
            db.cachedStatement(sql: "SELECT stamp, bases, context, delta_of FROM history WHERE object = ? AND property = ?"),
            arguments: [key.0, key.1])
        {
            guard let stamp = (row[0] as Data?).flatMap({ HistoryEncoding.stamp($0) }) else { continue }
            rows[stamp] = Stored(bases: (row[1] as Data?).flatMap(HistoryEncoding.stamps), context: row[2], deltaOf: row[3])
        }
        var wholeTexts: [(ChangeStamp, String)] = []
        var contexts: [(ChangeStamp, String)] = []
        for (stamp, stored) in rows where !dropped.contains(stamp) {
            if let deltaOf = stored.deltaOf {
                let against = deltaOf.isEmpty ? stored.bases?.first : HistoryEncoding.stamp(deltaOf)
                if let against, dropped.contains(against) {
                    guard let text = try text(object, property, stamp, db) else { continue }
                    wholeTexts.append((stamp, text))
                }
            }
            guard stored.context == nil, stored.bases?.first != nil else { continue }
            // As the versions are read: through first bases, the version itself counting as
            // the first of at most `maximumContextChain`.
            var next = stored.bases?.first
            var steps = 1
            var resolved: String?
            var throughDropped = false
            while let current = next, steps < maximumContextChain, let found = rows[current] {
                throughDropped = throughDropped || dropped.contains(current)
                steps += 1
                if let context = found.context {
                    resolved = context
                    break
                }
                next = found.bases?.first
            }
            if throughDropped { contexts.append((stamp, resolved ?? "")) }
        }
        for (stamp, text) in wholeTexts {
            try db.cachedStatement(
                sql: "UPDATE history SET content = ?, delta_of = NULL, depth = 0 WHERE object = ? AND property = ? AND stamp = ?"
            ).execute(arguments: [Data(text.utf8), key.0, key.1, HistoryEncoding.bytes(of: stamp)])
        }
        for (stamp, context) in contexts {
            try db.cachedStatement(sql: "UPDATE history SET context = ? WHERE object = ? AND property = ? AND stamp = ?")
                .execute(arguments: [context, key.0, key.1, HistoryEncoding.bytes(of: stamp)])
        }
        for stamp in dropped {
            try db.cachedStatement(sql: "DELETE FROM history WHERE object = ? AND property = ? AND stamp = ?")
                .execute(arguments: [key.0, key.1, HistoryEncoding.bytes(of: stamp)])
        }
    }

    /// Records the cut of a property of an object, replacing an earlier one (every version
    /// kept descends from the later cut, which descends from the earlier).
    static func recordCut(_ cut: HistoryCut, _ db: Database) throws {
        try db.cachedStatement(sql: "INSERT OR REPLACE INTO history_cut (object, property, stamp) VALUES (?, ?, ?)")
            .execute(arguments: [
                HistoryEncoding.bytes(of: cut.object), HistoryEncoding.code(of: cut.property), HistoryEncoding.bytes(of: cut.stamp),
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
        try Row.fetchAll(db, sql: "SELECT object, property, stamp FROM history_cut ORDER BY object, property").compactMap { row in
            guard let object = (row[0] as Data?).flatMap(HistoryEncoding.id), let property = HistoryEncoding.property(row[1]),
                let stamp = (row[2] as Data?).flatMap({ HistoryEncoding.stamp($0) })
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
        let key = (HistoryEncoding.bytes(of: object), HistoryEncoding.code(of: property))
        guard let bases else {
            return try !(Bool.fetchOne(
                db.cachedStatement(sql: "SELECT EXISTS (SELECT 1 FROM history WHERE object = ? AND property = ? AND stamp < ?)"),
                arguments: [key.0, key.1, HistoryEncoding.bytes(of: stamp)]) ?? false)
        }
        let lookup = try db.cachedStatement(sql: "SELECT EXISTS (SELECT 1 FROM history WHERE object = ? AND property = ? AND stamp = ?)")
        for base in bases where try Bool.fetchOne(lookup, arguments: [key.0, key.1, HistoryEncoding.bytes(of: base)]) ?? false {
            return false
        }
        return true
    }
}
