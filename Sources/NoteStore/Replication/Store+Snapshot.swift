import Foundation
import GRDB

/// One object of a snapshot: its values and the stamps of its properties, or its tombstone.
public struct SnapshotRecord: Sendable {
    public let entity: Entity
    public let object: UUID
    /// `insert` for an object that exists, `delete` for a tombstone.
    public let operation: OutboxEntry.Operation
    public let values: OutboxChanges
    /// Per property; `*` for the properties not listed. A tombstone has its stamp under `*`.
    public let stamps: [String: ChangeStamp]
    /// The bases of the name and body versions it carries.
    public var history: ChangeHistory? = nil
}

/// The store as it was at one moment, held while the store goes on changing: a read of its own
/// connection, open until this goes. Its records are read one at a time, so that a snapshot of
/// a million notes is pushed in bounded memory.
public final class StoreSnapshot {
    private let snapshot: DatabaseSnapshot
    private let folder: URL
    /// The last outbox row whose change the snapshot includes.
    public let outboxThrough: Int64

    init(_ database: any DatabaseWriter, folder: URL) throws {
        self.folder = folder
        do {
            // Only a pool (a store opened to write) holds a snapshot beside its other connections.
            guard let pool = database as? DatabasePool else {
                throw DatabaseError(resultCode: .SQLITE_MISUSE, message: "a snapshot needs a store opened to write")
            }
            snapshot = try pool.makeSnapshot()
            outboxThrough = try snapshot.read { db in
                try Int64.fetchOne(db, sql: "SELECT COALESCE(MAX(id), 0) FROM outbox") ?? 0
            }
        } catch {
            throw StoreError.database(path: folder.path, underlying: error)
        }
    }

    /// Hands each record to `body`, in the order of ``Store/snapshot()``.
    public func forEachRecord(_ body: (SnapshotRecord) throws -> Void) throws {
        do {
            try snapshot.read { db in try Store.forEachSnapshotRecord(db, body) }
        } catch let error as DatabaseError {
            throw StoreError.database(path: folder.path, underlying: error)
        }
    }
}

extension Store {
    /// Everything the store holds, for pushing into a container: collections (each after the
    /// collection that holds it), then notes, then attachments, then tombstones, then tags (a
    /// dot each, then what removals had seen); and the last
    /// outbox row whose change the snapshot includes.
    public func snapshot() throws -> (records: [SnapshotRecord], outboxThrough: Int64) {
        let held = try holdSnapshot()
        var records: [SnapshotRecord] = []
        try held.forEachRecord { records.append($0) }
        return (records, held.outboxThrough)
    }

    /// The store as it is now, held until the snapshot goes (``StoreSnapshot``).
    public func holdSnapshot() throws -> StoreSnapshot {
        try StoreSnapshot(database, folder: folder)
    }

    /// Hands everything a database of the store's schema holds to `body`, one record at a time,
    /// as ``snapshot()`` orders it.
    static func forEachSnapshotRecord(_ db: Database, _ body: (SnapshotRecord) throws -> Void) throws {
        let itemsSQL = """
            SELECT \(ItemFilter.columns(includingBody: true)), item.stamps,
                displaced.item IS NOT NULL AS isDisplaced, displaced.parent AS mergedParent
            FROM item LEFT JOIN displaced ON displaced.item = item.id WHERE item.kind = ? ORDER BY item.rowid
            """
        func item(_ row: Row) throws -> Item {
            var item = try Item(row: row)
            // The merged parent, not the one shown: other devices repair for themselves.
            if row["isDisplaced"] as Bool {
                item.parent = (row["mergedParent"] as String?).flatMap(UUID.init(storeText:))
            }
            return item
        }
        var collections: [(Item, [String: ChangeStamp])] = []
        for row in try Row.fetchAll(db, sql: itemsSQL, arguments: [ItemKind.collection.rawValue]) {
            collections.append((try item(row), Replica.stamps(row["stamps"])))
        }
        for (item, stamps) in Self.parentsFirst(collections) {
            for record in try Self.records(item, stamps: stamps, db) { try body(record) }
        }
        let notes = try Row.fetchCursor(db, sql: itemsSQL, arguments: [ItemKind.note.rawValue])
        while let row = try notes.next() {
            for record in try Self.records(try item(row), stamps: Replica.stamps(row["stamps"]), db) {
                try body(record)
            }
        }
        let attachments = try Row.fetchCursor(
            db, sql: "SELECT \(Attachment.columns), stamps FROM \(Attachment.source) ORDER BY kind DESC, position")
        while let row = try attachments.next() {
            let attachment = try Attachment(row: row)
            try body(
                SnapshotRecord(
                    entity: attachment.entity, object: attachment.id, operation: .insert,
                    values: attachment.insertionChanges, stamps: Replica.stamps(row["stamps"])))
        }
        let tombstones = try Row.fetchCursor(
            db, sql: "SELECT object, entity, stamp, seen FROM tombstone ORDER BY object")
        while let row = try tombstones.next() {
            guard let object = UUID(storeText: row["object"]), let entity = Entity(rawValue: row["entity"]),
                let stamp = ChangeStamp(text: row["stamp"])
            else { continue }
            // A purged note or collection goes with its merged state and history, so that
            // a change its purge had not seen brings it back the same on every device.
            if try Item.fetchOne(db, id: object, includingBody: false) == nil,
                let purged = try Self.purgedItem(object, entity: entity, db)
            {
                for record in try Self.records(purged.item, stamps: purged.stamps, db) { try body(record) }
            }
            // What the purges had seen travels with them: an item kept for a change they
            // had not seen stays kept on the devices this reaches.
            let seen = (row["seen"] as String?).flatMap(ChangeHistory.seen(json:))
            try body(
                SnapshotRecord(
                    entity: entity, object: object, operation: .delete, values: OutboxChanges(), stamps: ["*": stamp],
                    history: seen.map { ChangeHistory(seen: $0) }))
        }
        if try TagTable.exists(db) { for record in try tagRecords(db) { try body(record) } }
        if try PropertyTable.exists(db) { for record in try propertyRecords(db) { try body(record) } }
    }

