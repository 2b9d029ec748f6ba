import Foundation
import NoteTestSupport
import Testing

@testable import NoteStore
@testable import NoteTerminal

/// The preview lists the links of a note and those that reach it; while the link index is
/// built a part at a time, it says how far the build has come instead, and leaves the build
/// to `notes watch` rather than hold the screen for all of it.
@Suite struct BrowserPreviewTests {
    let folder = TemporaryFolder("notes-preview")

    @Test func aLinkBuildInProgressIsShownNotFinished() throws {
        let store = try Store(folder: folder.appending("store"))
        let plan = try store.addNote(named: "Plan", body: "steps", in: nil)
        _ = try store.addNote(named: "Meeting", body: "see [[Plan]]", in: nil)
        let text = { (preview: BrowserPreview) in preview.lines(width: 80).map(\.text) }

        #expect(BrowserPreview.load(plan, store: store).links.map(\.text) == ["← Meeting:1"])

        try store.write { db in try LinkIndex.startBuilding(db) }
        let building = BrowserPreview.load(plan, store: store)
        #expect(building.links.isEmpty)
        #expect(
            text(building).contains("links: the link index is being built (0 of 2 notes, by 'notes watch')"),
            "\(text(building))")
        #expect(try store.linkIndexBuild() == IndexBuild(built: 0, items: 2), "left to the watcher")

        while try !store.buildLinkIndex(notes: 1) {}
        let built = BrowserPreview.load(plan, store: store)
        #expect(built.links.map(\.text) == ["← Meeting:1"])
        #expect(!text(built).contains { $0.hasPrefix("links: the link index") })
    }
}
