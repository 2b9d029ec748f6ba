import Foundation
import NoteStore
import NoteSync
import NoteTestSupport
import Testing

/// Deletes against concurrent changes, on real devices over one folder.
@Suite struct CausalDeleteTests {
    @Test func emptyingTheTrashSparesAnItemMovedIntoATrashedCollectionMeanwhile() throws {
        let stack = try SyncStack(devices: 2)
        let (a, b) = (stack.stores[0], stack.stores[1])
        let collection = try a.addCollection(named: "Old", in: nil)
        let inside = try a.addNote(named: "Inside", body: "trashed with it", in: collection.id)
        let note = try a.addNote(named: "Loose", body: "keep me", in: nil)
        try stack.syncUntilQuiet()
        try a.trash(collection.id)
        try b.move(note.id, to: collection.id)
        try stack.syncUntilQuiet()
        #expect(try a.item(note.id).trashed == nil)
        #expect(try a.emptyTrash() == 2)
        try stack.syncUntilQuiet()
        for store in [a, b] {
            let survivor = try store.item(note.id)
            #expect(survivor.parent == nil && survivor.trashed == nil && survivor.body == "keep me")
            #expect(throws: StoreError.self) { try store.item(inside.id) }
            #expect(throws: StoreError.self) { try store.item(collection.id) }
        }
        #expect(try CanonicalDump.of(a) == CanonicalDump.of(b))
    }
}