    /// Each dot of each property as its insert, with the dot as its stamp, then, per item and
    /// key, a removal carrying what the changes of that key had seen (its stamp: the greatest
    /// of them).
    private static func propertyRecords(_ db: Database) throws -> [SnapshotRecord] {
        var records: [SnapshotRecord] = []
        for row in try Row.fetchAll(
            db, sql: "SELECT item, key, stamp, value, position FROM property ORDER BY item, key, stamp")
        {
            guard let item = UUID(storeText: row["item"]), let dot = ChangeStamp(text: row["stamp"]) else { continue }
            records.append(
                SnapshotRecord(
                    entity: .property, object: item, operation: .insert,
                    values: SaveWriter.propertyChanges(row["key"], row["value"], row["position"]), stamps: ["*": dot]))
        }
        var removals: [String: (item: UUID, key: String, seen: [UUID: UInt64])] = [:]
        var order: [String] = []
        for row in try Row.fetchAll(
            db, sql: "SELECT item, key, device, clock FROM property_removal ORDER BY item, key, device")
        {
            guard let item = UUID(storeText: row["item"]), let device = UUID(storeText: row["device"]) else { continue }
            let key: String = row["key"]
            let group = (row["item"] as String) + "/" + key
            if removals[group] == nil { order.append(group) }
            removals[group, default: (item, key, [:])].seen[device] = UInt64(bitPattern: row["clock"])
        }
        for group in order {
            guard let removal = removals[group],
                let greatest = removal.seen.max(by: { ($0.value, $0.key.storeString) < ($1.value, $1.key.storeString) })
            else { continue }
            records.append(
                SnapshotRecord(
                    entity: .property, object: removal.item, operation: .delete,
                    values: SaveWriter.propertyChanges(removal.key),
                    stamps: ["*": ChangeStamp(clock: greatest.value, device: greatest.key)],
                    history: ChangeHistory(seen: removal.seen)))
        }
        return records
    }

    /// Each dot of each tag as its insert, with the dot as its stamp, then each removal as a
    /// delete carrying what the removals of that tag had seen (its stamp: the greatest of them).
    private static func tagRecords(_ db: Database) throws -> [SnapshotRecord] {
        var records: [SnapshotRecord] = []
        for row in try Row.fetchAll(db, sql: "SELECT item, name, stamp FROM tag ORDER BY item, name, stamp") {
            guard let item = UUID(storeText: row["item"]), let dot = ChangeStamp(text: row["stamp"]) else { continue }
            records.append(
                SnapshotRecord(
                    entity: .tag, object: item, operation: .insert, values: SaveWriter.tagChanges(row["name"]),
                    stamps: ["*": dot]))
        }
        var removals: [String: (item: UUID, name: String, seen: [UUID: UInt64])] = [:]
        var order: [String] = []
        for row in try Row.fetchAll(
            db, sql: "SELECT item, name, device, clock FROM tag_removal ORDER BY item, name, device")
        {
            guard let item = UUID(storeText: row["item"]), let device = UUID(storeText: row["device"]) else { continue }
            let name: String = row["name"]
            let key = (row["item"] as String) + "/" + name
            if removals[key] == nil { order.append(key) }
            removals[key, default: (item, name, [:])].seen[device] = UInt64(bitPattern: row["clock"])
        }
        for key in order {
            guard let removal = removals[key],
                let greatest = removal.seen.max(by: { ($0.value, $0.key.storeString) < ($1.value, $1.key.storeString) })
            else { continue }
            records.append(
                SnapshotRecord(
                    entity: .tag, object: removal.item, operation: .delete, values: SaveWriter.tagChanges(removal.name),
                    stamps: ["*": ChangeStamp(clock: greatest.value, device: greatest.key)],
                    history: ChangeHistory(seen: removal.seen)))
        }
        return records
    }

