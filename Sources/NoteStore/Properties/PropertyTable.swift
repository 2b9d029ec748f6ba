import Foundation
import GRDB

/// The rows of properties: dots with their values (`property`) and what later changes had
/// seen (`property_removal`); see ``Property`` and StoreSchema's version 10. Shared by local
/// saves and by ``Replica``.
enum PropertyTable {
    /// One dot of a key: the stamp of the save that set the value.
    struct Dot: Equatable {
        let stamp: ChangeStamp
        let value: String
        let position: Int64
    }

    /// The dots of one key on one item.
    static func dots(of item: UUID, _ key: String, _ db: Database) throws -> [Dot] {
        // Cached statements with placeholders, here and below in this file: an import runs
        // each for every property change it applies.
        try Row.fetchAll(
            db.cachedStatement(sql: "SELECT stamp, value, position FROM property WHERE item = ? AND key = ?"),
            arguments: [item.storeString, key]
        ).compactMap { row in
            guard let stamp = ChangeStamp(text: row["stamp"]) else { return nil }
            return Dot(stamp: stamp, value: row["value"], position: row["position"])
        }
    }

    /// What the changes of a key had seen, per device: each dot with a clock up to it is gone.
    static func seen(of item: UUID, _ key: String, _ db: Database) throws -> [UUID: UInt64] {
        var result: [UUID: UInt64] = [:]
        for row in try Row.fetchAll(
            db.cachedStatement(sql: "SELECT device, clock FROM property_removal WHERE item = ? AND key = ?"),
            arguments: [item.storeString, key])
        {
            if let device = UUID(storeText: row["device"]) { result[device] = UInt64(bitPattern: row["clock"]) }
        }
        return result
    }

    /// Whether a change of the key had seen the dot.
    static func isCovered(_ dot: ChangeStamp, item: UUID, _ key: String, _ db: Database) throws -> Bool {
        let seen = try Int64.fetchOne(
            db.cachedStatement(sql: "SELECT clock FROM property_removal WHERE item = ? AND key = ? AND device = ?"),
            arguments: [item.storeString, key, dot.device.storeString])
        return seen.map { dot.clock <= UInt64(bitPattern: $0) } ?? false
    }

    /// Adds a dot; true when it was not there.
    @discardableResult
    static func insert(_ dot: ChangeStamp, item: UUID, _ key: String, value: String, position: Int64, _ db: Database)
        throws -> Bool
    {
        try db.cachedStatement(
            sql: "INSERT OR IGNORE INTO property(item, key, stamp, value, position) VALUES (?, ?, ?, ?, ?)"
        )
        .execute(arguments: [item.storeString, key, dot.text, value, position])
        return db.changesCount > 0
    }

    /// Records what a change had seen, per device (joined with earlier ones by taking the
    /// greatest clock), and removes the dots it covers.
    static func cover(item: UUID, _ key: String, seen: [UUID: UInt64], _ db: Database) throws {
        for (device, clock) in seen {
            try db.cachedStatement(
                sql: """
                    INSERT INTO property_removal(item, key, device, clock) VALUES (?, ?, ?, ?)
                    ON CONFLICT(item, key, device) DO UPDATE SET clock = MAX(clock, excluded.clock)
                    """
            ).execute(arguments: [item.storeString, key, device.storeString, Int64(bitPattern: clock)])
        }
        for dot in try dots(of: item, key, db) where (seen[dot.stamp.device].map { dot.stamp.clock <= $0 } ?? false) {
            try db.cachedStatement(sql: "DELETE FROM property WHERE item = ? AND key = ? AND stamp = ?")
                .execute(arguments: [item.storeString, key, dot.stamp.text])
        }
    }

    /// The properties of one item: for each key, the value of its latest dot, by position then
    /// key. A value that does not read as JSON (never written by a build) is left out.
    static func properties(of item: UUID, _ db: Database) throws -> [NoteProperty] {
        try properties(
            rows: Row.fetchAll(
                db.cachedStatement(sql: "SELECT item, key, stamp, value, position FROM property WHERE item = ?"),
                arguments: [item.storeString]))[item] ?? []
    }

    /// The value of one property of an item, as ``properties(of:_:)`` reads it; nil when the
    /// item has none under `key`.
    static func value(of key: String, item: UUID, _ db: Database) throws -> PropertyValue? {
        try properties(
            rows: Row.fetchAll(
                db.cachedStatement(
                    sql: "SELECT item, key, stamp, value, position FROM property WHERE item = ? AND key = ?"),
                arguments: [item.storeString, key]))[item]?.first?.value
    }

    /// The values of one property of several items, each as ``value(of:item:_:)`` reads it;
    /// items without one are left out. One query, through the index on keys.
    static func values(of key: String, items ids: [UUID], _ db: Database) throws -> [UUID: PropertyValue] {
        guard !ids.isEmpty else { return [:] }
        let rows = try Row.fetchAll(
            db.cachedStatement(
                sql: """
                    SELECT item, key, stamp, value, position FROM property \
                    WHERE key = ? AND item IN (SELECT value FROM json_each(?))
                    """),
            arguments: [key, IDList.json(ids)])
        return properties(rows: rows).compactMapValues { $0.first?.value }
    }

    /// The properties of several items, each as ``properties(of:_:)``; items without any are
    /// left out. One query, prepared once: an export asks for a page of notes at a time.
    static func properties(ofItems ids: [UUID], _ db: Database) throws -> [UUID: [NoteProperty]] {
        guard !ids.isEmpty else { return [:] }
        let rows = try Row.fetchAll(
            db.cachedStatement(
                sql: """
                    SELECT item, key, stamp, value, position FROM property \
                    WHERE item IN (SELECT value FROM json_each(?))
                    """),
            arguments: [IDList.json(ids)])
        return properties(rows: rows)
    }

    private static func properties(rows: [Row]) -> [UUID: [NoteProperty]] {
        var latest: [UUID: [String: (stamp: ChangeStamp, value: String, position: Int64)]] = [:]
        for row in rows {
            guard let id = UUID(storeText: row["item"]), let stamp = ChangeStamp(text: row["stamp"]) else { continue }
            let key: String = row["key"]
            if let current = latest[id]?[key], current.stamp > stamp { continue }
            latest[id, default: [:]][key] = (stamp, row["value"], row["position"])
        }
        var result: [UUID: [NoteProperty]] = [:]
        for (id, keys) in latest {
            let list = keys.compactMap { key, dot -> NoteProperty? in
                guard let value = PropertyValue(json: dot.value) else { return nil }
                return NoteProperty(key: key, value: value, position: dot.position)
            }.sorted { ($0.position, $0.key) < ($1.position, $1.key) }
            result[id] = list
        }
        return result
    }

    /// Whether the database has the tables of properties (a store before model version 10 has
    /// not).
    static func exists(_ db: Database) throws -> Bool {
        try db.tableExists("property")
    }
}
