import Foundation
import GRDB

/// Writes changes that come from other devices, inside one write transaction of the store.
///
/// What a replica writes leaves no outbox row (imported changes are never exported again),
/// keeps the full-text index in step, and sets the stamps it is given. Which values win, where
/// items are shown and what a purge erases are the caller's decisions (sync's merge rules): a
/// replica offers typed primitives to decide with and to write (state and stamps, history,
/// tombstones, placement), and sync's bookkeeping in ``ledger``. It removes, before the
/// transaction commits, attachments left without their note. Valid only inside
/// ``Store/replicate(durable:_:)``.
public final class Replica {
    /// The transaction's connection, for what reads or writes the store: the changes held
    /// back (``hold(_:stamps:of:)``) are written first, so that it finds every row as it is.
    var db: Database {
        get throws {
            try writeHeldChanges()
            return connection
        }
    }
    /// The connection itself, for what needs no row that a held change is for: an import's
    /// usual edits of a note and what they read (stamps, history lines, tombstones, sync's
    /// bookkeeping), which leave the changes held back as they are.
    let connection: Database
    /// Items whose parent this transaction set, for the hierarchy repair.
    var movedItems: Set<UUID> = []
    /// Whether items may have lost their parent collection: only a purge does that. An item
    /// inserted or moved into a collection that is not there is placed by the repair.
    var mayHaveOrphanItems = false
    /// Whether attachments may have lost their note, or come for a note that is not there.
    var mayHaveOrphanAttachments = false
    var releasedBlobs = false
    /// The full-text entries the transaction changes, written before it commits.
    let searchIndex = SearchIndex.Batch()
    /// Sync's bookkeeping, committed with the changes.
    public let ledger: SyncLedger
    public internal(set) var written = 0
    /// Changes of notes' bodies and modification dates not yet written into their rows: an
    /// import of 200 edits of a 10 MB note rewrote the note's row, body and all, 200 times, a
    /// third of the import's time. Merged per note, and written once, when anything else uses
    /// the store, before the transaction commits, or once their bodies pass
    /// ``heldBytesLimit``.
    private var heldChanges: [UUID: HeldChange] = [:]
    /// The bytes of the bodies held back.
    private var heldBytes = 0
    /// The bytes of bodies held back at most: past it, every held change is written (an import
    /// of edits of many notes keeps one body of each in memory, else).
    static let heldBytesLimit = 32 << 20

    /// The columns whose changes are held back.
    static let heldColumns: Set<String> = ["body", "modified"]

    /// A note's values and stamps not yet written into its row.
    struct HeldChange {
        var values: [String: DatabaseValue] = [:]
        var stamps: [String: ChangeStamp] = [:]
    }

    init(db: Database) {
        connection = db
        ledger = SyncLedger(db: db)
    }

    /// Holds back checked values of ``heldColumns`` for the note's row, with their stamps.
    func hold(_ values: [String: DatabaseValue], stamps: [String: ChangeStamp], of note: UUID) throws {
        heldBytes -= Self.bytes(of: heldChanges[note]?.values["body"])
        heldChanges[note, default: HeldChange()].values.merge(values) { $1 }
        heldChanges[note, default: HeldChange()].stamps.merge(stamps) { $1 }
        heldBytes += Self.bytes(of: heldChanges[note]?.values["body"])
        if heldBytes > Self.heldBytesLimit { try writeHeldChanges() }
    }

    private static func bytes(of body: DatabaseValue?) -> Int {
        body.flatMap(String.fromDatabaseValue)?.utf8.count ?? 0
    }

    /// The body held back for the note, if any.
    func heldBody(of note: UUID) -> String? {
        heldChanges[note]?.values["body"].flatMap(String.fromDatabaseValue)
    }

    /// Writes the changes held back into their rows.
    func writeHeldChanges() throws {
        for (note, held) in heldChanges.sorted(by: { $0.key.storeString < $1.key.storeString }) {
            let columns = held.values.keys.sorted()
            let stamped = held.stamps.keys.sorted()
            var assignments = columns.map { "\($0) = ?" }
            var arguments: [DatabaseValue] = columns.map { held.values[$0]! }
            if !stamped.isEmpty {
                assignments.append(StampsColumn.assignment(of: stamped))
                arguments += stamped.map { held.stamps[$0]!.text.databaseValue }
            }
            arguments.append(note.storeString.databaseValue)
            try connection.cachedStatement(sql: "UPDATE item SET \(assignments.joined(separator: ", ")) WHERE id = ?")
                .execute(arguments: StatementArguments(arguments))
            heldChanges[note] = nil
            heldBytes -= Self.bytes(of: held.values["body"])
        }
    }

    /// An object as it is now: its entity and every property's stamp.
    public struct ObjectState: Sendable {
        public let entity: Entity
        /// Per property; `*` for the properties not listed.
        public let stamps: [String: ChangeStamp]

        /// The stamp of a property's last change.
        public func stamp(of property: String) -> ChangeStamp? {
            stamps[property] ?? stamps["*"]
        }
    }

