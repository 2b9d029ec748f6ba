import Foundation
import NoteStore

/// The notes of the place the browser shows, in sections, read from the store a window at a
/// time: the rows on screen and a margin around them, never the whole list.
///
/// A window starts from a note (keyset paging, ``ItemRequest/Start``), so that reading it costs
/// the same wherever it is in a list of 100,000 notes, and needs no count of the rows before
/// it: the screen shows no position. By collection, each section is read on its own, through
/// the store's listing index, and sorted by name; by day, the place's notes are read newest
/// first.
struct NoteList {
    /// How the notes are ordered and sectioned: by name under their collection's path, or
    /// newest first under the day they were last changed.
    enum Order: Sendable { case byCollection, byDay }

    /// A place in the list: its start, its end, or where a note is, or was (its values as
    /// read place it, whether or not it is still listed).
    enum Anchor: Equatable {
        case start, end
        case note(Item)
    }

    /// The rows of the list around an anchor.
    struct Window {
        var rows: [BrowserRow] = []
        /// The index of the first row at the anchor or after it; `rows.count` when there is none.
        var anchor = 0
        /// Whether the rows run to the list's first row, and to its last.
        var reachesStart = true
        var reachesEnd = true
    }

    /// By collection: a heading, and the collections whose notes it holds (nil: the top level).
    /// Collections of one path share a section.
    private struct Section {
        let folder: String
        let parents: [UUID?]
    }

    private static let newestFirst = ItemSort(.modified, ascending: false)

    private let store: Store
    private let order: Order
    /// What every read of notes asks: notes of the place, in or out of the trash, and the filter.
    private let request: ItemRequest
    /// By collection: the sections of the place, in the order shown.
    private let sections: [Section]
    /// The path of every collection, by id; a note elsewhere is in the top level's section.
    private let folders: [UUID: String]
    private let days: DateFormatter

    init(store: Store, index: CollectionIndex, place: BrowserPlace, order: Order, filter: String) {
        self.store = store
        self.order = order
        let parents = index.parents
        let folders = Dictionary(uniqueKeysWithValues: parents.keys.map { ($0, index.path(ofCollection: $0)) })
        self.folders = folders
        let held: [UUID?]
        switch place {
        case .everything, .trash: held = [nil] + parents.keys.map { $0 }
        case let .collection(id): held = Self.subtree(of: id, parents: parents)
        }
        let scope: ItemRequest.Scope = if case .collection = place { .contents(of: held) } else { .everywhere }
        request = ItemRequest(
            kind: .note, scope: scope, trash: place == .trash ? .only : .excluded,
            nameContains: filter.isEmpty ? nil : filter, includesBodies: false)
        var byFolder: [String: [UUID?]] = [:]
        for parent in held { byFolder[parent.flatMap { folders[$0] } ?? "", default: []].append(parent) }
        sections = byFolder.keys.sorted().map { Section(folder: $0, parents: byFolder[$0]!) }
        days = DateFormatter()
        days.locale = Locale(identifier: "en_US_POSIX")
        days.dateFormat = "yyyy-MM-dd, EEEE"
    }

    /// A collection and the collections inside it at any depth.
    private static func subtree(of root: UUID, parents: [UUID: UUID?]) -> [UUID?] {
        var children: [UUID: [UUID]] = [:]
        for (id, parent) in parents { if let parent { children[parent, default: []].append(id) } }
        var found: [UUID] = [root]
        var seen: Set<UUID> = [root]
        var next = 0
        while next < found.count {
            for child in children[found[next]] ?? [] where seen.insert(child).inserted { found.append(child) }
            next += 1
        }
        return found
    }

    /// Up to `before` rows before the anchor and `after` rows from it on, with the headings of
    /// their sections.
    func window(at anchor: Anchor, before: Int, after: Int) throws -> Window {
        // One note more each way tells whether the list goes on, and whether the first
        // note's section starts with it.
        let ahead = try notes(from: anchor, forward: true, limit: after + 1)
        let behind = try notes(from: anchor, forward: false, limit: before + 1)
        var window = Window(reachesStart: behind.count <= before, reachesEnd: ahead.count <= after)
        let earlier = Array(behind.prefix(before).reversed())
        var previous = window.reachesStart ? nil : behind.last.map(sectionTitle)
        window.anchor = -1
        for (offset, note) in (earlier + ahead.prefix(after)).enumerated() {
            if offset == earlier.count { window.anchor = window.rows.count }
            let title = sectionTitle(of: note)
            if title != previous { window.rows.append(.section(title)) }
            previous = title
            window.rows.append(BrowserRow(key: note.id.storeString, text: note.name, depth: 0, item: note, place: nil))
        }
        if window.anchor < 0 { window.anchor = window.rows.count }
        return window
    }

    /// The heading of a note's section.
    private func sectionTitle(of note: Item) -> String {
        switch order {
        case .byDay:
            return days.string(from: note.modified)
        case .byCollection:
            let folder = note.parent.flatMap { folders[$0] } ?? ""
            return folder.isEmpty ? "(top level)" : folder + "/"
        }
    }

    /// Up to `limit` notes from the anchor on (the anchor's note itself when it is listed),
    /// or before it, nearest first.
    private func notes(from anchor: Anchor, forward: Bool, limit: Int) throws -> [Item] {
        var request = request
        request.limit = limit
        switch anchor {
        case .start: if !forward { return [] }
        case .end: if forward { return [] }
        case let .note(note): request.start = forward ? .at(note) : .after(note)
        }
        guard order == .byCollection else {
            request.sort = forward ? Self.newestFirst : Self.newestFirst.reversed
            return try store.fetch(request)
        }
        request.sort = forward ? .name : ItemSort.name.reversed
        var section: Int
        switch anchor {
        case .start: section = 0
        case .end: section = sections.count - 1
        case let .note(note):
            // The anchor's section, or where it would be: the note may have left the place.
            let folder = note.parent.flatMap { folders[$0] } ?? ""
            section = sections.firstIndex { $0.folder >= folder } ?? sections.count
            if section == sections.count || sections[section].folder != folder {
                request.start = nil
                if !forward { section -= 1 }
            }
        }
        var found: [Item] = []
        while found.count < limit, sections.indices.contains(section) {
            request.scope = .contents(of: sections[section].parents)
            request.limit = limit - found.count
            found += try store.fetch(request)
            request.start = nil
            section += forward ? 1 : -1
        }
        return found
    }
}
