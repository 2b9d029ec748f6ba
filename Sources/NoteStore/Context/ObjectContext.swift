import Foundation
import GRDB

/// A scratch pad of changes to the store, saved as one transaction, in the spirit of Core
/// Data's managed object context.
///
/// A context hands out items, keeps the ones that were inserted, changed or deleted, and on
/// ``save()`` validates and writes them all in one SQLite transaction, together with the
/// outbox record of what changed. ``rollback()`` forgets every unsaved change. Fetches see the
/// context's unsaved changes. A context is meant for one thread at a time.
public final class ObjectContext {
    public let store: Store

    /// What the context knows of one object: as last saved (nil when inserted) and as now.
    struct Registration {
        var original: Item?
        var current: Item
    }

    var registry: [UUID: Registration] = [:]
    var insertionOrder: [UUID] = []
    /// Items to purge on save, with the roots whose contents are purged with them.
    var deleted: [UUID: Item] = [:]
    var purgeRoots: [UUID] = []
    /// Versions brought back by ``restore(_:)``, recorded as such by the save.
    var restoring: [UUID: [HistoryProperty: ChangeStamp]] = [:]
    /// Inserted items that keep the dates they were given.
    var keepingDates: Set<UUID> = []
    /// The links found in the bodies of notes inserted, by their ids, when the inserter gave them.
    var bodyLinks: [UUID: BodyLinks] = [:]
    /// Attachments to write with the next save, with their bytes.
    var stagedAttachments: [(attachment: Attachment, bytes: AttachedFile.Bytes)] = []
    /// The bytes of the staged attachments that are held in memory (images not in a
    /// temporary file).
    public internal(set) var stagedAttachmentBytes = 0
    /// Tag changes to write with the next save, per note, in the order they were made.
    var stagedTags: [UUID: TagEdit] = [:]
    var taggedOrder: [UUID] = []
    /// Property changes to write with the next save, per note, in the order they were made.
    var stagedProperties: [UUID: PropertyEdit] = [:]
    var propertiedOrder: [UUID] = []

    init(store: Store) {
        self.store = store
    }

    /// True when there is something to save.
    public var hasChanges: Bool {
        !insertionOrder.isEmpty || !deleted.isEmpty || !stagedAttachments.isEmpty || !stagedTags.isEmpty
            || !stagedProperties.isEmpty
            || registry.values.contains { $0.original != nil && $0.original != $0.current }
    }

    /// Items inserted since the last save.
    public var insertedObjects: [Item] {
        insertionOrder.compactMap { registry[$0]?.current }
    }

    /// Existing items changed since the last save.
    public var updatedObjects: [Item] {
        registry.values.filter { $0.original != nil && $0.original != $0.current }.map(\.current)
    }

    /// Items that will be purged on save.
    public var deletedObjects: [Item] { Array(deleted.values) }

    // MARK: Inserting

    /// Inserts a new note; it is written on ``save()``.
    @discardableResult
    public func insertNote(named name: String, body: String = "", in parent: UUID? = nil) -> Item {
        insert(kind: .note, name: name, body: body, parent: parent)
    }

    /// Inserts a new collection; it is written on ``save()``.
    @discardableResult
    public func insertCollection(named name: String, in parent: UUID? = nil) -> Item {
        insert(kind: .collection, name: name, body: nil, parent: parent)
    }

    private func insert(kind: ItemKind, name: String, body: String?, parent: UUID?) -> Item {
        let now = store.wallClock.storeNow()
        let item = Item(
            id: UUID(), kind: kind, name: Item.normalizedName(name), created: now, modified: now,
            parent: parent, trashed: nil, body: body)
        registry[item.id] = Registration(original: nil, current: item)
        insertionOrder.append(item.id)
        return item
    }

    // MARK: Reading

    /// The item with this id, with the context's unsaved changes.
    public func object(with id: UUID) throws -> Item {
        if let registration = registry[id] { return registration.current }
        if deleted[id] != nil { throw StoreError.notFound(id) }
        guard let item = try store.read({ try Item.fetchOne($0, id: id) }) else {
            throw StoreError.notFound(id)
        }
        registry[id] = Registration(original: item, current: item)
        return item
    }