    /// The insert of an item, then its whole history: the insert carries the first version of
    /// its name (and body), each later version follows as an update after the versions it was
    /// edited from, so that a receiver meets every version after its bases, as it would have
    /// from the logs, and derives the same heads and merges.
    private static func records(_ item: Item, stamps: [String: ChangeStamp], _ db: Database) throws -> [SnapshotRecord]
    {
        var values = OutboxChanges(inserting: item)
        values.remove("kind")
        var stamps = stamps
        var history = ChangeHistory()
        var later: [(Version, String)] = []
        let entity = Entity(item.kind)
        for property in HistoryProperty.allCases where property == .name || item.isNote {
            let versions = causalOrder(try VersionStorage.versions(item.id, property, db))
            guard let first = versions.first, let text = try VersionStorage.text(item.id, property, first.stamp, db)
            else { continue }
            values.set(property.rawValue, .text(text))
            stamps[property.rawValue] = first.stamp
            if let bases = first.bases { history.bases[property] = bases }
            if first.fromMerge { history.fromMerge.insert(property) }
            if property == .body || history.context == nil { history.context = first.context }
            for version in versions.dropFirst() {
                guard let text = try VersionStorage.text(item.id, property, version.stamp, db) else { continue }
                later.append((version, text))
            }
        }
        var records = [
            SnapshotRecord(
                entity: entity, object: item.id, operation: .insert, values: values, stamps: stamps,
                history: history.isEmpty ? nil : history)
        ]
        for (version, text) in later {
            var update = OutboxChanges()
            update.set(version.property.rawValue, .text(text))
            var history = ChangeHistory(
                bases: version.bases.map { [version.property: $0] } ?? [:],
                restored: version.restored.map { [version.property: $0] } ?? [:], context: version.context)
            if version.fromMerge { history.fromMerge.insert(version.property) }
            records.append(
                SnapshotRecord(
                    entity: entity, object: item.id, operation: .update, values: update,
                    stamps: ["*": version.stamp, version.property.rawValue: version.stamp], history: history))
        }
        return records
    }

    /// The item a tombstone keeps the state of, with its stamps; nil when it keeps none.
    private static func purgedItem(_ object: UUID, entity: Entity, _ db: Database) throws -> (
        item: Item, stamps: [String: ChangeStamp]
    )? {
        guard let kind = entity.itemKind else { return nil }
        let replica = Replica(db: db)
        guard let record = try replica.tombstoneRecord(of: object), let values = record.values,
            record.stamps["*"] != nil, values["name"] != nil, values["created"] != nil
        else { return nil }
        return (Item(id: object, kind: kind, values: values), record.stamps)
    }

    /// Versions ordered so that each comes after the versions it was edited from (and a
    /// version without bases after every smaller stamp): by stamp, bases first.
    static func causalOrder(_ versions: [Version]) -> [Version] {
        let byStamp = Dictionary(versions.map { ($0.stamp, $0) }, uniquingKeysWith: { first, _ in first })
        var placed: Set<ChangeStamp> = []
        var result: [Version] = []
        func place(_ version: Version) {
            guard placed.insert(version.stamp).inserted else { return }
            for base in (version.bases ?? []).sorted() { if let found = byStamp[base] { place(found) } }
            result.append(version)
        }
        for version in versions.sorted(by: { $0.stamp < $1.stamp }) { place(version) }
        return result
    }

    /// Collections ordered so that each comes after its parent.
    static func parentsFirst(_ collections: [(Item, [String: ChangeStamp])]) -> [(Item, [String: ChangeStamp])] {
        let byID = Dictionary(collections.map { ($0.0.id, $0) }, uniquingKeysWith: { first, _ in first })
        var placed: Set<UUID> = []
        var visiting: Set<UUID> = []
        var result: [(Item, [String: ChangeStamp])] = []
        // Merged parents can form a cycle (shown broken): visiting stops the walk there.
        func place(_ entry: (Item, [String: ChangeStamp])) {
            guard !placed.contains(entry.0.id), visiting.insert(entry.0.id).inserted else { return }
            if let parent = entry.0.parent, let parentEntry = byID[parent] { place(parentEntry) }
            if placed.insert(entry.0.id).inserted { result.append(entry) }
        }
        for entry in collections { place(entry) }
        return result
    }
}
