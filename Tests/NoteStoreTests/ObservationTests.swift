import Foundation
import NoteStore
import NoteTestSupport
import Synchronization
import Testing

@Suite struct ObservationTests {
    @Test func observerSeesCommitsOfAnotherConnection() throws {
        let fixture = try StoreFixture()
        let seen = Mutex<[[String]]>([])
        let observation = try fixture.store.observe(ItemRequest(scope: .topLevel)) { items in
            seen.withLock { $0.append(items.map(\.name)) }
        }
        defer { observation.cancel() }
        // A second store on the same folder has its own connections, as another process would.
        let other = try Store(folder: fixture.store.folder)
        _ = try other.addNote(named: "from elsewhere", body: "", in: nil)
        #expect(eventually { seen.withLock { $0.last == ["from elsewhere"] } })
        #expect(seen.withLock { $0.first == [] })
    }

    @Test func observerIsQuietWhenResultsDoNotChange() throws {
        let fixture = try StoreFixture()
        let tree = try fixture.makeTree()
        let seen = Mutex<[[String]]>([])
        let observation = try fixture.store.observe(ItemRequest(scope: .children(of: tree.work))) { items in
            seen.withLock { $0.append(items.map(\.name)) }
        }
        defer { observation.cancel() }
        let commits = Mutex(0)
        let commitObservation = try fixture.store.observeCommits { commits.withLock { $0 += 1 } }
        defer { commitObservation.cancel() }
        try fixture.store.edit(tree.soup, body: "changed elsewhere in the tree")
        #expect(eventually { commits.withLock { $0 } >= 1 })
        _ = try fixture.store.addNote(named: "new", body: "", in: tree.work)
        #expect(eventually { seen.withLock { $0.last?.contains("new") == true } })
        #expect(seen.withLock { $0 } == [["Ideas", "Meeting"], ["Ideas", "Meeting", "new"]])
    }
}
