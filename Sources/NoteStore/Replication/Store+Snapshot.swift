import Foundation
import GRDB

/// One object of a snapshot: its values and the stamps of its properties, or its tombstone.
public struct SnapshotRecord: Sendable {
    public let entity: String
    public let object: UUID
    /// `insert` for an object that exists, `delete` for a tombstone.
    public let operation: OutboxEntry.Operation
    public let values: OutboxChanges
    /// Per property; `*` for the properties not listed. A tombstone has its stamp under `*`.
    public let stamps: [String: ChangeStamp]
}

extension Store {
    /// Everything the store holds, for pushing into a container: collections (each after the
    /// collection that holds it), then notes, then attachments, then tombstones; and the last
    /// outbox row whose change the snapshot includes.
    public func snapshot() throws -> (records: [SnapshotRecord], outboxThrough: Int64) {
        try read { db in
            let outboxThrough = try Int64.fetchOne(db, sql: "SELECT COALESCE(MAX(id), 0) FROM outbox") ?? 0
            var records: [SnapshotRecord] = []
            let items = try Row.fetchAll(
                db,
                sql: """
                    SELECT \(ItemFilter.columns(includingBody: true)), item.stamps, displaced.item IS NOT NULL, displaced.parent
                    FROM item LEFT JOIN displaced ON displaced.item = item.id ORDER BY item.kind, item.rowid
                    """)
            var collections: [(Item, [String: ChangeStamp])] = []
            var notes: [SnapshotRecord] = []
            for row in items {
                var item = Item(row: row)
                // The merged parent, not the one shown: other devices repair for themselves.
                if row[9] as Bool { item.parent = (row[10] as String?).flatMap(UUID.init(uuidString:)) }
                if item.isCollection {
                    collections.append((item, Replica.stamps(row[8])))
                } else {
                    notes.append(Self.record(item, stamps: Replica.stamps(row[8])))
                }
            }
            records += Self.parentsFirst(collections).map { Self.record($0.0, stamps: $0.1) }
            records += notes
            for row in try Row.fetchAll(db, sql: "SELECT \(Attachment.columns), stamps FROM attachment ORDER BY rowid") {
                guard let attachment = Attachment(row: row) else { continue }
                records.append(SnapshotRecord(
                    entity: attachment.entity, object: attachment.id, operation: .insert,
                    values: attachment.insertionChanges, stamps: Replica.stamps(row[10])))
            }
            for row in try Row.fetchAll(db, sql: "SELECT object, entity, stamp FROM tombstone ORDER BY object") {
                guard let object = UUID(uuidString: row[0]), let stamp = ChangeStamp(text: row[2]) else { continue }
                records.append(SnapshotRecord(
                    entity: row[1], object: object, operation: .delete, values: OutboxChanges(), stamps: ["*": stamp]))
            }
            return (records, outboxThrough)
        }
    }

    private static func record(_ item: Item, stamps: [String: ChangeStamp]) -> SnapshotRecord {
        var values = OutboxChanges(inserting: item)
        values.remove("kind")
        return SnapshotRecord(
            entity: OutboxWriter.entity(of: item.kind), object: item.id, operation: .insert, values: values, stamps: stamps)
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
