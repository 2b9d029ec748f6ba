import Foundation
import GRDB

/// What one save wrote.
public struct SaveSummary: Sendable, Equatable {
    /// The save's number in this store; outbox rows of one save share it.
    public let save: Int64
    public let inserted: [UUID]
    public let updated: [UUID]
    public let purged: [UUID]
    /// Attachments added by the save.
    public let attached: [UUID]
    /// Attachments removed by the save, on their own or with their note.
    public let detached: [UUID]
    /// Notes whose tags the save changed.
    public let retagged: [UUID]
    /// Notes whose properties the save changed.
    public var propertiesChanged: [UUID] = []
}

extension ObjectContext {
    /// Validates and writes every change as one transaction, with its outbox record.
    ///
    /// If any rule fails, nothing is written, the error lists every failure, and the context
    /// keeps its changes so that they can be corrected or rolled back.
    @discardableResult
    public func save() throws -> SaveSummary? {
        guard hasChanges else { return nil }
        let staged = stagedAttachments
        let summary: SaveSummary
        do {
            summary = try store.write { db -> SaveSummary in
                try SaveWriter.writing(db, now: store.wallClock.storeNow(), device: store.deviceID) { writer in
                    writer.restoring = restoring
                    try writer.begin()
                    for id in insertionOrder {
                        if let item = registry[id]?.current {
                            try writer.insert(item, keepingDates: keepingDates.contains(id), links: bodyLinks[id])
                        }
                    }
                    try writer.writeFirstVersions()
                    // The bytes are put in place inside the transaction, as Store.attachImages
                    // does: many with one wait for the disk (an import's batch).
                    try store.writeBlobs(staged.map { ($0.bytes, $0.attachment.sha256) })
                    for (attachment, _) in staged { try writer.insert(attachment) }
                    for registration in registry.values {
                        guard let original = registration.original, original != registration.current else {
                            continue
                        }
                        try writer.update(from: original, to: registration.current)
                    }
                    for id in taggedOrder where deleted[id] == nil {
                        if let item = registry[id]?.current, let edit = stagedTags[id] {
                            try writer.writeTags(of: item, edit)
                        }
                    }
                    for id in propertiedOrder where deleted[id] == nil {
                        if let edit = stagedProperties[id] { try writer.writeProperties(of: id, edit) }
                    }
                    try writer.trashLateContents()
                    try writer.purge(roots: purgeRoots, expected: Array(deleted.values))
                    try writer.validateRelations()
                    try writer.finish()
                    return writer.summary
                }
            }
        } catch {
            if !staged.isEmpty { try? store.releaseBlobs(staged.map(\.attachment.sha256)) }
            throw error
        }
        rollback()
        if !summary.detached.isEmpty { try store.releaseBlobs() }
        return summary
    }
}

/// Writes one save inside its transaction, collecting validation failures as it goes.
struct SaveWriter {
    let db: Database
    let now: Date
    var failures: [ValidationFailure] = []
    var outbox = OutboxWriter()
    /// The full-text entries the save changes, written when it finishes.
    let searchIndex = SearchIndex.Batch()
    var inserted: [UUID] = []
    var updated: [UUID] = []
    var purged: [UUID] = []
    var attached: [UUID] = []
    var detached: [UUID] = []
    var retagged: [UUID] = []
    var propertiesChanged: [UUID] = []
    /// Items whose place in the hierarchy must be checked once everything is written.
    var placed: [Item] = []
    var trashedCollections: [Item] = []
    var saveNumber: Int64 = 0
    let device: UUID
    /// The stamp of every change of this save: the store's clock, ticked once per save, and
    /// at least ``floor``.
    var stamp: ChangeStamp
    /// The least clock of the save: above the stamps of the values it replaces, once
    /// ``writing(_:now:device:_:)`` has found them.
    let floor: UInt64
    /// The greatest stamp of a value the save replaces.
    var replaced: ChangeStamp?
    /// The versions that the save brings back, per item and property.
    var restoring: [UUID: [HistoryProperty: ChangeStamp]] = [:]
    /// What this device calls itself in sync: saved with each version.
    var deviceName: String?
    /// The first versions of the items the save inserts, written together in key order.
    var firstVersions: [FirstVersions] = []

