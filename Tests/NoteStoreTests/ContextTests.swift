import Foundation
import NoteStore
import Testing

@Suite struct ContextTests {
    @Test func insertedItemsHaveIdsAndDatesFromTheStore() throws {
        let fixture = try StoreFixture()
        let before = Date().addingTimeInterval(-1)
        let note = try fixture.store.addNote(named: "n", body: "text", in: nil)
        let saved = try fixture.item(note.id)
        #expect(saved.kind == .note)
        #expect(saved.body == "text")
        #expect(saved.created >= before && saved.created == saved.modified)
        #expect(saved.trashed == nil)
    }

    /// The ids a store has or had, among many: its items', and those of items purged.
    @Test func knownIDsAreTheItemsAndThePurged() throws {
        let fixture = try StoreFixture()
        let context = fixture.store.makeContext()
        let kept = (0..<1_200).map { _ in UUID() }
        for id in kept {
            context.insert(.note, id: id, named: "n", body: "", in: nil, created: Date(), modified: Date())
        }
        try context.save()
        let purged = Array(kept.prefix(3))
        for id in purged { try context.trash(id) }
        try context.save()
        for id in purged { try context.purge(id) }
        try context.save()
        let unknown = (0..<800).map { _ in UUID() }
        #expect(try fixture.store.knownIDs(among: (unknown + kept).shuffled()) == Set(kept))
        #expect(try fixture.store.knownIDs(among: unknown + purged) == Set(purged))
        #expect(try fixture.store.knownIDs(among: []) == [])
    }

    @Test func fetchOfItemsReturnsNotesAndCollectionsTogether() throws {
        let fixture = try StoreFixture()
        let tree = try fixture.makeTree()
        let all = try fixture.store.fetch(ItemRequest())
        #expect(Set(all.map(\.kind)) == [.note, .collection])
        #expect(all.count == 7)
        let notes = try fixture.store.fetch(ItemRequest(kind: .note))
        #expect(Set(notes.map(\.id)) == [tree.launch, tree.meeting, tree.soup])
        let collections = try fixture.store.fetch(ItemRequest(kind: .collection, scope: .topLevel))
        #expect(collections.map(\.name) == ["Home", "Work"])
    }

    @Test func fetchFiltersSortsAndLimitsInTheStore() throws {
        let fixture = try StoreFixture()
        let tree = try fixture.makeTree()
        let below = try fixture.store.fetch(ItemRequest(scope: .descendants(of: tree.work)))
        #expect(below.map(\.name) == ["Ideas", "Launch plan", "Meeting"])
        let named = try fixture.store.fetch(ItemRequest(nameContains: "LAUN"))
        #expect(named.map(\.id) == [tree.launch])
        let limited = try fixture.store.fetch(ItemRequest(sort: .name, limit: 2, offset: 1))
        #expect(limited.map(\.name) == ["Ideas", "Launch plan"])
        let withoutBodies = try fixture.store.fetch(ItemRequest(kind: .note, includesBodies: false))
        #expect(withoutBodies.allSatisfy { $0.body == nil })
    }

    @Test func nameFilterIgnoresCaseAndDiacritics() throws {
        let fixture = try StoreFixture()
        let note = try fixture.store.addNote(named: "Crème brûlée", body: "", in: nil)
        #expect(try fixture.store.fetch(ItemRequest(nameContains: "creme BRULEE")).map(\.id) == [note.id])
    }

