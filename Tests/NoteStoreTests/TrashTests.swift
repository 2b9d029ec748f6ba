import Foundation
import NoteStore
import Testing

@Suite struct TrashTests {
    @Test func trashingACollectionTrashesItsContents() throws {
        let fixture = try StoreFixture()
        let tree = try fixture.makeTree()
        #expect(try fixture.store.trash(tree.work) == 4)
        for id in [tree.work, tree.ideas, tree.launch, tree.meeting] {
            #expect(try fixture.item(id).isTrashed)
        }
        #expect(try !fixture.item(tree.soup).isTrashed)
        let live = try fixture.store.fetch(ItemRequest())
        #expect(Set(live.map(\.name)) == ["Home", "Recipes", "Soup"])
    }

    @Test func restoreBringsBackOnlyWhatWasTrashedTogether() throws {
        let fixture = try StoreFixture()
        let tree = try fixture.makeTree()
        try fixture.store.trash(tree.meeting)
        let meetingTrashed = try fixture.item(tree.meeting).trashed
        try fixture.store.trash(tree.work)
        try fixture.store.restore(tree.work)
        #expect(try !fixture.item(tree.work).isTrashed)
        #expect(try !fixture.item(tree.launch).isTrashed)
        #expect(try fixture.item(tree.meeting).trashed == meetingTrashed)
    }

    @Test func restoringAnItemRestoresTheCollectionsAboveIt() throws {
        let fixture = try StoreFixture()
        let tree = try fixture.makeTree()
        try fixture.store.trash(tree.work)
        try fixture.store.restore(tree.launch)
        #expect(try !fixture.item(tree.launch).isTrashed)
        #expect(try !fixture.item(tree.ideas).isTrashed)
        #expect(try !fixture.item(tree.work).isTrashed)
        #expect(try fixture.item(tree.meeting).isTrashed)
    }

    @Test func trashAndRestoreAreRefusedWhenTheyDoNotApply() throws {
        let fixture = try StoreFixture()
        let tree = try fixture.makeTree()
        #expect(throws: StoreError.self) { try fixture.store.restore(tree.soup) }
        try fixture.store.trash(tree.soup)
        #expect(throws: StoreError.self) { try fixture.store.trash(tree.soup) }
    }

    @Test func emptyTrashPurgesACollectionWithItsContents() throws {
        let fixture = try StoreFixture()
        let tree = try fixture.makeTree()
        try fixture.store.trash(tree.work)
        #expect(try fixture.store.emptyTrash() == 4)
        #expect(try fixture.store.count(ItemRequest(trash: .included)) == 3)
        #expect(throws: StoreError.self) { try fixture.store.item(tree.launch) }
        #expect(try fixture.store.emptyTrash() == 0)
    }

    @Test func purgeIncludesContentsAddedByAnotherContextMeanwhile() throws {
        let fixture = try StoreFixture()
        let tree = try fixture.makeTree()
        try fixture.store.trash(tree.home)
        let context = fixture.store.makeContext()
        try context.purge(tree.home)
        // Another writer restores and adds inside before this context saves.
        try fixture.store.restore(tree.home)
        _ = try fixture.store.addNote(named: "late", body: "", in: tree.recipes)
        try fixture.store.trash(tree.home)
        try context.save()
        #expect(try fixture.store.count(ItemRequest(scope: .everywhere, trash: .included)) == 4)
        #expect(try fixture.store.fetch(ItemRequest(trash: .included, nameContains: "late")).isEmpty)
    }

    @Test func trashingACollectionAlsoTrashesContentsAddedMeanwhile() throws {
        let fixture = try StoreFixture()
        let tree = try fixture.makeTree()
        let context = fixture.store.makeContext()
        try context.trash(tree.home)
        let late = try fixture.store.addNote(named: "late", body: "", in: tree.recipes)
        try context.save()
        #expect(try fixture.item(late.id).trashed == fixture.item(tree.home).trashed)
    }

    @Test func listingOfTheTrashShowsWhatWasTrashedNotEachThingInside() throws {
        let fixture = try StoreFixture()
        let tree = try fixture.makeTree()
        try fixture.store.trash(tree.soup)
        try fixture.store.trash(tree.work)
        let roots = try fixture.store.listing(of: nil, trash: true)
        #expect(roots.map(\.item.name) == ["Soup", "Work"])
        let all = try fixture.store.listing(of: nil, recursive: true, trash: true)
        #expect(all.map(\.item.name) == ["Soup", "Work", "Ideas", "Launch plan", "Meeting"])
        #expect(all.map(\.depth) == [0, 0, 1, 2, 1])
    }
}
