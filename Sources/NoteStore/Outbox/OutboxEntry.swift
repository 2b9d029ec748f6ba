import Foundation
import GRDB

/// One recorded change of one object: what sync will export as part of a transaction log.
public struct OutboxEntry: Sendable, Equatable {
    public enum Operation: String, Sendable {
        case insert, update, delete
    }

    /// Increasing with every recorded change.
    public let sequence: Int64
    /// The save that made the change; one save is one transaction.
    public let save: Int64
    /// The model version that wrote the change.
    public let modelVersion: Int
    public let entity: Entity
    public let object: UUID
    public let operation: Operation
    public let changes: OutboxChanges
    public let recorded: Date
    /// The store's hybrid logical clock at the save; with the store's device, the stamp of
    /// the change.
    public let clock: UInt64
    /// What the change carries for history: the bases of the names and bodies it sets.
    public let history: ChangeHistory?
}

/// Collects the outbox rows of one save and writes them in its transaction.
struct OutboxWriter {
    struct Row {
        var entity: Entity
        var object: UUID
        var operation: OutboxEntry.Operation
        var changes: OutboxChanges
        var history: ChangeHistory?
    }

    private var rows: [Row] = []
    /// Whether the save records its changes (``ChangeRecording``); when not, every `record`
    /// is passed over, its changes not even made, and nothing is written.
    var isRecording = true

    mutating func record(
        _ operation: OutboxEntry.Operation, item: Item, changes: @autoclosure () -> OutboxChanges,
        history: ChangeHistory? = nil
    ) {
        record(operation, entity: Entity(item.kind), object: item.id, changes: changes(), history: history)
    }

    mutating func record(
        _ operation: OutboxEntry.Operation, entity: Entity, object: UUID, changes: @autoclosure () -> OutboxChanges,
        history: ChangeHistory? = nil
    ) {
        guard isRecording else { return }
        rows.append(Row(entity: entity, object: object, operation: operation, changes: changes(), history: history))
    }

    mutating func recordDeletion(of id: UUID, kind: ItemKind, seen: [UUID: UInt64]? = nil) {
        guard isRecording else { return }
        rows.append(
            Row(
                entity: Entity(kind), object: id, operation: .delete, changes: OutboxChanges(),
                history: seen.map { ChangeHistory(seen: $0) }))
    }

    /// The rows with the inserted collections first, each after the one that holds it, so
    /// that any cut of a save into parts never names a collection before it exists; the other
    /// rows keep their order.
    var orderedRows: [Row] {
        let isCollectionInsert = { (row: Row) in row.entity == .collection && row.operation == .insert }
        let inserts = rows.filter(isCollectionInsert)
        guard inserts.count > 1 else { return inserts + rows.filter { !isCollectionInsert($0) } }
        let byID = Dictionary(inserts.map { ($0.object, $0) }, uniquingKeysWith: { first, _ in first })
        var placed: Set<UUID> = []
        var visiting: Set<UUID> = []
        var ordered: [Row] = []
        func place(_ row: Row) {
            guard !placed.contains(row.object), visiting.insert(row.object).inserted else { return }
            if case let .text(parent)? = row.changes["parent"], let id = UUID(storeText: parent), let above = byID[id] {
                place(above)
            }
            if placed.insert(row.object).inserted { ordered.append(row) }
        }
        for row in inserts { place(row) }
        return ordered + rows.filter { !isCollectionInsert($0) }
    }

    func write(to db: Database, save: Int64, clock: UInt64, at date: Date) throws {
        // A cached statement with placeholders: a save runs it once for each change it records.
        let statement = try db.cachedStatement(
            sql: """
                INSERT INTO outbox (save, model, entity, object, operation, changes, recorded, clock, history)
                VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)
                """)
        for row in orderedRows {
            try statement.execute(arguments: [
                save, StoreSchema.currentModelVersion, row.entity.rawValue, row.object.storeString,
                row.operation.rawValue, row.changes.json, date.storeMilliseconds, Int64(bitPattern: clock),
                row.history.flatMap { $0.isEmpty ? nil : $0.json },
            ])
        }
    }
}

