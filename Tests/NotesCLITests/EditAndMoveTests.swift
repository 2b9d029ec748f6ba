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

    /// A note on this device and on another one syncing with it: the other's store and the id.
    private func noteOnTwoDevices(_ fixture: CommandLineFixture, body: String) throws -> (other: URL, id: String) {
        let cloud = fixture.file("cloud")
        let other = fixture.file("other")
        try FileManager.default.createDirectory(at: cloud, withIntermediateDirectories: true)
        try fixture.succeed(["sync", "enable", "--cloud", cloud.path, "--device-name", "here"])
        let id = try fixture.add("Shopping", body: body)
        try fixture.succeed(["sync", "now"])
        try fixture.succeed(["sync", "enable", "--cloud", cloud.path, "--device-name", "other"], store: other)
        return (other, id)
    }

    /// While the editor is open, another device changes the same line and the change is
    /// imported: closing the editor must not write over it. The editor opens again on both
    /// versions between conflict markers, and what it then writes is saved.
    @Test func anEditThatArrivedWhileTheEditorWasOpenIsNotOverwritten() throws {
        let fixture = CommandLineFixture()
        let (other, id) = try noteOnTwoDevices(fixture, body: "eggs\n")
        let notes = NotesCommand.binary.path
        let seen = fixture.file("seen")
        // The first time, the editor writes its text, then the other device edits and this
        // one imports, waiting until the imported body is there before the editor closes.
        // The second time, it keeps both lines.
        let environment = try editor(
            fixture,
            """
            if [ -e '\(seen.path)' ]; then
              cat "$1" >> '\(seen.path)'
              printf 'eggs and bread from the other device\\nmilk from the editor\\n' > "$1"
              exit 0
            fi
            cat "$1" > '\(seen.path)'
            printf 'eggs\\nmilk from the editor\\n' > "$1"
            '\(notes)' --store '\(other.path)' edit \(id) --body 'eggs and bread from the other device' || exit 9
            '\(notes)' --store '\(other.path)' sync now >/dev/null || exit 9
            for attempt in 1 2 3 4 5 6 7 8 9 10; do
              '\(notes)' --store '\(fixture.store.path)' sync now >/dev/null
              '\(notes)' --store '\(fixture.store.path)' show \(id) | grep -q 'bread' && exit 0
            done
            exit 9
            """)
        let result = try fixture.run(["edit", id], environment: environment)
        #expect(result.status == 0, "\(result)")
        #expect(result.error.contains("changed while the editor was open"), "\(result)")
        #expect(
            try String(contentsOf: seen, encoding: .utf8) == """
                eggs
                <<<<<<< saved elsewhere while you edited
                eggs and bread from the other device
                =======
                eggs
                milk from the editor
                >>>>>>> your edit

                """)
        #expect(
            try fixture.show(id)["body"] as? String == "eggs and bread from the other device\nmilk from the editor\n")
    }

    /// While the editor is open, another device changes another line and the change is
    /// imported: closing the editor saves the merge of both edits.
    @Test func anEditOfOtherLinesThatArrivedWhileTheEditorWasOpenMerges() throws {
        let fixture = CommandLineFixture()
        let (other, id) = try noteOnTwoDevices(fixture, body: "eggs\nmilk\n")
        let notes = NotesCommand.binary.path
        let environment = try editor(
            fixture,
            """
            printf 'eggs\nmilk\nbread\n' > "$1"
            printf 'six eggs\nmilk\n' | '\(notes)' --store '\(other.path)' edit \(id) --body-file - || exit 9
            '\(notes)' --store '\(other.path)' sync now >/dev/null || exit 9
            for attempt in 1 2 3 4 5 6 7 8 9 10; do
              '\(notes)' --store '\(fixture.store.path)' sync now >/dev/null
              '\(notes)' --store '\(fixture.store.path)' show \(id) | grep -q 'six' && exit 0
            done
            exit 9
            """)
        let result = try fixture.run(["edit", id], environment: environment)
        #expect(result.status == 0, "\(result)")
        #expect(result.output == "merged with a change made while the editor was open (see 'notes history')\n")
        #expect(try fixture.show(id)["body"] as? String == "six eggs\nmilk\nbread\n")
    }

    /// On a terminal (a pseudo-terminal made by util-linux's `script`), without VISUAL or
    /// EDITOR, Debian's `editor` alternative is used, else `vi`; without a terminal, neither.
    @Test func withoutVisualOrEditorTheEditorAlternativeThenViIsUsedOnATerminal() throws {
        let fixture = CommandLineFixture()
        let id = try fixture.add("Note", body: "x")
        let bin = fixture.file("bin")
        try FileManager.default.createDirectory(at: bin, withIntermediateDirectories: true)
        func install(_ name: String) throws {
            let file = bin.appendingPathComponent(name)
            try Data("#!/bin/sh\nprintf 'from \(name)' > \"$1\"\n".utf8).write(to: file)
            chmod(file.path, 0o755)
        }
        func editOnATerminal() throws -> Int32 {
            try NotesCommand.runOnTerminal(
                ["edit", id], store: fixture.store,
                environment: ["VISUAL": "", "EDITOR": "", "PATH": bin.path, "TERM": "dumb"]
            ).status
        }
        try install("vi")
        #expect(try editOnATerminal() == 0)
        #expect(try fixture.show(id)["body"] as? String == "from vi")
        try install("editor")
        #expect(try editOnATerminal() == 0)
        #expect(try fixture.show(id)["body"] as? String == "from editor")
        let offTerminal = try fixture.run(["edit", id], environment: ["VISUAL": "", "EDITOR": "", "PATH": bin.path])
        fixture.expectFailure(offTerminal, status: 64, mentioning: ["need a terminal"])
        #expect(try fixture.show(id)["body"] as? String == "from editor")
    }

    @Test func aMissingEditorIsOneLineWithoutTheShellsComplaint() throws {
        let fixture = CommandLineFixture()
        let id = try fixture.add("Note", body: "kept")
        let empty = fixture.file("empty-bin")
        try FileManager.default.createDirectory(at: empty, withIntermediateDirectories: true)
        let missing = try fixture.run(
            ["edit", id], environment: ["VISUAL": "", "EDITOR": "no-such-editor --wait", "PATH": empty.path])
        fixture.expectFailure(
            missing, status: 64, mentioning: ["cannot run the editor 'no-such-editor' (from EDITOR): not found"])
        let none = try fixture.run(["edit", id], environment: ["VISUAL": "", "EDITOR": "", "PATH": empty.path])
        fixture.expectFailure(none, status: 64, mentioning: ["no editor: set VISUAL or EDITOR"])
        #expect(!none.error.contains("not found:") && !none.error.contains("sh:"))
        #expect(try fixture.show(id)["body"] as? String == "kept")
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
