import Foundation
import GRDB
@testable import NoteStore
import NoteTestSupport
import Testing

@Suite struct DurabilityTests {
    @Test func everyCommitIsSyncedToDisk() throws {
        let fixture = try StoreFixture()
        let mode = try fixture.store.database.writeWithoutTransaction {
            try Int.fetchOne($0, sql: "PRAGMA synchronous")
        }
        #expect(mode == 2, "2 is FULL: the WAL is synced at every commit")
        let journal = try fixture.store.database.read { try String.fetchOne($0, sql: "PRAGMA journal_mode") }
        #expect(journal == "wal")
    }

    @Test func aTransactionThatNeedNotWaitForTheDiskLeavesEveryOtherOneDurable() throws {
        let fixture = try StoreFixture()
        let synchronous = {
            try fixture.store.database.writeWithoutTransaction { try Int.fetchOne($0, sql: "PRAGMA synchronous") }
        }
        try fixture.store.recordSync(durable: false) { try $0.update { $0.deviceName = "probe" } }
        #expect(try synchronous() == 2, "FULL again after a transaction committed with NORMAL")
        #expect(try fixture.store.syncRecord().deviceName == "probe")
        struct Refused: Error {}
        #expect(throws: StoreError.self) { try fixture.store.recordSync(durable: false) { _ in throw Refused() } }
        #expect(try synchronous() == 2, "FULL again after a transaction that failed")
        // Each time, with saves between: the pragmas are cached statements.
        for _ in 0..<3 {
            let during = try fixture.store.write(durable: false) { try Int.fetchOne($0, sql: "PRAGMA synchronous") }
            #expect(during == 1, "NORMAL for the commit of a transaction that need not wait")
            #expect(try synchronous() == 2)
            _ = try fixture.store.addNote(named: "durable", body: "", in: nil)
        }
    }

    @Test func readOnlyOpeningReadsAndRefusesWrites() throws {
        let folder = TemporaryFolder()
        let url = folder.appending("s")
        let note = try Store(folder: url).addNote(named: "kept", body: "text", in: nil)
        let reader = try Store(folder: url, access: .readOnly)
        #expect(try reader.item(note.id).body == "text")
        #expect(throws: StoreError.self) { try reader.addNote(named: "x", body: "", in: nil) }
    }

    @Test func readOnlyOpeningCreatesAStoreThatDoesNotExistYet() throws {
        let folder = TemporaryFolder()
        let store = try Store(folder: folder.appending("new"), access: .readOnly)
        #expect(try store.fetch(ItemRequest()).isEmpty)
        #expect(FileManager.default.fileExists(atPath: folder.appending("new/store.sqlite").path))
    }

    @Test func fullTextIndexStaysInStepThroughEveryKindOfChange() throws {
        let fixture = try StoreFixture()
        let tree = try fixture.makeTree()
        try fixture.store.edit(tree.soup, name: "Soup of the day", body: "carrots")
        try fixture.store.move(tree.launch, to: nil)
        try fixture.store.trash(tree.work)
        try fixture.store.restore(tree.ideas)
        try fixture.store.trash(tree.home)
        try fixture.store.emptyTrash()
        #expect(try fixture.store.check() == [])
        #expect(try fixture.store.search("carrots").isEmpty)
        #expect(try fixture.store.search("spring").map(\.item.id) == [tree.launch])
    }
}
