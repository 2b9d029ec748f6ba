import Foundation
import NoteStore
@testable import NoteSync
import NoteTestSupport
import Testing

/// Links across devices: the rewrites of a rename are ordinary edits that merge, and every
/// device resolves every link alike.
@Suite struct LinkSyncTests {
    func resolutions(_ stack: SyncStack) throws -> [[UUID: [UUID?]]] {
        try stack.stores.map { store in
            var byNote: [UUID: [UUID?]] = [:]
            for note in try store.fetch(ItemRequest(kind: .note)) {
                byNote[note.id] = try store.links(of: note.id).map(\.resolved)
            }
            return byNote
        }
    }

    /// A renames the note that a body links to while B edits another line of that body (not
    /// the next one: as for git, changes of adjacent lines are one region): the rewrite and
    /// the edit merge line by line.
    @Test func aRenameOnOneDeviceAndAnEditOnAnotherMerge() throws {
        let stack = try SyncStack(devices: 2)
        let (a, b) = (stack.stores[0], stack.stores[1])
        let soup = try a.addNote(named: "Soup", body: "", in: nil)
        let menu = try a.addNote(named: "Menu", body: "monday: [[Soup]]\n\ntuesday: bread\n", in: nil)
        try stack.syncUntilQuiet()
        #expect(try a.edit(soup.id, name: "Leek soup"))
        #expect(try b.edit(menu.id, body: "monday: [[Soup]]\n\ntuesday: cheese\n"))
        try stack.syncUntilQuiet()
        #expect(try a.item(menu.id).body == "monday: [[Leek soup]]\n\ntuesday: cheese\n")
        #expect(Set(try stack.dumps()).count == 1)
        #expect(try a.conflictCopies().isEmpty && b.conflictCopies().isEmpty)
        let resolved = try resolutions(stack)
        #expect(resolved[0] == resolved[1] && resolved[0][menu.id] == [soup.id])
    }

    /// Both devices rename the note alike at once: both rewrite the same link alike, and they
    /// converge without a conflict copy.
    @Test func twoDevicesThatRewriteALinkAlikeConvergeWithoutAConflict() throws {
        let stack = try SyncStack(devices: 2)
        let (a, b) = (stack.stores[0], stack.stores[1])
        let soup = try a.addNote(named: "Soup", body: "", in: nil)
        let menu = try a.addNote(named: "Menu", body: "one\n[[Soup]]\nthree\n", in: nil)
        try stack.syncUntilQuiet()
        #expect(try a.edit(soup.id, name: "Leek soup"))
        #expect(try b.edit(soup.id, name: "Leek soup"))
        try stack.syncUntilQuiet()
        #expect(try b.item(menu.id).body == "one\n[[Leek soup]]\nthree\n")
        #expect(Set(try stack.dumps()).count == 1)
        #expect(try a.conflictCopies().isEmpty && b.conflictCopies().isEmpty)
    }

    /// A link written on a device that has not seen a rename made elsewhere reaches the note
    /// on every device once both are in step.
    @Test func aLinkWrittenBeforeARenameWasSeenReachesTheNoteEverywhere() throws {
        let stack = try SyncStack(devices: 2)
        let (a, b) = (stack.stores[0], stack.stores[1])
        let plan = try a.addNote(named: "Plan", body: "", in: nil)
        try stack.syncUntilQuiet()
        #expect(try a.edit(plan.id, name: "Launch plan"))
        let diary = try b.addNote(named: "Diary", body: "see [[Plan]]\n", in: nil)
        try stack.syncUntilQuiet()
        let resolved = try resolutions(stack)
        #expect(resolved[0] == resolved[1] && resolved[0][diary.id] == [plan.id])
    }

    /// An alias set on one device reaches the links written on another, and two devices that
    /// set aliases at once resolve alike once synced.
    @Test func aliasesSetOnOneDeviceResolveLinksWrittenOnAnother() throws {
        let stack = try SyncStack(devices: 2)
        let (a, b) = (stack.stores[0], stack.stores[1])
        let soup = try a.addNote(named: "Soup", body: "", in: nil)
        let stew = try a.addNote(named: "Stew", body: "", in: nil)
        try stack.syncUntilQuiet()
        let menu = try b.addNote(named: "Menu", body: "[[Potage]] [[Ragout]]", in: nil)
        try a.setProperty(soup.id, "aliases", to: .list([.string("Potage")]))
        try b.setProperty(stew.id, "aliases", to: .string("Ragout"))
        try stack.syncUntilQuiet()
        let resolved = try resolutions(stack)
        #expect(resolved[0] == resolved[1] && resolved[0][menu.id] == [soup.id, stew.id])
        // Concurrent aliases of one name: the same rule picks one on both devices.
        try a.setProperty(stew.id, "aliases", to: .list([.string("Ragout"), .string("Potage")]))
        try b.setProperty(soup.id, "aliases", to: .list([.string("Potage"), .string("Ragout")]))
        try stack.syncUntilQuiet()
        let again = try resolutions(stack)
        #expect(again[0] == again[1])
        #expect(Set(try stack.dumps()).count == 1)
    }
}
