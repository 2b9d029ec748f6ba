import Foundation
import NoteStore
import NoteSync
import NoteTestSupport

extension SyncStack {
    /// Three devices with notes, a collection, an attachment, a concurrent edit that merged, a
    /// conflict copy and a purge, every device synced: what a baseline of device 0 then holds.
    static func populated() throws -> SyncStack {
        let stack = try SyncStack(devices: 3)
        let work = try stack.stores[0].addCollection(named: "Work", in: nil)
        let plan = try stack.stores[0].addNote(named: "Plan", body: "one\ntwo\nthree\n", in: work.id)
        let photo = try stack.stores[1].addNote(named: "Photo", body: "", in: nil)
        _ = try stack.stores[1].attachImages([SampleFiles.image("plain.png")], to: photo.id)
        let gone = try stack.stores[2].addNote(named: "Gone", body: "soon", in: nil)
        try stack.syncUntilQuiet()
        try stack.stores[0].edit(plan.id, body: "ONE\ntwo\nthree\n")
        try stack.stores[1].edit(plan.id, body: "one\ntwo\nTHREE\n")
        try stack.stores[2].edit(plan.id, body: "one\nTWO\nthree\n")
        try stack.stores[0].edit(photo.id, body: "left")
        try stack.stores[2].edit(photo.id, body: "right")
        try stack.stores[2].trash(gone.id)
        try stack.stores[2].emptyTrash()
        try stack.syncUntilQuiet()
        return stack
    }
}
