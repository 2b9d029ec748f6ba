import Foundation
import NoteStore
import NoteTestSupport
import Synchronization
import Testing

#if canImport(Glibc)
    import Glibc
#endif

@Suite struct CommitSignalTests {
    @Test func eachCommitWritesTheSignalOnceItIsWhole() throws {
        let fixture = try StoreFixture()
        let signal = fixture.store.folder.appendingPathComponent(Store.commitSignalFileName)
        #expect(FileManager.default.fileExists(atPath: signal.path))
        let events = try FileEvents(path: signal.path, mask: IN_MODIFY)
        // Another store on the folder, as another process: its commit is seen through the signal.
        let other = try Store(folder: fixture.store.folder)
        let reader = try Store(folder: fixture.store.folder, access: .readOnly)
        for round in 0..<3 {
            let note = try other.addNote(named: "signalled \(round)", body: "", in: nil)
            #expect(try events.happened(within: 10), "round \(round)")
            #expect(try reader.item(note.id).name == "signalled \(round)", "round \(round)")
        }
        // A store opened to read writes nothing.
        _ = try reader.fetch(ItemRequest(scope: .topLevel))
        #expect(try !events.happened(within: 0))
    }

    @Test func checkNowLooksAtOnceWhateverThePace() throws {
        let fixture = try StoreFixture()
        let commits = Mutex(0)
        // At this pace the observation would not look again while the test runs.
        let observation = try fixture.store.observeCommits(every: 3600) { commits.withLock { $0 += 1 } }
        defer { observation.cancel() }
        let other = try Store(folder: fixture.store.folder)
        _ = try other.addNote(named: "elsewhere", body: "", in: nil)
        observation.checkNow()
        #expect(eventually { commits.withLock { $0 } == 1 })
        _ = try other.addNote(named: "again", body: "", in: nil)
        observation.checkNow()
        #expect(eventually { commits.withLock { $0 } == 2 })
    }
}
