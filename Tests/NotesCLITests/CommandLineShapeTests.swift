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
        #expect(output.contains("commands: add, mkcol, ls, show, cat, edit"))
        #expect(output.split(separator: "\n").count == 3)
        #expect(!FileManager.default.fileExists(atPath: fixture.store.path), "the short help opens no store")
    }

    @Test(arguments: [("lst", "ls"), ("serach", "search"), ("shwo", "show"), ("attachment", "attachments"), ("sycn", "sync")])
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
