import Foundation
import NoteStore

/// What the browser shows, loaded from the store in one go: the collections pane, the notes
/// of the selected place in sections, and what the preview needs of the selected note.
struct BrowserContent {
    var places: [BrowserRow] = []
    var notes: [BrowserRow] = []

    /// How the notes are ordered and sectioned: by name under their collection's path, or
    /// newest first under the day they were last changed.
    enum Order: Sendable { case byCollection, byDay }

    /// Loads the places and the notes of `place`, keeping those whose name contains `filter`.
    static func load(from store: Store, place: BrowserPlace, order: Order, filter: String) throws -> BrowserContent {
        let index = try store.collectionIndex()
        var content = BrowserContent()
        content.places = [BrowserRow(key: "place:everything", text: "All notes", depth: 0, item: nil, place: .everything)]
        content.places += tree(of: try store.fetch(ItemRequest(kind: .collection, sort: .name, includesBodies: false)))
        content.places.append(BrowserRow(key: "place:trash", text: "Trash", depth: 0, item: nil, place: .trash))

        let scope: ItemRequest.Scope
        switch place {
        case .everything, .trash: scope = .everywhere
        case let .collection(id): scope = .descendants(of: id)
        }
        let request = ItemRequest(
            kind: .note, scope: scope, trash: place == .trash ? .only : .excluded,
            nameContains: filter.isEmpty ? nil : filter,
            sort: order == .byDay ? ItemSort(.modified, ascending: false) : ItemSort(.name), includesBodies: false)
        let notes = try store.fetch(request)
        content.notes = order == .byDay ? byDay(notes) : byCollection(notes, index: index)
        return content
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
                rows.append(BrowserRow(
                    key: collection.id.storeString, text: collection.name + "/", depth: depth, item: nil,
                    place: .collection(collection.id)))
                add(collection.id, depth: depth + 1)
            }
        }
        add(nil, depth: 1)
        return rows
    }

    private static func byCollection(_ notes: [Item], index: CollectionIndex) -> [BrowserRow] {
        // The section of a note is its collection's path: made once a collection.
        var folders: [UUID?: String] = [:]
        var sections: [String: [Item]] = [:]
        for note in notes {
            let folder = folders[note.parent] ?? {
                let path = index.path(of: note)
                let folder = path.contains("/") ? String(path[..<path.lastIndex(of: "/")!]) : ""
                folders[note.parent] = folder
                return folder
            }()
            sections[folder, default: []].append(note)
        }
        return sections.keys.sorted().flatMap { folder in
            [BrowserRow.section(folder.isEmpty ? "(top level)" : folder + "/")]
                + sections[folder]!.map { BrowserRow(key: $0.id.storeString, text: $0.name, depth: 0, item: $0, place: nil) }
        }
    }

    private static func byDay(_ notes: [Item]) -> [BrowserRow] {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.dateFormat = "yyyy-MM-dd, EEEE"
        var rows: [BrowserRow] = []
        var day = ""
        for note in notes {
            let noteDay = formatter.string(from: note.modified)
            if noteDay != day {
                rows.append(.section(noteDay))
                day = noteDay
            }
            rows.append(BrowserRow(key: note.id.storeString, text: note.name, depth: 0, item: note, place: nil))
        }
        return rows
    }
}
