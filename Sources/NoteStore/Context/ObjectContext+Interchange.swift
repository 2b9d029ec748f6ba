import Foundation
import GRDB

/// Inserts that keep what another store or an export said of an item: its id and its dates,
/// and image attachments written with the save that inserts their note.
extension ObjectContext {
    /// Inserts an item with a given id and dates (an item brought in from an export); it is
    /// written on ``save()`` with those dates. The id must not be in use, nor purged
    /// (``Store/knownIDs(among:)``).
    @discardableResult
    public func insert(
        _ kind: ItemKind, id: UUID, named name: String, body: String?, in parent: UUID?, created: Date, modified: Date,
        links: BodyLinks? = nil
    ) -> Item {
        let item = Item(
            id: id, kind: kind, name: Item.normalizedName(name),
            created: Date(storeMilliseconds: created.storeMilliseconds),
            modified: Date(storeMilliseconds: max(created, modified).storeMilliseconds),
            parent: parent, trashed: nil, body: kind == .note ? (body ?? "") : nil)
        registry[item.id] = Registration(original: nil, current: item)
        insertionOrder.append(item.id)
        keepingDates.insert(item.id)
        if let links, item.isNote { bodyLinks[item.id] = links }
        return item
    }

    /// Checks a file of any kind as ``Store/attach(_:to:caption:limit:)`` does (keeping
    /// `fileName` as its name when given and valid, else the file's own), to attach it to
    /// `note` on ``save()``, in the save's transaction: its bytes wait in a temporary file of
    /// the store (an image's in memory when the store has its blob). Returns the attachment, or nil
    /// when `known` counts an attachment of the same bytes (by SHA-256) that no file matched yet:
    /// that one is counted off, and nothing is staged. An import passes the note's attachments,
    /// so that two files of the same bytes stay two attachments, and importing again adds none.
    @discardableResult
    public func attachFile(
        _ file: URL, to note: Item, caption: String? = nil, fileName: String? = nil,
        limit: Int64 = Attachment.defaultFileLimit,
        unlessMatching known: inout [String: Int]
    ) throws -> Attachment? {
        try attachFile(
            store.prepareFile(file, fileName: fileName, limit: limit), to: note, caption: caption,
            unlessMatching: &known)
    }

    /// ``attachFile(_:to:caption:fileName:limit:unlessMatching:)`` of a file read already
    /// (``Store/prepareFile(_:fileName:limit:)``). Takes the prepared file over: its temporary
    /// file is staged, or removed when the file is refused or matched.
    public func attachFile(
        _ prepared: PreparedFile, to note: Item, caption: String? = nil, unlessMatching known: inout [String: Int]
    ) throws -> Attachment? {
        let read: AttachedFile.Read
        let checkedCaption: String?
        do {
            checkedCaption = try Attachment.checkedCaption(caption, for: note)
            read = try prepared.outcome.get()
        } catch let refusal as AttachedFile.Refusal {
            throw StoreError.cannotAttach(file: prepared.file.relativePath, note: note.label, reason: refusal.reason)
        } catch {
            prepared.discard()
            throw error
        }
        if let left = known[read.sha256], left > 0 {
            known[read.sha256] = left - 1
            prepared.discard()
            return nil
        }
        let attachment = AttachedFile.attachment(
            of: read, for: note, caption: checkedCaption, now: store.wallClock.storeNow())
        stagedAttachments.append((attachment, read.content))
        stagedAttachmentBytes += read.content.inMemory
        return attachment
    }

    /// ``attachFile(_:to:caption:fileName:limit:unlessMatching:)`` with nothing to match.
    @discardableResult
    public func attachFile(
        _ file: URL, to note: Item, caption: String? = nil, fileName: String? = nil,
        limit: Int64 = Attachment.defaultFileLimit
    ) throws -> Attachment? {
        var none: [String: Int] = [:]
        return try attachFile(file, to: note, caption: caption, fileName: fileName, limit: limit, unlessMatching: &none)
    }
}

extension Store {
    /// The items with these ids, with their bodies, in the order of `ids` (ids not found are
    /// left out): one read for many notes.
    public func bodies(of ids: [UUID]) throws -> [Item] {
        guard !ids.isEmpty else { return [] }
        let list = IDList.json(ids)
        return try read { db in
            var found: [UUID: Item] = [:]
            found.reserveCapacity(ids.count)
            let items = try Item.fetchCursor(
                db.cachedStatement(
                    sql: """
                        SELECT \(ItemFilter.columns(includingBody: true)) FROM item \
                        WHERE id IN (SELECT value FROM json_each(?))
                        """),
                arguments: [list])
            while let item = try items.next() { found[item.id] = item }
            return ids.compactMap { found[$0] }
        }
    }

    /// The attachments of each of these notes, oldest first, in one read.
    public func attachments(ofNotes ids: [UUID]) throws -> [UUID: [Attachment]] {
        guard !ids.isEmpty else { return [:] }
        let list = IDList.json(ids)
        return try read { db in
            var result: [UUID: [Attachment]] = [:]
            let attachments = try Attachment.fetchCursor(
                db.cachedStatement(
                    sql: """
                        SELECT \(Attachment.columns) \
                        FROM \(Attachment.source(where: "note IN (SELECT value FROM json_each(?1))")) \
                        ORDER BY note, created, kind DESC, position
                        """),
                arguments: [list])
            while let attachment = try attachments.next() { result[attachment.note, default: []].append(attachment) }
            return result
        }
    }

    /// Which of `ids` the store has, or had (purged: a purged id is never used again), in one
    /// query for many, as an import asks. The ids are given as a JSON array, each looked up in
    /// the index of ids, with one statement prepared once: a list of placeholders for each 500
    /// ids, prepared each time, was 4% of an import's saving thread.
    public func knownIDs(among ids: [UUID]) throws -> Set<UUID> {
        guard !ids.isEmpty else { return [] }
        let list = IDList.json(ids)
        return try read { db in
            let statement = try db.cachedStatement(
                sql: """
                    SELECT id FROM item WHERE id IN (SELECT value FROM json_each(?1)) \
                    UNION SELECT object FROM tombstone WHERE object IN (SELECT value FROM json_each(?1))
                    """)
            var known: Set<UUID> = []
            for text in try String.fetchAll(statement, arguments: [list]) {
                if let id = UUID(storeText: text) { known.insert(id) }
            }
            return known
        }
    }

    /// The ids, parents and names of the items a request matches, in its order, read row by row:
    /// for walking a large store without holding its items (an export).
    public func itemIDs(_ request: ItemRequest) throws -> [(id: UUID, parent: UUID?, name: String)] {
        let sql = ItemFilter.sql(for: request)
        return try read { db in
            var result: [(id: UUID, parent: UUID?, name: String)] = []
            let rows = try Row.fetchCursor(db, SQLRequest(literal: "SELECT id, parent, name FROM (\(sql))"))
            while let row = try rows.next() {
                let (id, rowID) = try row.storeRowID(table: "item")
                result.append(
                    (
                        id,
                        try row.storeIDIfPresent(Item.Columns.parent, table: "item", rowID: rowID),
                        row[Item.Columns.name]
                    ))
            }
            return result
        }
    }
}
