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

/// A purge against each kind of concurrent change, in both orders of arrival on a third device.
@Suite struct CausalPurgeTests {
    enum Concurrent: CaseIterable {
        case edit, rename, restore, move, attach
    }

    /// A trashes and purges N; B, not yet aware, changes N (for a restore, the trash was
    /// synced before). After every device syncs (C receiving A's purge first or B's change
    /// first), N is in the trash with B's change on every device.
    @Test(arguments: Concurrent.allCases, [true, false])
    func aPurgeDoesNotEraseAChangeItHadNotSeen(_ concurrent: Concurrent, purgeFirst: Bool) throws {
        let stack = try SyncStack(devices: 3)
        let (a, b, c) = (stack.stores[0], stack.stores[1], stack.stores[2])
        let target = try a.addCollection(named: "Target", in: nil)
        let note = try a.addNote(named: "Soup", body: "leeks\n", in: nil)
        if concurrent == .restore { try a.trash(note.id) }
        try stack.syncUntilQuiet()
        if concurrent != .restore { try a.trash(note.id) }
        try a.emptyTrash()
        switch concurrent {
        case .edit: try b.edit(note.id, body: "leeks\npotatoes\n")
        case .rename: try b.edit(note.id, name: "Broth")
        case .restore: try b.restore(note.id)
        case .move: try b.move(note.id, to: target.id)
        case .attach: _ = try b.attachImages([SampleFiles.image("plain.png")], to: note.id)
        }
        let first = purgeFirst ? stack.engines[0] : stack.engines[1]
        let second = purgeFirst ? stack.engines[1] : stack.engines[0]
        try first.syncNow()
        try second.syncNow()
        try stack.engines[2].syncNow()
        try stack.syncUntilQuiet()
        let dumps = try stack.dumps()
        #expect(dumps[1] == dumps[0] && dumps[2] == dumps[0], "\(concurrent)")
        for store in [a, b, c] {
            let survivor = try store.item(note.id)
            switch concurrent {
            case .edit: #expect(survivor.body == "leeks\npotatoes\n")
            case .rename: #expect(survivor.name == "Broth")
            case .restore: break
            case .move: #expect(survivor.parent == target.id)
            case .attach: #expect(try store.attachments(of: note.id).count == 1)
            }
            if concurrent != .restore { #expect(survivor.isTrashed, "\(concurrent): in the trash") }
            #expect(try store.check() == [])
        }
        // Removing the only change the purge had not seen lets the purge erase the note: on
        // the device that removed it (once it syncs) as on the others.
        if concurrent == .attach, let attachment = try b.attachments(of: note.id).first {
            try b.detach(attachment.id)
            try stack.syncUntilQuiet()
            for store in [a, b, c] {
                #expect(throws: StoreError.self) { try store.item(note.id) }
            }
            let after = try stack.dumps()
            #expect(after[1] == after[0] && after[2] == after[0])
        }
    }

    @Test func aPurgeThatHadSeenTheChangeErasesIt() throws {
        let stack = try SyncStack(devices: 2)
        let (a, b) = (stack.stores[0], stack.stores[1])
        let note = try a.addNote(named: "Soup", body: "leeks\n", in: nil)
        try stack.syncUntilQuiet()
        try b.edit(note.id, body: "leeks\npotatoes\n")
        try b.trash(note.id)
        try stack.syncUntilQuiet()
        try a.emptyTrash()
        try stack.syncUntilQuiet()
        for store in [a, b] { #expect(throws: StoreError.self) { try store.item(note.id) } }
        #expect(try CanonicalDump.of(a) == CanonicalDump.of(b))
    }
}
