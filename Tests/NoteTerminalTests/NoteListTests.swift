import Foundation
import NoteStore
import NoteTestSupport
import Testing

@testable import NoteTerminal

/// The notes pane's windows of a list are the very rows of the whole list, read at once:
/// the same sections, headings and order, from any note, each way, in every place and order.
@Suite struct NoteListTests {
    let folder = TemporaryFolder("notes-list")
    let store: Store
    let work: UUID

    init() throws {
        store = try Store(folder: folder.appending("store"))
        let context = store.makeContext()
        let work = context.insertCollection(named: "Work")
        let ideas = context.insertCollection(named: "Ideas", in: work.id)
        let home = context.insertCollection(named: "home")
        context.insertCollection(named: "Archive")
        try context.save()
        self.work = work.id
        let names = ["a", "B", "á", "n2", "n10", "same", "same", "Zebra", "éclair", "0", "Apple", "bread"]
        for round in 0..<3 {
            let context = store.makeContext()
            for (offset, name) in names.enumerated() {
                _ = context.insertNote(
                    named: name, body: "", in: [nil, work.id, ideas.id, home.id][(offset + round) % 4])
            }
            try context.save()
        }
        for note in try store.fetch(ItemRequest(kind: .note)).prefix(5) { try store.trash(note.id) }
    }

    /// The rows of the whole list, made from every note at once.
    func wholeList(_ place: BrowserPlace, _ order: NoteList.Order, filter: String) throws -> [BrowserRow] {
        let index = try store.collectionIndex()
        let scope: ItemRequest.Scope = if case let .collection(id) = place { .descendants(of: id) } else { .everywhere }
        let notes = try store.fetch(
            ItemRequest(
                kind: .note, scope: scope, trash: place == .trash ? .only : .excluded,
                nameContains: filter.isEmpty ? nil : filter,
                sort: order == .byDay ? ItemSort(.modified, ascending: false) : .name, includesBodies: false))
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.dateFormat = "yyyy-MM-dd, EEEE"
        func title(_ note: Item) -> String {
            if order == .byDay { return formatter.string(from: note.modified) }
            let folder = index.path(ofCollection: note.parent)
            return folder.isEmpty ? "(top level)" : folder + "/"
        }
        let sorted =
            order == .byDay
            ? notes
            : notes.enumerated().sorted { lhs, rhs in
                let (left, right) = (title(lhs.element), title(rhs.element))
                let leftFolder = left == "(top level)" ? "" : String(left.dropLast())
                let rightFolder = right == "(top level)" ? "" : String(right.dropLast())
                return leftFolder == rightFolder ? lhs.offset < rhs.offset : leftFolder < rightFolder
            }.map(\.element)
        var rows: [BrowserRow] = []
        for note in sorted {
            if rows.last.flatMap(\.item).map(title) != title(note) { rows.append(.section(title(note))) }
            rows.append(BrowserRow(key: note.id.storeString, text: note.name, depth: 0, item: note, place: nil))
        }
        return rows
    }

    /// The rows of `whole` from `before` notes before its note `at` to `after` notes from it,
    /// with the heading of the first when its section starts with it.
    func expected(_ whole: [BrowserRow], at: Int, before: Int, after: Int) -> NoteList.Window {
        let noteRows = whole.indices.filter { whole[$0].item != nil }
        let kept = noteRows[max(0, at - before)..<min(noteRows.count, at + after)]
        guard let first = kept.first, let last = kept.last else { return NoteList.Window() }
        let start = first > 0 && whole[first - 1].item == nil ? first - 1 : first
        var window = NoteList.Window(
            rows: Array(whole[start...last]), anchor: last - start + 1, reachesStart: at - before <= 0,
            reachesEnd: at + after >= noteRows.count)
        // The anchor's note, or its heading when its section starts with it.
        if at < noteRows.count, noteRows[at] <= last {
            window.anchor = noteRows[at] - start - (whole[noteRows[at] - 1].item == nil ? 1 : 0)
        }
        return window
    }

    func check(_ place: BrowserPlace, _ order: NoteList.Order, filter: String = "") throws {
        let whole = try wholeList(place, order, filter: filter)
        let notes = whole.compactMap(\.item)
        #expect(notes.count > 3)
        let list = NoteList(
            store: store, index: try store.collectionIndex(), place: place, order: order, filter: filter)
        #expect(try list.window(at: .start, before: 5, after: 1000).rows == whole)
        for (before, after) in [(0, 3), (2, 2), (5, 1), (1000, 1000)] {
            for (at, note) in notes.enumerated() {
                let window = try list.window(at: .note(note), before: before, after: after)
                let wanted = expected(whole, at: at, before: before, after: after)
                #expect(window.rows == wanted.rows, "\(place) \(order) at \(at), \(before) before, \(after) after")
                #expect(window.anchor == wanted.anchor, "\(place) \(order) at \(at)")
                #expect(window.reachesStart == wanted.reachesStart && window.reachesEnd == wanted.reachesEnd)
            }
            let end = try list.window(at: .end, before: before, after: after)
            #expect(end.rows == expected(whole, at: notes.count, before: before, after: 0).rows)
        }
    }

    @Test(arguments: [NoteList.Order.byCollection, .byDay])
    func windowsAreTheRowsOfTheWholeList(order: NoteList.Order) throws {
        try check(.everything, order)
        try check(.collection(work), order)
        try check(.trash, order)
        try check(.everything, order, filter: "a")
    }

    /// A note that left the list still places a window: the rows from where it was.
    @Test func aNoteGoneStillPlacesTheWindow() throws {
        let whole = try wholeList(.everything, .byCollection, filter: "")
        let notes = whole.compactMap(\.item)
        let list = NoteList(
            store: store, index: try store.collectionIndex(), place: .everything, order: .byCollection, filter: "")
        try store.trash(notes[6].id)
        let window = try list.window(at: .note(notes[6]), before: 0, after: 3)
        #expect(window.rows.compactMap(\.item).map(\.id) == notes[7..<10].map(\.id))
        #expect(window.anchor == 0)
    }
}
