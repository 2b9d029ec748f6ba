import Foundation
import GRDB

/// A purged object as the store remembers it: when it was purged, what the purge had seen,
/// and its merged state, so that a change the purge had not seen can bring it back
/// (docs/sync-format.md, "Causal deletes").
public struct TombstoneRecord: Sendable {
    public let entity: Entity
    /// The greatest stamp of the purges of the object.
    public let stamp: ChangeStamp
    /// The greatest clock of each device whose changes the purges had seen, together; nil
    /// for a purge that had seen everything (sync format 1).
    public let seen: [UUID: UInt64]?
    /// The merged values of a purged note or collection, and their stamps.
    public let values: OutboxChanges?
    public let stamps: [String: ChangeStamp]

    /// Whether the purges had seen a change with this stamp.
    public func hasSeen(_ stamp: ChangeStamp) -> Bool {
        Self.hasSeen(stamp, seen)
    }

    /// Whether `seen` covers a change with this stamp (nil covers everything).
    public static func hasSeen(_ stamp: ChangeStamp, _ seen: [UUID: UInt64]?) -> Bool {
        guard let seen else { return true }
        guard let clock = seen[stamp.device] else { return false }
        return stamp.clock <= clock
    }
}

extension TombstoneRecord {
    /// The element-wise greatest of two records of what was seen; nil (everything) wins.
    public static func union(_ a: [UUID: UInt64]?, _ b: [UUID: UInt64]?) -> [UUID: UInt64]? {
        guard let a, let b else { return nil }
        return a.merging(b, uniquingKeysWith: max)
    }

    /// What the tombstone of an attachment keeps: its note, whose purge must have seen the
    /// attachment's removal too.
    static func attachmentState(note: UUID) -> String {
        "{\"note\":\"\(note.storeString)\"}"
    }

    /// The state of an item as a tombstone keeps it: its merged values (the merged parent,
    /// not the shown one) and stamps, as JSON.
    static func capturedState(of id: String, _ db: Database) throws -> String? {
        // Cached statements with placeholders, here and below in this file:
        // an import runs each for every purge it weighs.
        guard
            let row = try Row.fetchOne(
                db.cachedStatement(
                    sql: """
                        SELECT \(ItemFilter.columns(includingBody: true)), item.stamps, \
                        displaced.item IS NOT NULL AS isDisplaced,
                            displaced.parent AS mergedParent
                        FROM item LEFT JOIN displaced ON displaced.item = item.id WHERE item.id = ?
                        """),
                arguments: [id])
        else { return nil }
        var item = try Item(row: row)
        if row["isDisplaced"] as Bool { item.parent = (row["mergedParent"] as String?).flatMap(UUID.init(storeText:)) }
        var values = OutboxChanges(inserting: item)
        values.remove("kind")
        return "{\"stamps\":" + (row["stamps"] as String? ?? "{}") + ",\"values\":" + values.json + "}"
    }
}

extension Replica {
    /// The tombstone of an object, when it was purged.
    public func tombstoneRecord(of object: UUID) throws -> TombstoneRecord? {
        guard
            let row = try Row.fetchOne(
                connection.cachedStatement(sql: "SELECT entity, stamp, seen, state FROM tombstone WHERE object = ?"),
                arguments: [object.storeString]),
            let stamp = ChangeStamp(text: row["stamp"]), let entity = Entity(rawValue: row["entity"])
        else { return nil }
        var values: OutboxChanges?
        var stamps: [String: ChangeStamp] = [:]
        if let state = row["state"] as String?, let members = JSONScanner.object(Data(state.utf8)) {
            for (key, value) in members {
                guard case let .object(inner) = value else { continue }
                var changes = OutboxChanges()
                for (name, item) in inner {
                    switch item {
                    case let .text(text): changes.set(name, .text(text))
                    case let .integer(number): changes.set(name, .integer(number))
                    case .null: changes.set(name, .null)
                    default: break
                    }
                }
                if key == "values" { values = changes }
                if key == "stamps" { stamps = Self.stamps(changes.json) }
            }
        }
        return TombstoneRecord(
            entity: entity, stamp: stamp, seen: (row["seen"] as String?).flatMap(ChangeHistory.seen(json:)),
            values: values, stamps: stamps)
    }

