import Foundation
import NoteStore
import Testing

/// Reading a list a window at a time from a start (keyset paging): the windows, one after
/// the other, are the list, in every order, names equal to the collation and dates tied.
@Suite struct FetchStartTests {
    /// Notes whose names sort alike ("a" and "A"), by number ("n2" before "n10"), or are the
    /// same, saved in three saves so that some share their dates, in two collections and the
    /// top level.
    func makeNotes(_ fixture: StoreFixture) throws -> (inbox: UUID, work: UUID) {
        let context = fixture.store.makeContext()
        let inbox = context.insertCollection(named: "Inbox")
        let work = context.insertCollection(named: "Work")
        try context.save()
        let names = ["a", "A", "á", "n2", "n10", "N1", "same", "same", "same", "Zebra", "éclair", "0", "b"]
        for round in 0..<3 {
            let context = fixture.store.makeContext()
            for (offset, name) in names.enumerated() {
                let parent = [nil, inbox.id, work.id][(offset + round) % 3]
                _ = context.insertNote(named: name, body: "", in: parent)
            }
            try context.save()
        }
        return (inbox.id, work.id)
    }

    /// The request's items, read `size` at a time, each window after the last item of the one before.
    func paged(_ store: Store, _ request: ItemRequest, size: Int) throws -> [Item] {
        var all: [Item] = []
        var next = request
        next.limit = size
        while true {
            let window = try store.fetch(next)
            all += window
            guard window.count == size, let last = window.last else { return all }
            next.start = .after(last)
        }
    }

    @Test(arguments: [
        ItemSort.name, ItemSort(.name, ascending: false), ItemSort(.modified, ascending: false), .created,
    ])
    func windowsFromTheLastItemMakeTheList(sort: ItemSort) throws {
        let fixture = try StoreFixture()
        _ = try makeNotes(fixture)
        let request = ItemRequest(kind: .note, sort: sort, includesBodies: false)
        let all = try fixture.store.fetch(request)
        #expect(all.count == 39)
        for size in [1, 2, 5] {
            #expect(try paged(fixture.store, request, size: size).map(\.id) == all.map(\.id))
        }
        // Backwards from an item: the items before it, nearest first.
        let middle = all[20]
        var before = request
        before.sort = sort.reversed
        before.start = .after(middle)
        #expect(try fixture.store.fetch(before).map(\.id) == all[..<20].reversed().map(\.id))
    }

    @Test func atAnItemIncludesItAndAnItemGoneStillPlacesTheStart() throws {
        let fixture = try StoreFixture()
        _ = try makeNotes(fixture)
        let request = ItemRequest(kind: .note, sort: .name, includesBodies: false)
        let all = try fixture.store.fetch(request)
        var from = request
        from.start = .at(all[7])
        #expect(try fixture.store.fetch(from).map(\.id) == all[7...].map(\.id))
        try fixture.store.trash(all[7].id)
        #expect(try fixture.store.fetch(from).map(\.id) == all[8...].map(\.id))
    }

    @Test func contentsOfSeveralCollectionsAndTheTopLevel() throws {
        let fixture = try StoreFixture()
        let (inbox, work) = try makeNotes(fixture)
        let both = try fixture.store.fetch(ItemRequest(kind: .note, scope: .contents(of: [nil, work])))
        let top = try fixture.store.fetch(ItemRequest(kind: .note, scope: .topLevel))
        let inWork = try fixture.store.fetch(ItemRequest(kind: .note, scope: .children(of: work)))
        #expect(Set(both.map(\.id)) == Set((top + inWork).map(\.id)))
        #expect(both.count == 26)
        #expect(try fixture.store.fetch(ItemRequest(scope: .contents(of: [inbox]))).count == 13)
        #expect(try fixture.store.fetch(ItemRequest(scope: .contents(of: []))).isEmpty)
    }

    /// A context's fetch puts its unsaved changes in the same windows as the store's.
    @Test func aContextsWindowsHoldItsUnsavedChanges() throws {
        let fixture = try StoreFixture()
        _ = try makeNotes(fixture)
        let context = fixture.store.makeContext()
        _ = context.insertNote(named: "n3", body: "", in: nil)
        let request = ItemRequest(kind: .note, sort: .name, includesBodies: false)
        let all = try context.fetch(request)
        #expect(all.count == 40)
        var from = request
        from.start = .after(all[9])
        from.limit = 4
        #expect(try context.fetch(from).map(\.id) == all[10..<14].map(\.id))
    }
}
