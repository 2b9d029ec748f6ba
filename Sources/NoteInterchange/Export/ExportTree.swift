import Foundation
import NoteStore

/// The live items an export writes: every item at the top level and below, or one item and
/// everything below it. Collections are read once; of the notes, only ids, in order, by
/// collection, with their names (an export decides every file's name before it writes one);
/// bodies are read a page at a time (``ExportPage``, a few pages ahead of the writing), so that
/// memory stays flat however large the store is.
struct ExportTree {
    let store: Store
    /// What the export starts from, when it is one item (nil: the top level).
    let roots: [Item]
    private let collections: [UUID?: [Item]]
    private let notes: [UUID?: [(id: UUID, name: String)]]
    /// The collections that hold a note at any depth.
    private let holding: Set<UUID>

    init(store: Store, root: UUID?) throws {
        self.store = store
        var collections: [UUID?: [Item]] = [:]
        for item in try store.fetch(ItemRequest(kind: .collection, sort: .name, includesBodies: false)) {
            collections[item.parent, default: []].append(item)
        }
        var notes: [UUID?: [(id: UUID, name: String)]] = [:]
        for (id, parent, name) in try store.itemIDs(ItemRequest(kind: .note, sort: .name, includesBodies: false)) {
            notes[parent, default: []].append((id, name))
        }
        var parents: [UUID: UUID] = [:]
        for case let (parent?, children) in collections {
            for child in children { parents[child.id] = parent }
        }
        var holding: Set<UUID> = []
        for case let parent? in notes.keys {
            var current: UUID? = parent
            while let collection = current, holding.insert(collection).inserted { current = parents[collection] }
        }
        self.collections = collections
        self.notes = notes
        self.holding = holding
        if let root {
            let item = try store.item(root, includingBody: false)
            guard !item.isTrashed else {
                throw StoreError.invalidOperation(item: item.label, reason: "it is in the trash")
            }
            roots = [item]
        } else {
            roots = []
        }
    }

    /// The collections directly inside `collection` (or at the top level).
    func collections(in collection: UUID?) -> [Item] {
        collections[collection] ?? []
    }

    /// The ids and names of the notes directly inside `collection`, in the order of names.
    func noteNames(in collection: UUID?) -> [(id: UUID, name: String)] {
        notes[collection] ?? []
    }

    /// Whether a collection holds a note, directly or in a collection inside it.
    func holdsNotes(_ collection: UUID) -> Bool {
        holding.contains(collection)
    }

    /// The notes read at once, with their bodies.
    static let pageSize = 500

    /// The ids of the notes directly inside `collection`, a page at a time.
    func pages(in collection: UUID?) -> [[UUID]] {
        let all = (notes[collection] ?? []).map(\.id)
        return stride(from: 0, to: all.count, by: Self.pageSize).map {
            Array(all[$0..<min($0 + Self.pageSize, all.count)])
        }
    }

    /// The pages of notes in the order an export writes them: the collections inside a
    /// collection that `visiting` accepts, each with what it holds, then the collection's own
    /// notes; from the root collection (when it is accepted), else from the top level.
    func pageOrder(visiting: (UUID) -> Bool) -> [(collection: UUID?, ids: [UUID])] {
        var order: [(collection: UUID?, ids: [UUID])] = []
        func visit(_ collection: UUID?) {
            for child in collections(in: collection) where visiting(child.id) { visit(child.id) }
            order += pages(in: collection).map { (collection, $0) }
        }
        if let item = roots.first {
            if item.isCollection, visiting(item.id) { visit(item.id) }
        } else {
            visit(nil)
        }
        return order
    }

    /// How many notes the export writes.
    var noteCount: Int {
        var count = roots.isEmpty ? notes[nil]?.count ?? 0 : 0
        var pending = roots.isEmpty ? collections[nil] ?? [] : roots
        while let item = pending.popLast() {
            if item.isNote {
                count += 1
            } else {
                count += notes[item.id]?.count ?? 0
                pending += collections[item.id] ?? []
            }
        }
        return count
    }
}
