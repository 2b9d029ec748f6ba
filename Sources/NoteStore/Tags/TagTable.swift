import Foundation
import GRDB

/// The rows of tags: dots (`tag`) and what removals had seen (`tag_removal`); see
/// ``Tag`` and StoreSchema's version 5. Shared by local saves and by ``Replica``.
enum TagTable {
    /// The dots of one tag on one item.
    static func dots(of item: UUID, _ name: String, _ db: Database) throws -> [ChangeStamp] {
        // Cached statements with placeholders, here and below in this file:
        // an import runs each for every tag change it applies.
        try String.fetchAll(
            db.cachedStatement(sql: "SELECT stamp FROM tag WHERE item = ? AND name = ?"),
            arguments: [item.storeString, name]
        ).compactMap(ChangeStamp.init(text:))
    }

    /// Whether a removal of the tag had seen the dot.
    static func isRemoved(_ dot: ChangeStamp, item: UUID, _ name: String, _ db: Database) throws -> Bool {
        let seen = try Int64.fetchOne(
            db.cachedStatement(sql: "SELECT clock FROM tag_removal WHERE item = ? AND name = ? AND device = ?"),
            arguments: [item.storeString, name, dot.device.storeString])
        return seen.map { dot.clock <= UInt64(bitPattern: $0) } ?? false
    }

    /// Adds a dot; true when it was not there.
    @discardableResult
    static func insert(_ dot: ChangeStamp, item: UUID, _ name: String, _ db: Database) throws -> Bool {
        try db.cachedStatement(sql: "INSERT OR IGNORE INTO tag(item, name, stamp) VALUES (?, ?, ?)")
            .execute(arguments: [item.storeString, name, dot.text])
        return db.changesCount > 0
    }

    /// Records what a removal had seen, per device (joined with earlier removals by taking the
    /// greatest clock), and removes the dots it covers.
    static func remove(item: UUID, _ name: String, seen: [UUID: UInt64], _ db: Database) throws {
        for (device, clock) in seen {
            try db.cachedStatement(
                sql: """
                    INSERT INTO tag_removal(item, name, device, clock) VALUES (?, ?, ?, ?)
                    ON CONFLICT(item, name, device) DO UPDATE SET clock = MAX(clock, excluded.clock)
                    """
            ).execute(arguments: [item.storeString, name, device.storeString, Int64(bitPattern: clock)])
        }
        for dot in try dots(of: item, name, db) where (seen[dot.device].map { dot.clock <= $0 } ?? false) {
            try db.cachedStatement(sql: "DELETE FROM tag WHERE item = ? AND name = ? AND stamp = ?")
                .execute(arguments: [item.storeString, name, dot.text])
        }
    }

    /// The tags on one item, sorted.
    static func names(of item: UUID, _ db: Database) throws -> [String] {
        try String.fetchAll(
            db.cachedStatement(sql: "SELECT DISTINCT name FROM tag WHERE item = ? ORDER BY name"),
            arguments: [item.storeString])
    }

    /// Whether the database has the tables of tags (a baseline of model version 4 has not).
    static func exists(_ db: Database) throws -> Bool {
        try db.tableExists("tag")
    }
}