    /// The object's current state, or nil when there is no such object.
    public func state(of object: UUID) throws -> ObjectState? {
        // A cached statement with a placeholder: an import asks this for every change it applies.
        guard
            let row = try Row.fetchOne(
                connection.cachedStatement(
                    sql: """
                        SELECT kind, stamps FROM item WHERE id = ?1
                        UNION ALL SELECT 'attachment', stamps FROM attachment WHERE id = ?1
                        UNION ALL SELECT 'file', stamps FROM file_attachment WHERE id = ?1
                        LIMIT 1
                        """),
                arguments: [object.storeString])
        else { return nil }
        let entity: Entity
        switch row["kind"] as String {
        case "attachment": entity = .imageAttachment
        case "file": entity = .fileAttachment
        default:
            entity = Entity(
                try row.storeCase(Item.Columns.kind, as: ItemKind.self, table: "item", rowID: object.storeString))
        }
        var stamps = Self.stamps(row["stamps"])
        if let held = heldChanges[object]?.stamps { stamps.merge(held) { $1 } }
        return ObjectState(entity: entity, stamps: stamps)
    }

    /// The stamp of the object's purge, when it was purged.
    public func tombstone(of object: UUID) throws -> ChangeStamp? {
        // Cached statements with placeholders, here and below in this file:
        // an import runs each for every change it applies.
        try String.fetchOne(
            connection.cachedStatement(sql: "SELECT stamp FROM tombstone WHERE object = ?"),
            arguments: [object.storeString]
        ).flatMap(ChangeStamp.init(text:))
    }

    static func stamps(_ json: String?) -> [String: ChangeStamp] {
        guard let json, let changes = OutboxChanges(json: json) else { return [:] }
        var result: [String: ChangeStamp] = [:]
        for (name, value) in changes.properties {
            if case let .text(text) = value, let stamp = ChangeStamp(text: text) { result[name] = stamp }
        }
        return result
    }

    static func stampsJSON(_ stamps: [String: ChangeStamp]) -> String {
        var changes = OutboxChanges()
        for (name, stamp) in stamps.sorted(by: { $0.key < $1.key }) { changes.set(name, .text(stamp.text)) }
        return changes.json
    }
}

extension Store {
    /// Runs `body` on a ``Replica`` in one write transaction, then removes blobs that no
    /// attachment uses any more. Sync applies changes through its own `merge`, which places
    /// the hierarchy before the transaction commits.
    ///
    /// With `durable: false` the commit does not wait for the disk: for what can be written
    /// again from elsewhere after a power cut, such as changes imported from logs that stay in
    /// the container, recorded in the same transaction as the logs applied. Such a transaction
    /// is still atomic, and durable once any later durable transaction commits.
    @discardableResult
    public func replicate<T>(durable: Bool = true, _ body: (Replica) throws -> T) throws -> T {
        var released = false
        let result = try write(durable: durable) { db -> T in
            let replica = Replica(db: db)
            let result = try body(replica)
            try replica.writeHeldChanges()
            try replica.removeOrphanAttachments()
            try replica.searchIndex.write(db)
            released = replica.releasedBlobs
            return result
        }
        if released { try releaseBlobs() }
        return result
    }

    /// A new temporary file in the store's blob folder, for a blob copied in a chunk at a
    /// time (``storeBlob(file:sha256:)``); a process that stops leaves it to the clean-up of
    /// leftovers.
    public func temporaryBlobFile() throws -> URL {
        do {
            try blobs.makeFolder()
        } catch BlobError.io(let path, let reason) {
            throw StoreError.cannotOpen(path: path, reason: reason)
        }
        return blobs.folder.appendingPathComponent(BlobStore.temporaryName())
    }

    /// Moves the file `file` (from ``temporaryBlobFile()``), which came from another device,
    /// into place as the blob `sha256`, after checking it against its hash a chunk at a time;
    /// the file is removed when it does not match.
    public func storeBlob(file: URL, sha256: String) throws {
        let matched: Bool
        do {
            matched = try blobs.adopt(file.path, sha256: sha256)
        } catch BlobError.io(let path, let reason) {
            throw StoreError.cannotOpen(path: path, reason: reason)
        }
        guard matched else {
            throw StoreError.invalidOperation(item: "blobs/\(sha256)", reason: "its bytes do not match their hash")
        }
    }

    /// The blob's file in the store, checked against its hash a chunk at a time, for publishing
    /// it without reading it whole.
    public func blobFile(_ sha256: String) throws -> URL {
        do {
            try blobs.verify(sha256)
        } catch {
            throw StoreError.invalidOperation(item: "blobs/\(sha256)", reason: "its bytes are missing or damaged")
        }
        return URL(fileURLWithPath: blobs.path(for: sha256))
    }

    /// Whether the store has the blob.
    public func hasBlob(_ sha256: String) -> Bool {
        blobs.exists(sha256)
    }
}
