import Foundation
import GRDB
@testable import NoteStore
import Testing

@Suite struct OutboxTests {
    @Test func insertRecordsEveryProperty() throws {
        let fixture = try StoreFixture(recordingChanges: true)
        let collection = try fixture.store.addCollection(named: "Work", in: nil)
        let note = try fixture.store.addNote(named: "Plan", body: "text", in: collection.id)
        let entries = try fixture.store.outboxEntries()
        #expect(entries.map(\.entity) == [.collection, .note])
        #expect(entries.map(\.operation) == [.insert, .insert])
        #expect(entries.map(\.save) == [1, 2])
        let changes = try #require(entries.last).changes
        #expect(entries.last?.object == note.id)
        #expect(changes["name"] == .text("Plan"))
        #expect(changes["body"] == .text("text"))
        #expect(changes["parent"] == .text(collection.id.uuidString.lowercased()))
        #expect(changes["kind"] == .text("note"))
        #expect(changes["trashed"] == .null)
        #expect(entries.allSatisfy { $0.modelVersion == Store.currentModelVersion })
    }

    @Test func updateRecordsOnlyChangedProperties() throws {
        let fixture = try StoreFixture(recordingChanges: true)
        let tree = try fixture.makeTree()
        try fixture.store.edit(tree.soup, name: "Leek soup")
        let last = try #require(fixture.store.outboxEntries().last)
        #expect(last.operation == .update)
        #expect(last.object == tree.soup)
        #expect(Set(last.changes.properties.map(\.name)) == ["name", "modified"])
        #expect(last.changes["name"] == .text("Leek soup"))
    }

    @Test func trashRecordsATrashedChangeForEachItem() throws {
        let fixture = try StoreFixture(recordingChanges: true)
        let tree = try fixture.makeTree()
        try fixture.store.trash(tree.home)
        let entries = try fixture.store.outboxEntries().filter { $0.save == 2 }
        #expect(Set(entries.map(\.object)) == [tree.home, tree.recipes, tree.soup])
        #expect(entries.allSatisfy { $0.changes.properties.map(\.name) == ["trashed"] })
    }

    @Test func purgeRecordsADeletionForEachItem() throws {
        let fixture = try StoreFixture(recordingChanges: true)
        let tree = try fixture.makeTree()
        try fixture.store.trash(tree.home)
        try fixture.store.emptyTrash()
        let deletions = try fixture.store.outboxEntries().filter { $0.operation == .delete }
        #expect(Set(deletions.map(\.object)) == [tree.home, tree.recipes, tree.soup])
        #expect(Set(deletions.map(\.entity)) == [.collection, .note])
    }

    @Test func oneSaveSharesOneSaveNumber() throws {
        let fixture = try StoreFixture(recordingChanges: true)
        _ = try fixture.makeTree()
        let entries = try fixture.store.outboxEntries()
        #expect(entries.count == 7)
        #expect(Set(entries.map(\.save)) == [1])
    }

    @Test func failedSaveLeavesNoOutboxRows() throws {
        let fixture = try StoreFixture(recordingChanges: true)
        _ = try fixture.makeTree()
        let before = try fixture.store.outboxEntries()
        let context = fixture.store.makeContext()
        context.insertNote(named: "fine")
        context.insertNote(named: "")
        #expect(throws: StoreError.self) { try context.save() }
        #expect(try fixture.store.outboxEntries() == before)
        #expect(try fixture.store.count(ItemRequest(nameContains: "fine")) == 0)
    }

    @Test func textWithEveryKindOfCharacterRoundTrips() throws {
        let fixture = try StoreFixture(recordingChanges: true)
        let body = "quote \" backslash \\ tab \t nl \n cr \r bell \u{7} emoji 🎉 nul-free"
        _ = try fixture.store.addNote(named: "weird", body: body, in: nil)
        #expect(try fixture.store.outboxEntries().last?.changes["body"] == .text(body))
    }

    @Test func aNewStoreRecordsNothingUntilSyncStartsRecording() throws {
        let fixture = try StoreFixture()
        _ = try fixture.makeTree()
        #expect(try fixture.store.recordsChanges() == false)
        #expect(try fixture.store.outboxEntries().isEmpty)

        try fixture.store.startRecordingChanges()
        let note = try fixture.store.addNote(named: "after", body: "recorded", in: nil)
        #expect(try fixture.store.outboxEntries().map(\.object) == [note.id])
        // It stays on in the store, for every process that opens it.
        let reopened = try Store(folder: fixture.store.folder)
        #expect(try reopened.recordsChanges())
        try reopened.edit(note.id, body: "again")
        #expect(try reopened.outboxEntries().map(\.operation) == [.insert, .update])
    }

    /// What `notes sync enable` relies on: a snapshot taken after recording starts holds every
    /// save before it, and every save after it is in the outbox past the snapshot's last row.
    @Test func aSnapshotAfterRecordingStartsLeavesNoSaveOut() throws {
        let fixture = try StoreFixture()
        let before = try fixture.store.addNote(named: "before", body: "in the snapshot", in: nil)
        try fixture.store.startRecordingChanges()
        let (records, through) = try fixture.store.snapshot()
        #expect(records.map(\.object).contains(before.id))
        let after = try fixture.store.addNote(named: "after", body: "in the outbox", in: nil)
        let entries = try fixture.store.outboxEntries()
        #expect(entries.map(\.object) == [after.id])
        #expect(entries.allSatisfy { $0.sequence > through })
    }

    /// Sync values written by anything else (a build that knew nothing of recording enabled
    /// the store) mean the store syncs: its saves are recorded.
    @Test func anyOtherSyncValueTurnsRecordingOn() throws {
        let fixture = try StoreFixture()
        try fixture.store.database.write { db in
            try db.execute(sql: "INSERT INTO sync_state(key, value) VALUES ('state', 'on')")
        }
        #expect(try fixture.store.recordsChanges())
        let note = try fixture.store.addNote(named: "n", body: "", in: nil)
        #expect(try fixture.store.outboxEntries().map(\.object) == [note.id])
    }

    /// A text written as a JSON string reads back as itself, with the escapes the format names.
    @Test func aJSONStringReadsBackAsItsText() throws {
        var written = ""
        OutboxChanges.appendJSONString("a\"b\\c\nd\re\tf\u{1}g\u{1F}h é 🙂", to: &written)
        #expect(written == #""a\"b\\c\nd\re\tf\u0001g\u001fh é 🙂""#)
        var generator = SystemRandomNumberGenerator()
        let pieces = ["a", "line\n", "\"", "\\", "\t", "\u{0}", "\u{7F}", "é", "🙂", " ", "\r\n"]
        for _ in 0..<2_000 {
            let text = (0..<Int.random(in: 0...30, using: &generator)).map { _ in
                pieces.randomElement(using: &generator)!
            }.joined()
            var json = ""
            OutboxChanges.appendJSONString(text, to: &json)
            let read = try JSONSerialization.jsonObject(with: Data("[\(json)]".utf8)) as? [String]
            #expect(read == [text], "\(json)")
        }
    }
}