    /// Records a purge of an object that stays (it has changes the purge had not seen): its
    /// tombstone, joined with any earlier one.
    public func recordPurge(of object: UUID, entity: Entity, stamp: ChangeStamp, seen: [UUID: UInt64]?) throws {
        let existing = try tombstoneRecord(of: object)
        let joined = existing.map { TombstoneRecord.union($0.seen, seen) } ?? seen
        let greatest = max(existing?.stamp ?? stamp, stamp)
        try db.cachedStatement(
            sql: """
                INSERT INTO tombstone(object, entity, stamp, seen) VALUES (?, ?, ?, ?)
                ON CONFLICT(object) DO UPDATE SET stamp = excluded.stamp, seen = excluded.seen
                """
        ).execute(arguments: [object.storeString, entity.rawValue, greatest.text, joined.map(ChangeHistory.seenJSON)])
    }

    /// Keeps the merged state of a purged object: its values and stamps.
    public func setTombstoneState(of object: UUID, values: OutboxChanges, stamps: [String: ChangeStamp]) throws {
        let state = "{\"stamps\":" + Self.stampsJSON(stamps) + ",\"values\":" + values.json + "}"
        try db.cachedStatement(sql: "UPDATE tombstone SET state = ? WHERE object = ?").execute(arguments: [
            state, object.storeString,
        ])
    }

    /// The stamps a purge must have seen to erase an item: those of its current values, of
    /// every version of its name and body, and of its attachments. (The removal of an
    /// attachment is not counted: it leaves nothing a person could lose.)
    public func survivalStamps(of object: UUID) throws -> [ChangeStamp] {
        var result: [ChangeStamp] = []
        if let json = try String.fetchOne(
            db.cachedStatement(sql: "SELECT stamps FROM item WHERE id = ?"), arguments: [object.storeString])
        {
            result += Self.stamps(json).values
        }
        for property in HistoryProperty.allCases {
            result += try VersionStorage.line(object, property, db).entries.map(\.stamp)
        }
        for json in try String.fetchAll(
            db.cachedStatement(
                sql: """
                    SELECT stamps FROM attachment WHERE note = ?1 \
                    UNION ALL SELECT stamps FROM file_attachment WHERE note = ?1
                    """
            ),
            arguments: [object.storeString])
        {
            result += Self.stamps(json).values
        }
        return result
    }

    /// The note an attachment belongs to, when there is such an attachment.
    public func attachmentNote(of attachment: UUID) throws -> UUID? {
        try String.fetchOne(
            db.cachedStatement(
                sql: """
                    SELECT note FROM attachment WHERE id = ?1 \
                    UNION ALL SELECT note FROM file_attachment WHERE id = ?1 LIMIT 1
                    """
            ),
            arguments: [attachment.storeString]
        ).flatMap(UUID.init(storeText:))
    }

    /// The items that are there although purged: kept for changes their purges had not seen.
    public func keptPurgedItems() throws -> [UUID] {
        // From the tombstones, as ``Store/hasKeptPurgedItems()`` reads them.
        try String.fetchAll(db, sql: "SELECT item.id FROM tombstone CROSS JOIN item ON item.id = tombstone.object")
            .compactMap(UUID.init(storeText:))
    }
}

/// What the store has seen of each device, for the purges it saves.
enum Knowledge {
    static func clocks(_ db: Database) throws -> [UUID: UInt64] {
        var result: [UUID: UInt64] = [:]
        for row in try Row.fetchAll(db, sql: "SELECT device, clock FROM knowledge") {
            if let device = UUID(storeText: row["device"]) { result[device] = UInt64(bitPattern: row["clock"]) }
        }
        return result
    }
}

extension Store {
    /// Whether any item is there although purged (kept for changes its purges had not seen).
    public func hasKeptPurgedItems() throws -> Bool {
        // The tombstones are read, and each looked up among the items (`CROSS JOIN` keeps that
        // order): SQLite's own choice read every item's id, 40% of a `sync now` with nothing to
        // do at 100,000 notes.
        try read { db in
            try Bool.fetchOne(
                db.cachedStatement(
                    sql: "SELECT EXISTS (SELECT 1 FROM tombstone CROSS JOIN item ON item.id = tombstone.object)"))
                ?? false
        }
    }
}
