import Foundation
import NoteTestSupport
import Testing

/// `notes export` and `notes import` through the binary: the round trip, the summary lines,
/// and one line with a non-zero status for each bad input.
@Suite struct InterchangeCommandTests {
    let folder = TemporaryFolder("notes-cli-interchange")
    var source: URL { folder.appending("source") }
    var target: URL { folder.appending("target") }
    var out: URL { folder.appending("out") }

    func notes(_ store: URL, _ arguments: String...) throws -> NotesResult {
        try NotesCommand.run(arguments, store: store)
    }

    @Test func exportThenImportGivesTheSameNotes() throws {
        let id = try notes(source, "mkcol", "Work").line
        #expect(try notes(source, "add", "Plan", "--in", id, "--body", "step one\n").status == 0)
        #expect(try notes(source, "add", "Soup / ideas", "--body", "leeks").status == 0)
        let exported = try notes(source, "export", out.path)
        #expect(exported.output == "exported 2 notes, 1 collection, 0 images\n", "\(exported)")
        let imported = try notes(target, "import", out.path)
        #expect(imported.output == "created 3, updated 0, unchanged 0, images 0, skipped 0\n", "\(imported)")
        #expect(try notes(target, "ls", "--recursive", "--json").output == notes(source, "ls", "--recursive", "--json").output)
        #expect(try notes(target, "cat", "Work/Plan").output == "step one\n")
        let again = try notes(target, "import", out.path, "--dry-run")
        #expect(again.output == "would create 0, updated 0, unchanged 3, images 0, skipped 0\n", "\(again)")
    }

    @Test func badInputsAreOneLineAndANonZeroStatus() throws {
        #expect(try notes(source, "add", "kept").status == 0)
        let missing = try notes(source, "import", folder.appending("nowhere").path)
        #expect(missing.status != 0 && missing.error.hasPrefix("notes: cannot use ") && missing.error.hasSuffix("no such file or directory\n"), "\(missing)")
        try FileManager.default.createDirectory(at: out, withIntermediateDirectories: true)
        try Data("x".utf8).write(to: out.appendingPathComponent("other.txt"))
        let full = try notes(source, "export", out.path)
        #expect(full.status == 64 && full.error.contains("it is not empty (give --force"), "\(full)")
        let text = folder.appending("notes.txt")
        try Data("x".utf8).write(to: text)
        let notMarkdown = try notes(source, "import", text.path)
        #expect(notMarkdown.status == 65 && notMarkdown.error.split(separator: "\n").count == 1, "\(notMarkdown)")
        let unknown = try notes(source, "export", folder.appending("x").path, "nosuchnote")
        #expect(unknown.status == 64, "\(unknown)")
        let latin = folder.appending("latin1.md")
        try Data([0xFF, 0x0A]).write(to: latin)
        let skipped = try notes(source, "import", latin.path)
        #expect(skipped.status == 65 && skipped.error == "notes: latin1.md: not UTF-8, skipped\n", "\(skipped)")
        #expect(try notes(source, "ls").output.contains("kept"))
        #expect(try notes(source, "check").output == "ok\n")
    }
}
