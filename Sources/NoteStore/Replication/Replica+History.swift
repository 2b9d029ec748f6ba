import Foundation
import GRDB

/// History for sync's merge: versions, heads, texts and conflicts, written with the changes of
/// a log. Which version is a head and what text is current are sync's decisions.
extension Replica {
    /// Every version of a property of an object, oldest stamp first.
    public func versions(of object: UUID, _ property: HistoryProperty) throws -> [Version] {
        try VersionStorage.versions(object, property, db)
    }

    /// The heads of a property of an object, by stamp.
    public func heads(of object: UUID, _ property: HistoryProperty) throws -> [ChangeStamp] {
        try VersionStorage.heads(object, property, db)
    }

    /// The heads of a property of an object with their delta depths, by stamp.
    public func headsWithDepths(of object: UUID, _ property: HistoryProperty) throws -> [(
        stamp: ChangeStamp, depth: Int
    )] {
        try VersionStorage.line(object, property, connection).entries.filter(\.isHead).map {
            (stamp: $0.stamp, depth: $0.depth)
        }
    }

    /// Whether the item's current name or body is other bytes than `text`; nil when the item
    /// has none. Compared where SQLite holds it, without making a text of it: a 10 MB body.
    public func currentText(of object: UUID, _ property: HistoryProperty, differsFrom text: String) throws -> Bool? {
        if property == .body, let held = heldBody(of: object) { return !held.hasSameBytes(as: text) }
        let statement = try connection.cachedStatement(
            sql: "SELECT \(property == .name ? "name" : "body") FROM item WHERE id = ?")
        guard let row = try Row.fetchOne(statement, arguments: [object.storeString]), !row.hasNull(atIndex: 0) else {
            return nil
        }
        var text = text
        text.makeContiguousUTF8()
        return try row.withUnsafeData(atIndex: 0) { stored -> Bool in
            let stored = stored ?? Data()
            guard stored.count == text.utf8.count else { return true }
            return stored.withUnsafeBytes { storedBytes in
                text.utf8.withContiguousStorageIfAvailable { bytes in
                    bytes.isEmpty || memcmp(storedBytes.baseAddress!, bytes.baseAddress!, bytes.count) != 0
                } ?? !storedBytes.elementsEqual(text.utf8)
            }
        }
    }

    /// The text of a version; nil when there is no such version.
    public func text(of object: UUID, _ property: HistoryProperty, at stamp: ChangeStamp) throws -> String? {
        // What a version keeps in the item is the body held back, when one is.
        try VersionStorage.text(
            object, property, stamp, itemText: property == .body ? heldBody(of: object) : nil, connection)
    }

    /// Whether the version is in history.
    public func hasVersion(of object: UUID, _ property: HistoryProperty, at stamp: ChangeStamp) throws -> Bool {
        try VersionStorage.line(object, property, connection).index(of: stamp) != nil
    }

    /// Whether an arriving version is one that a baseline dropped below the cut of its
    /// property, arriving again: it descends from none of the versions history holds
    /// (docs/sync-format.md, "Retention of history"). False when the property has no cut.
    public func isBelowHistoryCut(
        of object: UUID, _ property: HistoryProperty, stamp: ChangeStamp, bases: [ChangeStamp]?
    ) throws -> Bool {
        try VersionStorage.isBelowCut(object, property, stamp: stamp, bases: bases, connection)
    }

    /// Records the cuts of a baseline merged into the store, replacing earlier ones of the same
    /// properties.
    public func recordHistoryCuts(_ cuts: [HistoryCut]) throws {
        for cut in cuts { try VersionStorage.recordCut(cut, db) }
    }

    /// The cut the store records for a property of an object, if any.
    public func historyCut(of object: UUID, _ property: HistoryProperty) throws -> ChangeStamp? {
        try VersionStorage.cut(of: object, property, db)
    }

    /// Removes every version of a property of an object: a store that merges a baseline whose
    /// cut of that property it does not hold has only versions below the cut
    /// (docs/sync-format.md, "Retention of history"). The item keeps its value.
    public func removeHistory(of object: UUID, _ property: HistoryProperty) throws {
        try VersionStorage.write(HistoryLine(object: object, property: property), db)
    }

