import Foundation
import GRDB

/// Sync's own bookkeeping in the store: its values (applied positions, state, the container it
/// syncs with), the outbox rows it has exported, the store's clock and what the store has seen
/// of each device. Written in a transaction of its own (``Store/recordSync(durable:_:)``), or
/// with the changes of an import (``Replica/ledger``), so that applying a log and recording
/// it commit together.
public final class SyncLedger {
    let db: Database

    init(db: Database) {
        self.db = db
    }

    /// A value sync keeps for itself in the store.
    public func value(_ key: String) throws -> String? {
        // Cached statements with placeholders, here and below in this file:
        // sync runs each for every log it exports or imports.
        try String.fetchOne(db.cachedStatement(sql: "SELECT value FROM sync_state WHERE key = ?"), arguments: [key])
    }

    /// Sets a value; nil removes it.
    public func setValue(_ value: String?, for key: String) throws {
        if let value {
            try db.cachedStatement(sql: "INSERT OR REPLACE INTO sync_state(key, value) VALUES (?, ?)").execute(arguments: [key, value])
        } else {
            try db.cachedStatement(sql: "DELETE FROM sync_state WHERE key = ?").execute(arguments: [key])
        }
    }

    /// The values whose key starts with `prefix`.
    public func values(withPrefix prefix: String) throws -> [String: String] {
        try Self.values(withPrefix: prefix, db)
    }

    static func values(withPrefix prefix: String, _ db: Database) throws -> [String: String] {
        let rows = try SQLRequest<Row>(
            literal: "SELECT key, value FROM sync_state WHERE key >= \(prefix) AND key < \(prefix + "\u{10FFFF}")"
        ).fetchAll(db)
        return Dictionary(rows.map { ($0["key"] as String, $0["value"] as String) }, uniquingKeysWith: { first, _ in first })
    }

    /// Removes exported outbox rows, up to and including `sequence`.
    public func removeOutboxEntries(through sequence: Int64) throws {
        try db.cachedStatement(sql: "DELETE FROM outbox WHERE id <= ?").execute(arguments: [sequence])
    }

    /// Moves the store's clock past a clock seen in an imported change.
    public func observe(clock: UInt64) throws {
        try db.cachedStatement(
            sql: """
                INSERT INTO metadata(key, value) VALUES ('clock', ?)
                ON CONFLICT(key) DO UPDATE SET value = MAX(CAST(value AS INTEGER), CAST(excluded.value AS INTEGER))
                """
        ).execute(arguments: [String(clock)])
    }

    /// Raises what the store has seen of each device: the greatest clock of its changes that
    /// it applied (what a purge saved here had seen; docs/sync-format.md, "Causal deletes").
    public func noteKnowledge(_ clocks: [UUID: UInt64]) throws {
        for (device, clock) in clocks {
            try db.cachedStatement(
                sql: """
                    INSERT INTO knowledge(device, clock) VALUES (?, ?)
                    ON CONFLICT(device) DO UPDATE SET clock = MAX(clock, excluded.clock)
                    """
            ).execute(arguments: [device.storeString, Int64(bitPattern: clock)])
        }
    }
}

extension Store {
    /// Runs `body` on sync's bookkeeping in one write transaction.
    ///
    /// With `durable: false` the commit does not wait for the disk (see
    /// ``replicate(durable:_:)``).
    @discardableResult
    public func recordSync<T>(durable: Bool = true, _ body: (SyncLedger) throws -> T) throws -> T {
        try write(durable: durable) { db in try body(SyncLedger(db: db)) }
    }

    /// The sync values whose key starts with `prefix`, as last committed.
    public func syncValues(withPrefix prefix: String) throws -> [String: String] {
        try read { db in try SyncLedger.values(withPrefix: prefix, db) }
    }
}
