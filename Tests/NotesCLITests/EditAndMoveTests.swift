import Foundation
import NoteTestSupport
import Testing

@Suite struct EditAndMoveTests {
    /// Writes an executable shell script to use as EDITOR.
    private func editor(_ fixture: CommandLineFixture, _ script: String) throws -> [String: String] {
        let url = try fixture.write(Data("#!/bin/sh\n\(script)\n".utf8), to: "editor.sh", mode: 0o755)
        return ["EDITOR": url.path, "VISUAL": ""]
    }

    @Test func editRenamesAnItem() throws {
        let fixture = CommandLineFixture()
        let tree = try fixture.makeTree()
        let before = try fixture.show(tree.plan)
        try fixture.succeed(["edit", tree.plan, "--name", "Roadmap"])
        let after = try fixture.show("Work/Roadmap")
        #expect(after["id"] as? String == tree.plan)
        #expect(after["body"] as? String == "ship it on monday")
        #expect(after["created"] as? String == before["created"] as? String)
        let modified = try #require(JSONChecks.date(after["modified"]))
        #expect(modified > JSONChecks.date(before["modified"]) ?? .distantFuture)
        try fixture.succeed(["edit", "Work", "--name", "Job"])
        #expect(try fixture.show(tree.plan)["path"] as? String == "Job/Roadmap")
    }

    @Test func editSetsTheBodyFromTheBodyOption() throws {
        let fixture = CommandLineFixture()
        let id = try fixture.add("Note", body: "first")
        let before = try fixture.show(id)
        try fixture.succeed(["edit", id, "--body", "second"])
        let after = try fixture.show(id)
        #expect(after["body"] as? String == "second")
        #expect(after["name"] as? String == "Note")
        #expect(JSONChecks.date(after["modified"])! > JSONChecks.date(before["modified"])!)
    }

    @Test func editSetsTheBodyFromAFile() throws {
        let fixture = CommandLineFixture()
        let id = try fixture.add("Note", body: "first")
        let file = try fixture.write(Data("from\na file\n".utf8), to: "new.txt")
        try fixture.succeed(["edit", "Note", "--body-file", file.path])
        #expect(try fixture.show(id)["body"] as? String == "from\na file\n")
    }

    @Test func editWithNeitherOptionSavesWhatTheEditorWrote() throws {
        let fixture = CommandLineFixture()
        let id = try fixture.add("Note", body: "before the editor")
        let before = try fixture.show(id)
        let seen = fixture.file("seen.txt")
        let environment = try editor(fixture, "cp \"$1\" '\(seen.path)'\nprintf 'after the editor\\n' > \"$1\"")
        try fixture.succeed(["edit", id], environment: environment)
        #expect(try String(contentsOf: seen, encoding: .utf8) == "before the editor")
        let after = try fixture.show(id)
        #expect(after["body"] as? String == "after the editor\n")
        #expect(JSONChecks.date(after["modified"])! > JSONChecks.date(before["modified"])!)
    }

    @Test func editorThatChangesNothingSavesNothing() throws {
        let fixture = CommandLineFixture()
        let id = try fixture.add("Note", body: "unchanged")
        let before = try fixture.show(id)
        let snapshot = try fixture.snapshot()
        let environment = try editor(fixture, "test -f \"$1\"")
        try fixture.succeed(["edit", id], environment: environment)
        #expect(try fixture.snapshot() == snapshot)
        let after = try fixture.show(id)
        #expect(after["body"] as? String == "unchanged")
        #expect(after["modified"] as? String == before["modified"] as? String)
    }

    @Test func visualWinsOverEditor() throws {
        let fixture = CommandLineFixture()
        let id = try fixture.add("Note", body: "x")
        let visual = try fixture.write(Data("#!/bin/sh\nprintf visual > \"$1\"\n".utf8), to: "visual.sh", mode: 0o755)
        var environment = try editor(fixture, "printf editor > \"$1\"")
        environment["VISUAL"] = visual.path
        try fixture.succeed(["edit", id], environment: environment)
        #expect(try fixture.show(id)["body"] as? String == "visual")
    }

    @Test func mvMovesAnItemIntoACollection() throws {
        let fixture = CommandLineFixture()
        let tree = try fixture.makeTree()
        let result = try fixture.succeed(["mv", "Home", "--to", "Work/Ideas"])
        #expect(result.output.isEmpty)
        let home = try fixture.show(tree.home)
        #expect(home["parent"] as? String == tree.ideas)
        #expect(home["path"] as? String == "Work/Ideas/Home")
        #expect(JSONChecks.names(try fixture.list()) == ["Work"])
        #expect(JSONChecks.names(try fixture.list(["Work/Ideas"])) == ["Home", "Launch"])
    }

    @Test func mvTopMovesAnItemToTheTopLevel() throws {
        let fixture = CommandLineFixture()
        let tree = try fixture.makeTree()
        try fixture.succeed(["mv", tree.launch, "--top"])
        let launch = try fixture.show(tree.launch)
        #expect(launch["parent"] is NSNull)
        #expect(launch["path"] as? String == "Launch")
        #expect(JSONChecks.names(try fixture.list()) == ["Home", "Launch", "Work"])
        #expect(try fixture.list(["Work/Ideas"]).isEmpty)
    }

    @Test func mvOfACollectionTakesItsContents() throws {
        let fixture = CommandLineFixture()
        let tree = try fixture.makeTree()
        let archive = try fixture.makeCollection("Archive")
        try fixture.succeed(["mv", "Work/Ideas", "--to", "Archive"])
        #expect(try fixture.show(tree.ideas)["parent"] as? String == archive)
        #expect(try fixture.show(tree.launch)["path"] as? String == "Archive/Ideas/Launch")
        #expect(JSONChecks.names(try fixture.list(["Work"])) == ["Plan"])
    }
}