    init(db: Database, now: Date, device: UUID, floor: UInt64 = 0) {
        self.db = db
        self.now = now
        self.device = device
        self.floor = floor
        stamp = ChangeStamp(clock: 0, device: device)
    }

    /// The JSON of `stamps` for an object inserted by this save.
    var insertionStamps: String { "{\"*\":\"\(stamp.text)\"}" }

    var summary: SaveSummary {
        SaveSummary(
            save: saveNumber, inserted: inserted, updated: updated, purged: purged,
            attached: attached, detached: detached,
            retagged: retagged.reduce(into: []) { if !$0.contains($1) { $0.append($1) } },
            propertiesChanged: propertiesChanged.reduce(into: []) { if !$0.contains($1) { $0.append($1) } })
    }

    mutating func begin() throws {
        // Parents inserted later in the same save are checked at commit, not row by row: the
        // schema declares every reference deferred (StoreSchema.deferReferences).
        // Cached statements: each save runs them once, and preparing one costs more than running it.
        saveNumber =
            try Int64.fetchOne(
                db.cachedStatement(sql: "SELECT CAST(value AS INTEGER) + 1 FROM metadata WHERE key = 'last_save'")) ?? 1
        let last =
            try String.fetchOne(db.cachedStatement(sql: "SELECT value FROM metadata WHERE key = 'clock'"))
            .flatMap { UInt64($0) } ?? 0
        stamp = ChangeStamp(clock: max(HybridClock.tick(after: last, now: now), floor), device: device)
        deviceName = try Self.deviceName(db)
        outbox.isRecording = try ChangeRecording.isOn(db)
    }

    /// Inserts the item's row; `links`: those found in its body already, when they were.
    mutating func insert(_ item: Item, keepingDates: Bool = false, links: BodyLinks? = nil) throws {
        var item = item
        item.name = Item.normalizedName(item.name)
        if !keepingDates {
            item.created = now
            item.modified = now
        }
        let problems = item.propertyFailures()
        guard problems.isEmpty else { return failures += problems }
        // A cached statement with placeholders: a save of many items runs it once per item, and
        // an interpolated statement would be built again for each.
        let statement = try db.cachedStatement(
            sql: """
                INSERT INTO item (id, kind, name, parent, created, modified, trashed, body, stamps)
                VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)
                """)
        let body = item.kind == .note ? (item.body ?? "") : nil
        try statement.execute(
            arguments: [
                item.id.storeString, item.kind.rawValue, item.name, item.parent?.storeString,
                item.created.storeMilliseconds, item.modified.storeMilliseconds,
                item.trashed?.storeMilliseconds, body, insertionStamps,
            ])
        searchIndex.inserted(
            rowid: db.lastInsertedRowID, id: item.id.storeString, text: (item.name, body), links: links)
        let history = recordFirstVersions(of: item)
        outbox.record(.insert, item: item, changes: OutboxChanges(inserting: item), history: history)
        inserted.append(item.id)
        placed.append(item)
    }