    /// Registers an item as it was read earlier (by another context, or before a long pause
    /// such as an editor session), so that a save refuses to overwrite what changed since
    /// (``StoreError/changedElsewhere(item:properties:)``). An item the context holds already
    /// keeps what it holds.
    public func adopt(_ item: Item) throws {
        guard registry[item.id] == nil else { return }
        if deleted[item.id] != nil { throw StoreError.notFound(item.id) }
        registry[item.id] = Registration(original: item, current: item)
    }

    /// The items that match the request, with the context's unsaved changes.
    public func fetch(_ request: ItemRequest) throws -> [Item] {
        let changed = registry.filter { $0.value.original != $0.value.current }
        if changed.isEmpty && deleted.isEmpty {
            return try store.fetch(request)
        }
        let window = request.limit.map { $0 + request.offset + changed.count + deleted.count }
        let sql = ItemFilter.sql(for: request, window: window)
        var items = try store.read { try Item.fetchAll($0, SQLRequest(literal: sql)) }
        items.removeAll { changed[$0.id] != nil || deleted[$0.id] != nil }
        for registration in changed.values where try matches(registration.current, request) {
            var item = registration.current
            if !request.includesBodies && item.isNote { item.body = nil }
            items.append(item)
        }
        items.sort { request.sort.orders($0, before: $1) }
        let tail = items.dropFirst(request.offset)
        return Array(request.limit.map { tail.prefix($0) } ?? tail)
    }

    private func matches(_ item: Item, _ request: ItemRequest) throws -> Bool {
        guard ItemFilter.matchesLocally(item, request) else { return false }
        if !request.tags.isEmpty, !Set(try tags(of: item.id)).isSuperset(of: request.tags) { return false }
        guard case let .descendants(of: root) = request.scope else { return true }
        return try ancestors(of: item).contains(root)
    }

    /// The ids of the collections above an item, nearest first, as this context sees them.
    func ancestors(of item: Item) throws -> [UUID] {
        var result: [UUID] = []
        var next = item.parent
        while let id = next, !result.contains(id) {
            result.append(id)
            next = try? object(with: id).parent
        }
        return result
    }

    /// The direct contents of a collection, as this context sees them (trashed ones included).
    func children(of id: UUID) throws -> [Item] {
        try fetch(ItemRequest(scope: .children(of: id), trash: .included, includesBodies: false))
    }

    // MARK: Changing

    /// Records a changed item: its name, body or parent. The body of a note fetched without
    /// its body (nil) is left as it is.
    public func update(_ item: Item) throws {
        var registration = try registration(for: item.id)
        var updated = registration.current
        updated.name = Item.normalizedName(item.name)
        if item.isNote, let body = item.body { updated.body = body }
        updated.parent = item.parent
        registration.current = updated
        registry[item.id] = registration
    }

    /// Moves an item into a collection, or to the top level with nil.
    public func move(_ id: UUID, to parent: UUID?) throws {
        var item = try object(with: id)
        item.parent = parent
        try update(item)
    }

    func registration(for id: UUID) throws -> Registration {
        if let registration = registry[id] { return registration }
        _ = try object(with: id)
        guard let registration = registry[id] else { throw StoreError.notFound(id) }
        return registration
    }

    func setTrashed(_ date: Date?, on id: UUID) throws {
        var registration = try registration(for: id)
        registration.current.trashed = date
        registry[id] = registration
    }

    /// Forgets every unsaved change: inserts, updates, trashing and purges.
    public func rollback() {
        registry.removeAll()
        insertionOrder.removeAll()
        deleted.removeAll()
        purgeRoots.removeAll()
        restoring.removeAll()
        keepingDates.removeAll()
        bodyLinks.removeAll()
        Store.removeTemporaries(stagedAttachments.map(\.bytes))
        stagedAttachments.removeAll()
        stagedAttachmentBytes = 0
        stagedTags.removeAll()
        taggedOrder.removeAll()
        stagedProperties.removeAll()
        propertiedOrder.removeAll()
    }
}
