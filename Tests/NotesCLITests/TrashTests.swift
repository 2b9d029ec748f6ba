import Foundation
import NoteTestSupport
import Testing

@Suite struct TrashTests {
    @Test func rmMovesANoteToTheTrash() throws {
        let fixture = CommandLineFixture()
        let tree = try fixture.makeTree()
        let result = try fixture.succeed(["rm", "Home"])
        #expect(result.output.isEmpty)
        #expect(JSONChecks.names(try fixture.list()) == ["Work"])
        let trash = try fixture.list(["--trash"])
        #expect(trash.compactMap { $0["id"] as? String } == [tree.home])
        let shown = try fixture.show(tree.home)
        #expect(shown["trashed"] as? Bool == true)
        #expect(shown["body"] as? String == "water the plants")
        #expect(try fixture.succeed(["show", tree.home]).output.contains("\ntrashed:  "))
    }

    @Test func rmOfACollectionTrashesItsContents() throws {
        let fixture = CommandLineFixture()
        let tree = try fixture.makeTree()
        try fixture.succeed(["rm", "Work"])
        #expect(JSONChecks.names(try fixture.list(["--recursive"])) == ["Home"])
        // The trash lists what was trashed, not each thing inside it...
        #expect(JSONChecks.names(try fixture.list(["--trash"])) == ["Work"])
        // ...unless asked to.
        let everything = try fixture.list(["--trash", "--recursive"])
        #expect(JSONChecks.names(everything) == ["Work", "Ideas", "Launch", "Plan"])
        #expect(everything.allSatisfy { $0["trashed"] as? Bool == true })
        for id in [tree.work, tree.plan, tree.ideas, tree.launch] {
            #expect(try fixture.show(id)["trashed"] as? Bool == true)
        }
        #expect(try fixture.show(tree.home)["trashed"] as? Bool == false)
    }

    @Test func restoreBringsBackACollectionWithItsContents() throws {
        let fixture = CommandLineFixture()
        let tree = try fixture.makeTree()
        let before = try fixture.list(["--recursive"])
        try fixture.succeed(["rm", tree.work])
        let result = try fixture.succeed(["restore", "Work"])
        #expect(result.output.isEmpty)
        let after = try fixture.list(["--recursive"])
        #expect(JSONChecks.names(after) == JSONChecks.names(before))
        #expect(after.compactMap { $0["path"] as? String } == before.compactMap { $0["path"] as? String })
        #expect(after.allSatisfy { $0["trashed"] as? Bool == false })
        #expect(try fixture.list(["--trash"]).isEmpty)
    }

    @Test func restoreLeavesWhatWasTrashedEarlierInTheTrash() throws {
        let fixture = CommandLineFixture()
        let tree = try fixture.makeTree()
        try fixture.succeed(["rm", "Work/Plan"])
        try fixture.succeed(["rm", "Work"])
        try fixture.succeed(["restore", "Work"])
        #expect(JSONChecks.names(try fixture.list(["Work", "--recursive"])) == ["Ideas", "Launch"])
        #expect(try fixture.list(["--trash"]).compactMap { $0["id"] as? String } == [tree.plan])
    }

    @Test func restoringAnItemInsideATrashedCollectionRestoresTheCollectionsAboveIt() throws {
        let fixture = CommandLineFixture()
        let tree = try fixture.makeTree()
        try fixture.succeed(["rm", "Work"])
        try fixture.succeed(["restore", tree.launch])
        #expect(try fixture.show(tree.launch)["path"] as? String == "Work/Ideas/Launch")
        #expect(JSONChecks.names(try fixture.list(["--recursive"])) == ["Home", "Work", "Ideas", "Launch"])
        #expect(try fixture.show(tree.plan)["trashed"] as? Bool == true)
    }

    @Test func emptyTrashWithYesPurgesTheTrashForGood() throws {
        let fixture = CommandLineFixture()
        let tree = try fixture.makeTree()
        try fixture.succeed(["rm", "Work"])
        let result = try fixture.succeed(["empty-trash", "--yes"])
        #expect(result.line == "purged 4 items")
        #expect(try fixture.list(["--trash", "--recursive"]).isEmpty)
        #expect(JSONChecks.names(try fixture.list(["--recursive"])) == ["Home"])
        for id in [tree.work, tree.plan, tree.ideas, tree.launch] {
            fixture.expectFailure(try fixture.run(["show", id]), status: 64, mentioning: [id])
        }
        #expect(try fixture.show(tree.home)["body"] as? String == "water the plants")
    }

    @Test func emptyTrashOfAnEmptyTrashSaysSo() throws {
        let fixture = CommandLineFixture()
        try fixture.add("Kept")
        #expect(try fixture.succeed(["empty-trash", "--yes"]).line == "the trash is empty")
        #expect(JSONChecks.names(try fixture.list()) == ["Kept"])
    }

    @Test(arguments: [nil, "y\n"])
    func emptyTrashWithoutYesRefusesWhenStandardInputIsNoTerminal(_ input: String?) throws {
        let fixture = CommandLineFixture()
        try fixture.makeTree()
        try fixture.succeed(["rm", "Work"])
        let snapshot = try fixture.snapshot()
        let result = try fixture.run(["empty-trash"], input: input.map { Data($0.utf8) })
        fixture.expectFailure(result, status: 64, mentioning: ["--yes"])
        #expect(try fixture.snapshot() == snapshot)
        #expect(JSONChecks.names(try fixture.list(["--trash"])) == ["Work"])
    }
}