    mutating func update(from original: Item, to current: Item) throws {
        var current = current
        current.name = Item.normalizedName(current.name)
        if current.isNote && current.body == nil { current.body = original.body }
        let problems = current.propertyFailures()
        guard problems.isEmpty else { return failures += problems }
        var changes = OutboxChanges()
        // Names of columns in the SQL, values as placeholders: executed with its arguments, a
        // statement binds a text where it lies, where a 10 MB body bound beforehand was copied
        // twice.
        var assignments: [String] = []
        var arguments: [(any DatabaseValueConvertible)?] = []
        func set(_ column: String, _ value: OutboxValue) {
            assignments.append("\(column) = ?")
            arguments.append(value.databaseValue)
            changes.set(column, value)
        }
        if current.name != original.name { set("name", .text(current.name)) }
        if current.isNote, current.body != original.body { set("body", .text(current.body ?? "")) }
        if current.parent != original.parent { set("parent", .id(current.parent)) }
        let contentChanged = !assignments.isEmpty
        if current.trashed != original.trashed { set("trashed", .date(current.trashed)) }
        guard !assignments.isEmpty else { return }
        let stamps = try checkUnchangedElsewhere(original, changes: changes)
        if contentChanged { set("modified", .date(now)) }
        replacing(stamps, changes.properties.map(\.name))
        assignments.append(StampsColumn.assignment(of: changes.properties.map(\.name)))
        arguments += changes.properties.map { _ in stamp.text }
        arguments.append(current.id.storeString)
        let textChanged = changes["name"] != nil || changes["body"] != nil
        if textChanged {
            try searchIndex.willChange(current.id.storeString, db)
            if changes["name"] != nil { try VersionStorage.keepCurrentText(of: current.id, .name, db) }
            if changes["body"] != nil { try VersionStorage.keepCurrentText(of: current.id, .body, db) }
        }
        try db.cachedStatement(sql: "UPDATE item SET \(assignments.joined(separator: ", ")) WHERE id = ?").execute(
            arguments: StatementArguments(arguments))
        guard db.changesCount == 1 else {
            throw StoreError.invalidOperation(item: current.label, reason: "it was purged by another process meanwhile")
        }
        if textChanged { try searchIndex.didChange(db) }
        if changes["parent"] != nil {
            try db.execute(literal: "DELETE FROM displaced WHERE item = \(current.id.storeString)")
        }
        let history = try recordVersions(
            of: current, changes: changes, originalBody: original.body, restored: restoring[current.id] ?? [:])
        outbox.record(.update, item: current, changes: changes, history: history)
        updated.append(current.id)
        if current.parent != original.parent || (original.isTrashed && !current.isTrashed) {
            placed.append(current)
        }
        if current.isTrashed && !original.isTrashed && current.isCollection {
            trashedCollections.append(current)
        }
    }

    /// Refuses the save when a property it changes no longer has, in the store, the value the
    /// context read: another process or an import changed it since, and writing over it would
    /// lose that change without a word (Core Data's default merge policy does the same).
    /// Returns the row's stamps.
    private func checkUnchangedElsewhere(_ original: Item, changes: OutboxChanges) throws -> String? {
        let checksBody = changes["body"] != nil && original.body != nil
        let body: SQL = checksBody ? "body" : "NULL AS body"
        let row = try SQLRequest<Row>(
            literal: """
                SELECT name, parent, trashed, \(literal: body), stamps \
                FROM item WHERE id = \(original.id.storeString)
                """,
            cached: true
        ).fetchOne(db)
        guard let row else { return nil }  // purged meanwhile: the update says so
        var changed: [String] = []
        if changes["name"] != nil, (row["name"] as String) != original.name { changed.append("name") }
        if checksBody, (row["body"] as String?) != original.body { changed.append("body") }
        if changes["parent"] != nil, (row["parent"] as String?) != original.parent?.storeString {
            changed.append("place")
        }
        if changes["trashed"] != nil, (row["trashed"] as Int64?) != original.trashed?.storeMilliseconds {
            changed.append("trash state")
        }
        guard changed.isEmpty else { throw StoreError.changedElsewhere(item: original.label, properties: changed) }
        return row["stamps"]
    }

    /// Trashes contents that another process put into the collections trashed by this save
    /// after this context read them. Runs once every update of the save is written.
    mutating func trashLateContents() throws {
        for collection in trashedCollections {
            try trashLiveContents(of: collection)
        }
    }

    private mutating func trashLiveContents(of collection: Item) throws {
        let rows = try SQLRequest<Row>(
            literal: """
                WITH RECURSIVE subtree(id) AS (
                    SELECT id FROM item WHERE parent = \(collection.id.storeString)
                    UNION SELECT item.id FROM item JOIN subtree ON item.parent = subtree.id)
                SELECT \(sql: ItemFilter.columns(includingBody: false)), stamps FROM item
                WHERE id IN subtree AND trashed IS NULL
                """
        ).fetchAll(db)
        for row in rows {
            var item = try Item(row: row)
            replacing(row["stamps"], ["trashed"])
            item.trashed = collection.trashed
            try db.execute(
                literal: """
                    UPDATE item SET trashed = \(item.trashed?.storeMilliseconds), \
                    stamps = json_set(stamps, '$.trashed', \(stamp.text))
                    WHERE id = \(item.id.storeString)
                    """)
            var changes = OutboxChanges()
            changes.set("trashed", .date(item.trashed))
            outbox.record(.update, item: item, changes: changes)
            updated.append(item.id)
        }
    }
}