// The reads below run at every sync and at each of a watcher's events: their statements are
// prepared once per connection.
extension Store {
    /// Whether any recorded change waits to be taken by sync.
    public func hasOutboxEntries() throws -> Bool {
        try read(Self.hasOutboxEntries)
    }

    /// ``hasOutboxEntries()`` as `db` holds it.
    static func hasOutboxEntries(_ db: Database) throws -> Bool {
        try Bool.fetchOne(db.cachedStatement(sql: "SELECT EXISTS (SELECT 1 FROM outbox)")) ?? false
    }

    /// How many recorded changes wait to be taken by sync.
    public func outboxCount() throws -> Int {
        try read { db in try Int.fetchOne(db.cachedStatement(sql: "SELECT COUNT(*) FROM outbox")) ?? 0 }
    }

    /// The last outbox row, nil when the outbox is empty.
    public func lastOutboxSequence() throws -> Int64? {
        try read { db in try Int64.fetchOne(db.cachedStatement(sql: "SELECT MAX(id) FROM outbox")) }
    }

    /// The recorded changes not yet taken by sync, oldest first.
    public func outboxEntries() throws -> [OutboxEntry] {
        try read { db in
            try OutboxEntry.fetchAll(db.cachedStatement(sql: "SELECT \(OutboxEntry.columns) FROM outbox ORDER BY id"))
        }
    }

    /// At most `limit` of the recorded changes after outbox row `row`, oldest first: a page
    /// of them, for reading a large outbox in bounded memory.
    public func outboxEntries(after row: Int64, limit: Int) throws -> [OutboxEntry] {
        try read { db in
            try OutboxEntry.fetchAll(
                db.cachedStatement(sql: "SELECT \(OutboxEntry.columns) FROM outbox WHERE id > ? ORDER BY id LIMIT ?"),
                arguments: [row, limit])
        }
    }

    /// The recorded changes of outbox rows `rows`, oldest first.
    public func outboxEntries(in rows: ClosedRange<Int64>) throws -> [OutboxEntry] {
        try read { db in
            try OutboxEntry.fetchAll(
                db.cachedStatement(
                    sql: "SELECT \(OutboxEntry.columns) FROM outbox WHERE id BETWEEN ? AND ? ORDER BY id"),
                arguments: [rows.lowerBound, rows.upperBound])
        }
    }
}

extension OutboxEntry: FetchableRecord {
    /// The columns of the `outbox` table that an entry is read from.
    enum Columns {
        static let id = Column("id")
        static let save = Column("save")
        static let model = Column("model")
        static let entity = Column("entity")
        static let object = Column("object")
        static let operation = Column("operation")
        static let changes = Column("changes")
        static let recorded = Column("recorded")
        static let clock = Column("clock")
        static let history = Column("history")
    }

    /// The columns of the `outbox` table that an entry is read from, in the order of ``Columns``.
    static let columns = "id, save, model, entity, object, operation, changes, recorded, clock, history"

    /// Decodes an entry from a row of the `outbox` table.
    ///
    /// A row with an unknown entity or operation, an object that is not an id, or changes or
    /// history that cannot be read throws ``StoreError/damagedRow(table:id:problem:)``: sync
    /// never exports a made-up change.
    public init(row: Row) throws {
        let sequence: Int64 = row[Columns.id]
        let rowID = String(sequence)
        func damaged(_ problem: String) -> StoreError {
            StoreError.damagedRow(table: "outbox", id: rowID, problem: problem)
        }
        guard let changes = OutboxChanges(json: row[Columns.changes]) else {
            throw damaged("its changes are not a JSON object")
        }
        var history: ChangeHistory?
        if let text = row[Columns.history] as String? {
            guard let read = ChangeHistory(json: text) else { throw damaged("its history cannot be read") }
            history = read
        }
        self.init(
            sequence: sequence, save: row[Columns.save], modelVersion: row[Columns.model],
            entity: try row.storeCase(Columns.entity, table: "outbox", rowID: rowID),
            object: try row.storeID(Columns.object, table: "outbox", rowID: rowID),
            operation: try row.storeCase(Columns.operation, table: "outbox", rowID: rowID),
            changes: changes, recorded: Date(storeMilliseconds: row[Columns.recorded]),
            clock: UInt64(bitPattern: row[Columns.clock]), history: history)
    }
}
