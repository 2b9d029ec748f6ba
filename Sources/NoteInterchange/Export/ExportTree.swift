import Foundation
import NoteStore

/// The live items an export writes: every item at the top level and below, or one item and
/// everything below it. Names, kinds and places are read once, without bodies; bodies are read
/// a page at a time while writing, so that memory stays flat however large the store is.
struct ExportTree {
    let store: Store
    /// What the export starts from: the top level (nil) or one item.
    let roots: [Item]
    private let children: [UUID?: [Item]]

    init(store: Store, root: UUID?) throws {
        self.store = store
        let items = try store.fetch(ItemRequest(sort: .name, includesBodies: false))
        var children: [UUID?: [Item]] = [:]
        for item in items { children[item.parent, default: []].append(item) }
        self.children = children
        if let root {
            let item = try store.item(root, includingBody: false)
            guard !item.isTrashed else {
                throw StoreError.invalidOperation(item: item.label, reason: "it is in the trash")
            }
            roots = [item]
        } else {
            roots = children[nil] ?? []
        }
    }

    /// The collections directly inside `collection` (or at the top level).
    func collections(in collection: UUID?) -> [Item] {
        (children[collection] ?? []).filter(\.isCollection)
    }

    /// The notes directly inside `collection`, with their bodies, a page at a time.
    func notes(in collection: UUID?, page: (ArraySlice<Item>) throws -> Void) throws {
        let all = (children[collection] ?? []).filter(\.isNote)
        var start = 0
        while start < all.count {
            let slice = all[start..<min(start + 500, all.count)]
            try page(ArraySlice(try store.bodies(of: slice.map(\.id))))
            start += 500
        }
    }

    /// How many notes the export writes.
    var noteCount: Int {
        var count = 0
        var pending = roots
        while let item = pending.popLast() {
            if item.isNote { count += 1 } else { pending += children[item.id] ?? [] }
        }
        return count
    }
}
