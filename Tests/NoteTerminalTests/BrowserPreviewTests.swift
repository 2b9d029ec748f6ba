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
        // As narrow as the preview of an 80-column terminal.
        let text = { (preview: BrowserPreview) in preview.lines(width: 31).map(\.text) }

        #expect(BrowserPreview.load(plan, store: store).links.map(\.text) == ["← Meeting:1"])

        try store.write { db in try LinkIndex.startBuilding(db) }
        let building = BrowserPreview.load(plan, store: store)
        #expect(building.links.isEmpty)
        let shown = text(building)
        #expect(shown.allSatisfy { $0.count <= 31 }, "\(shown)")
        #expect(
            shown.joined(separator: " ").contains(BrowserPreview.linksBeingBuiltLine), "wrapped whole: \(shown)")
        #expect(try store.linkIndexBuild() == IndexBuild(built: 0, items: 2), "left to the watcher")

        while try !store.buildLinkIndex(notes: 1) {}
        let built = BrowserPreview.load(plan, store: store)
        #expect(built.links.map(\.text) == ["← Meeting:1"])
        #expect(!text(built).joined(separator: " ").contains(BrowserPreview.linksBeingBuiltLine))
    }
}
