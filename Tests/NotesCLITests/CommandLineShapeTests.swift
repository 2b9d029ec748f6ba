import Foundation
import NoteTestSupport
import Testing

/// The shape of the command line: short help, suggestions for a mistyped command, --version
/// at the top only, and `cat`.
@Suite struct CommandLineShapeTests {
    @Test func withoutACommandTheShortHelpIsPrinted() throws {
        let fixture = CommandLineFixture()
        let output = try fixture.succeed([]).output
        #expect(output.hasPrefix("usage: notes [--store DIR] <command>"))
        #expect(output.contains("commands: add, mkcol, ls, browse, pick, show, cat, edit, append"))
        #expect(output.split(separator: "\n").count == 3)
        #expect(!FileManager.default.fileExists(atPath: fixture.store.path), "the short help opens no store")
    }

    @Test(arguments: [
        ("lst", "ls"), ("serach", "search"), ("shwo", "show"), ("attachment", "attachments"), ("sycn", "sync"),
    ])
    func aMistypedCommandGetsASuggestion(_ typed: String, _ meant: String) throws {
        let fixture = CommandLineFixture()
        let result = try fixture.run([typed, "x"])
        fixture.expectFailure(result, status: 64, mentioning: ["unknown command '\(typed)': did you mean '\(meant)'?"])
    }

    @Test func aWordFarFromEveryCommandGetsNoSuggestion() throws {
        let fixture = CommandLineFixture()
        let result = try fixture.run(["xylophone"])
        fixture.expectFailure(result, status: 64, mentioning: ["unknown command 'xylophone'"])
        #expect(!result.error.contains("did you mean"))
    }

    @Test func versionIsAnOptionOfTheTopLevelOnly() throws {
        let fixture = CommandLineFixture()
        #expect(try fixture.succeed(["--version"]).line.split(separator: ".").count == 3)
        let result = try fixture.run(["ls", "--version"])
        fixture.expectFailure(result, status: 64, mentioning: ["--version", "notes --version"])
        let help = try fixture.succeed(["sync", "enable", "--help"]).output
        #expect(!help.contains("--version"))
        #expect(help.components(separatedBy: "NoteCollector").count == 2, "the default said once: \(help)")
    }

    /// What a shell's completion script asks `notes` (argument-parser's `---completion`
    /// protocol): the paths in the store named on the line, collections only where a
    /// collection is wanted, and no store made where there is none.
    @Test func completionOffersThePathsOfTheStoreOnTheLine() throws {
        let fixture = CommandLineFixture()
        try fixture.makeTree()
        func complete(_ command: String, _ argument: String, _ words: [String]) throws -> [String] {
            let line = ["notes", "--store", fixture.store.path] + words
            let result = try NotesCommand.run(
                ["---completion", command, "--", argument, String(line.count - 1), String(line.last?.count ?? 0)] + line
            )
            #expect(result.status == 0, "\(result)")
            return result.output.split(separator: "\n").map(String.init)
        }
        #expect(
            try complete("show", "positional@0", ["show", "Wo"]) == [
                "Work", "Work/Ideas", "Work/Ideas/Launch", "Work/Plan",
            ])
        #expect(try complete("mv", "--to", ["mv", "Home", "--to", ""]) == ["Work", "Work/Ideas"])
        #expect(try complete("add", "--in", ["add", "x", "--in", "Work/I"]) == ["Work/Ideas"])
        let nowhere = fixture.file("no-store")
        let result = try NotesCommand.run([
            "---completion", "show", "--", "positional@0", "4", "0", "notes", "--store", nowhere.path, "show", "",
        ])
        #expect(result.output.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty)
        #expect(!FileManager.default.fileExists(atPath: nowhere.path))
    }

    /// The word being completed as each shell hands it over: zsh and fish 4 as typed, fish 3
    /// without its quoting; in fish a backslash escapes `'` inside single quotes too.
    @Test(arguments: [
        ("zsh", "5.9", "It\\'s\\ \\\"q"), ("zsh", "5.9", "'It'\\''s \"q"), ("fish", "4.0.2", "'It\\'s \"q"),
        ("fish", "4.0.2", "It\\'s\\ \\\"q"), ("fish", "3.6.0", "It's \"q"),
    ])
    func completionReadsTheWordAsTheShellTypesIt(_ shell: String, _ version: String, _ typed: String) throws {
        let fixture = CommandLineFixture()
        _ = try fixture.add("It's \"quoted\"", body: "x")
        _ = try fixture.add("Its", body: "x")
        let line = ["notes", "--store", fixture.store.path, "cat", typed]
        let result = try NotesCommand.run(
            ["---completion", "cat", "--", "positional@0", String(line.count - 1), String(typed.count)] + line,
            environment: ["SAP_SHELL": shell, "SAP_SHELL_VERSION": version])
        // zsh's script takes a last line of its own, blank.
        let candidates = result.output.split(separator: "\n").filter {
            !$0.trimmingCharacters(in: .whitespaces).isEmpty
        }
        #expect(result.status == 0 && candidates == ["It's \"quoted\""], "\(result)")
    }

    /// The bash script comes with the addition of `notes` also after `--store DIR`, as a
    /// script that installs completion may well run it.
    @Test func theBashScriptHasItsAdditionAfterStoreToo() throws {
        let fixture = CommandLineFixture()
        for arguments in [["--generate-completion-script", "bash"], ["--generate-completion-script=bash"]] {
            #expect(try NotesCommand.run(arguments).output.contains("-F _notes_unquoted notes"))
            #expect(try fixture.succeed(arguments).output.contains("-F _notes_unquoted notes"))
        }
    }

    @Test func catPrintsTheBodyByteForByteToAPipe() throws {
        let fixture = CommandLineFixture()
        let body = "first line\n\u{1B}[1mbold\u{1B}[0m\ttab\r\nno final break"
        let id = try fixture.add("Note", body: body)
        #expect(try fixture.succeed(["cat", id]).output == body)
        #expect(try fixture.succeed(["cat", "Note"]).output == body)
        try fixture.makeCollection("Box")
        fixture.expectFailure(try fixture.run(["cat", "Box"]), status: 64, mentioning: ["'Box' is a collection"])
        fixture.expectFailure(try fixture.run(["cat", "nothing"]), status: 64, mentioning: ["no item"])
    }
}