    @Test func fetchSeesUnsavedChangesOfItsContext() throws {
        let fixture = try StoreFixture()
        let tree = try fixture.makeTree()
        let context = fixture.store.makeContext()
        let draft = context.insertNote(named: "Draft", in: tree.work)
        var meeting = try context.object(with: tree.meeting)
        meeting.name = "Board meeting"
        try context.update(meeting)
        try context.trash(tree.ideas)
        let inWork = try context.fetch(ItemRequest(scope: .children(of: tree.work)))
        #expect(inWork.map(\.name) == ["Board meeting", "Draft"])
        let deep = try context.fetch(ItemRequest(kind: .note, scope: .descendants(of: tree.work)))
        #expect(Set(deep.map(\.id)) == [draft.id, tree.meeting])
        // Nothing of it is saved yet.
        #expect(
            try fixture.store.fetch(ItemRequest(scope: .children(of: tree.work))).map(\.name) == ["Ideas", "Meeting"])
    }

    @Test func rollbackDiscardsEveryUnsavedChange() throws {
        let fixture = try StoreFixture(recordingChanges: true)
        let tree = try fixture.makeTree()
        let context = fixture.store.makeContext()
        context.insertNote(named: "cancelled")
        try context.move(tree.soup, to: nil)
        try context.trash(tree.work)
        #expect(context.hasChanges)
        context.rollback()
        #expect(!context.hasChanges)
        #expect(try context.save() == nil)
        #expect(try fixture.store.count(ItemRequest(nameContains: "cancelled")) == 0)
        #expect(try fixture.item(tree.soup).parent == tree.recipes)
        #expect(try fixture.item(tree.work).trashed == nil)
        let entries = try fixture.store.outboxEntries()
        #expect(!entries.isEmpty && entries.allSatisfy { $0.save == 1 })
    }

    @Test func failedSaveKeepsTheChangesForCorrection() throws {
        let fixture = try StoreFixture()
        let context = fixture.store.makeContext()
        var note = context.insertNote(named: "")
        #expect(throws: StoreError.self) { try context.save() }
        #expect(context.hasChanges)
        note.name = "fixed"
        try context.update(note)
        try context.save()
        #expect(try fixture.item(note.id).name == "fixed")
    }

    @Test func updateWritesOnlyWhatChangedAndBumpsModified() throws {
        let fixture = try StoreFixture()
        let tree = try fixture.makeTree()
        let original = try fixture.item(tree.soup)
        let changed = try fixture.store.edit(tree.soup, name: "Leek soup")
        #expect(changed)
        let saved = try fixture.item(tree.soup)
        #expect(saved.name == "Leek soup")
        #expect(saved.body == original.body)
        #expect(saved.modified >= original.modified)
        #expect(try fixture.store.edit(tree.soup, name: "Leek soup") == false)
    }

    @Test func noteFetchedWithoutBodyKeepsItsBodyWhenRenamed() throws {
        let fixture = try StoreFixture()
        let tree = try fixture.makeTree()
        let context = fixture.store.makeContext()
        var soup = try #require(context.fetch(ItemRequest(nameContains: "Soup", includesBodies: false)).first)
        #expect(soup.body == nil)
        soup.name = "Soup!"
        try context.update(soup)
        try context.save()
        #expect(try fixture.item(tree.soup).body == "leeks and potatoes")
    }

    @Test func unknownIdIsNotFound() throws {
        let fixture = try StoreFixture()
        let context = fixture.store.makeContext()
        #expect(throws: StoreError.self) { try context.object(with: UUID()) }
    }

    @Test func editingAnItemPurgedMeanwhileFailsAndWritesNothing() throws {
        let fixture = try StoreFixture()
        let note = try fixture.store.addNote(named: "n", body: "", in: nil)
        let context = fixture.store.makeContext()
        var stale = try context.object(with: note.id)
        try fixture.store.trash(note.id)
        _ = try fixture.store.emptyTrash()
        stale.name = "renamed"
        try context.update(stale)
        #expect(throws: StoreError.self) { try context.save() }
        #expect(try fixture.store.count(ItemRequest(trash: .included)) == 0)
    }
}

/// A save never writes over a change it did not see (Core Data's default merge policy).
@Suite struct ChangedElsewhereTests {
    @Test func aSaveRefusesToOverwriteABodyChangedSinceItWasRead() throws {
        let fixture = try StoreFixture()
        let note = try fixture.store.addNote(named: "n", body: "first", in: nil)
        let read = try fixture.item(note.id)
        let other = try Store(folder: fixture.store.folder)
        try other.edit(note.id, body: "from another process")
        let error = #expect(throws: StoreError.self) { try fixture.store.edit(note.id, expecting: read, body: "mine") }
        guard case .changedElsewhere(_, let properties)? = error else {
            Issue.record("\(String(describing: error))"); return
        }
        #expect(properties == ["body"])
        #expect(try fixture.item(note.id).body == "from another process")
    }

    @Test func aChangeOfAnotherPropertyDoesNotStopTheSave() throws {
        let fixture = try StoreFixture()
        let note = try fixture.store.addNote(named: "n", body: "first", in: nil)
        let context = fixture.store.makeContext()
        var item = try context.object(with: note.id)
        try fixture.store.edit(note.id, name: "renamed elsewhere")
        item.body = "mine"
        try context.update(item)
        try context.save()
        let saved = try fixture.item(note.id)
        #expect(saved.name == "renamed elsewhere")
        #expect(saved.body == "mine")
    }

    @Test func aMoveOfWhatWasMovedMeanwhileIsRefused() throws {
        let fixture = try StoreFixture()
        let note = try fixture.store.addNote(named: "n", body: "", in: nil)
        let box = try fixture.store.addCollection(named: "box", in: nil)
        let shelf = try fixture.store.addCollection(named: "shelf", in: nil)
        let context = fixture.store.makeContext()
        var item = try context.object(with: note.id)
        try fixture.store.move(note.id, to: box.id)
        item.parent = shelf.id
        try context.update(item)
        let error = #expect(throws: StoreError.self) { try context.save() }
        #expect(error.map { "\($0)" }?.contains("its place changed in the store since it was read") == true)
        #expect(try fixture.item(note.id).parent == box.id)
    }
}
