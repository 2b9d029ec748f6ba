import Foundation
import NoteStore

/// The rows of the collections pane: All notes, the collections as a tree, the Trash. There
/// are few collections, so the pane holds them all.
enum PlaceList {
    /// The places, read from the store.
    static func load(from store: Store) throws -> [BrowserRow] {
        var rows = [BrowserRow(key: "place:everything", text: "All notes", depth: 0, item: nil, place: .everything)]
        rows += tree(of: try store.fetch(ItemRequest(kind: .collection, sort: .name, includesBodies: false)))
        rows.append(BrowserRow(key: "place:trash", text: "Trash", depth: 0, item: nil, place: .trash))
        return rows
    }

    /// The collections as a tree: each after its parent, indented below it, by name.
    private static func tree(of collections: [Item]) -> [BrowserRow] {
        let ids = Set(collections.map(\.id))
        var children: [UUID?: [Item]] = [:]
        for collection in collections {
            // A collection whose parent is gone (or in the trash) is shown at the top.
            children[collection.parent.flatMap { ids.contains($0) ? $0 : nil }, default: []].append(collection)
        }
        var rows: [BrowserRow] = []
        func add(_ parent: UUID?, depth: Int) {
            for collection in children[parent] ?? [] {
                rows.append(
                    BrowserRow(
                        key: collection.id.storeString, text: collection.name + "/", depth: depth, item: nil,
                        place: .collection(collection.id)))
                add(collection.id, depth: depth + 1)
            }
        }
        add(nil, depth: 1)
        return rows
    }
}