    /// Takes back versions this device saved and never published: removes them from history,
    /// and the property from the outbox rows of their saves (a row left with nothing is
    /// removed). The caller sets the heads and the item's value.
    public func withdrawUnpublishedVersions(_ stamps: Set<ChangeStamp>, of object: UUID, _ property: HistoryProperty)
        throws
    {
        var line = try VersionStorage.line(object, property, db)
        line.remove(stamps)
        try VersionStorage.write(line, db)
        let clocks = Set(stamps.map { Int64(bitPattern: $0.clock) })
        let entries = try SQLRequest<OutboxEntry>(
            literal: "SELECT \(sql: OutboxEntry.columns) FROM outbox WHERE object = \(object.storeString)"
        ).fetchAll(db)
        for entry in entries where clocks.contains(Int64(bitPattern: entry.clock)) {
            var changes = entry.changes
            guard changes[property.rawValue] != nil else { continue }
            changes.remove(property.rawValue)
            var history = entry.history
            history?.bases[property] = nil
            history?.restored[property] = nil
            history?.fromMerge.remove(property)
            if history?.bases.isEmpty == true && history?.restored.isEmpty == true { history?.context = nil }
            if changes.properties.isEmpty && entry.operation == .update {
                try db.execute(literal: "DELETE FROM outbox WHERE id = \(entry.sequence)")
            } else {
                try db.execute(
                    literal: """
                        UPDATE outbox SET changes = \(changes.json), \
                        history = \(history.flatMap { $0.isEmpty ? nil : $0.json })
                        WHERE id = \(entry.sequence)
                        """)
            }
        }
    }

    /// Writes a version unless one with its stamp is there; returns whether it wrote it. With
    /// `asOnlyHead`, a version written is made the only head in the same write.
    @discardableResult
    public func addVersion(_ version: VersionDraft, asOnlyHead: Bool = false) throws -> Bool {
        let added = try VersionStorage.insert(version, onlyHeadIfNew: asOnlyHead, connection)
        // A name's version changes the names the item is found by, also when it does not
        // become its name (a concurrent rename that lost, a version arriving late).
        if added, version.property == .name { searchIndex.namesChanged(version.object.storeString) }
        return added
    }

    /// Makes exactly `heads` the heads of a property of an object; `current`: the heads as
    /// they are, when the caller read them already.
    public func setHeads(
        _ heads: Set<ChangeStamp>, of object: UUID, _ property: HistoryProperty, current: [ChangeStamp]? = nil
    ) throws {
        try VersionStorage.setHeads(heads, object, property, current: current, db)
    }

    /// The current name or body of an item; nil when there is no such item (or body).
    public func currentText(of object: UUID, _ property: HistoryProperty) throws -> String? {
        if property == .body, let held = heldBody(of: object) { return held }
        // Cached statements with placeholders, here and below in this file:
        // an import runs each for every version it merges.
        return try String.fetchOne(
            connection.cachedStatement(sql: "SELECT \(property == .name ? "name" : "body") FROM item WHERE id = ?"),
            arguments: [object.storeString])
    }

    /// How many conflicts the store has recorded.
    public func conflictCount() throws -> Int {
        try Int.fetchOne(connection.cachedStatement(sql: "SELECT COUNT(*) FROM conflict")) ?? 0
    }

    /// Records that `loser` could not merge with the concurrent `winner`; the greatest winner
    /// is kept, so that the record does not depend on the order versions arrive in.
    public func recordConflict(
        object: UUID, property: HistoryProperty, loser: ChangeStamp, winner: ChangeStamp, copy: UUID?
    ) throws {
        try db.cachedStatement(
            sql: """
                INSERT INTO conflict(object, property, loser, winner, copy) VALUES (?, ?, ?, ?, ?)
                ON CONFLICT(object, property, loser) DO UPDATE SET winner = MAX(winner, excluded.winner)
                """
        ).execute(arguments: [object.storeString, property.rawValue, loser.text, winner.text, copy?.storeString])
    }
}
