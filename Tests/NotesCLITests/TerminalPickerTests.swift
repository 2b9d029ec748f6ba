import Foundation
import NoteTestSupport
import Testing

/// The picker at a real terminal: fzf when installed, the list of its own otherwise; `notes
/// pick` for the shell, and the commands that take an item choosing it when it is left out.
@Suite(.serialized) struct TerminalPickerTests {
    let fixture = CommandLineFixture()

    func terminal() throws -> TerminalSession {
        try fixture.makeCollection("Getting started")
        try fixture.makeCollection("Recipes")
        _ = try fixture.add("Glossary", in: "Getting started", body: "the glossary's body")
        _ = try fixture.add("Soup", in: "Recipes", body: "the soup's body")
        try fixture.succeed(["tag", "Recipes/Soup", "kitchen"])
        return try TerminalSession(environment: ["NOTES_STORE": fixture.store.path, "NOTES_PAGER": ""])
    }

    /// A folder holding only `notes`, for a PATH without fzf.
    func pathWithoutFzf() throws -> String {
        let bin = fixture.file("bin")
        try FileManager.default.createDirectory(at: bin, withIntermediateDirectories: true)
        try FileManager.default.createSymbolicLink(
            at: bin.appendingPathComponent("notes"), withDestinationURL: NotesCommand.binary)
        return bin.path
    }

    @Test func pickPrintsTheChosenIdForTheShellWithFzf() throws {
        let terminal = try terminal()
        try terminal.run("notes cat \"$(notes pick gloss)\"; echo \"exit=$?\"")
        try terminal.waitForScreen(containing: "> Getting started/Glossary")
        try terminal.press("Enter")
        let screen = try terminal.waitForScreen(containing: "exit=0")
        #expect(screen.contains("the glossary's body"))
    }

    @Test func tagsAreMatchedAndEscapeCancels() throws {
        let terminal = try terminal()
        try terminal.run("notes pick; echo \"exit=$?\"")
        try terminal.waitForScreen(containing: "pick>")
        try terminal.type("kitchen")
        try terminal.waitForScreen(containing: "Recipes/Soup  #kitchen")
        try terminal.press("Escape")
        try terminal.waitForScreen(containing: "exit=1")
    }

    @Test func withoutFzfTheOwnListNarrowsAsTyped() throws {
        let terminal = try terminal()
        try terminal.run("PATH=\(try pathWithoutFzf()) notes show; echo \"exit=$?\"")
        try terminal.waitForScreen(containing: "(4 of 4)")
        try terminal.type("soup")
        try terminal.waitForScreen(containing: "(1 of 4)")
        try terminal.press("Enter")
        let screen = try terminal.waitForScreen(containing: "exit=0")
        #expect(screen.contains("path:     Recipes/Soup"))
        #expect(screen.contains("the soup's body"))
    }

    @Test func editWithoutAnItemPicksThenEdits() throws {
        let terminal = try TerminalSession(environment: [
            "NOTES_STORE": fixture.store.path, "EDITOR": "vim -u NONE -i NONE -N",
        ])
        let id = try fixture.add("Soup", body: "leeks\n")
        _ = try fixture.add("Salad", body: "lettuce\n")
        try terminal.run("notes edit; echo \"exit=$?\"")
        try terminal.waitForScreen(containing: "edit>")
        try terminal.type("sou")
        try terminal.waitForScreen(containing: "1/2")
        try terminal.press("Enter")
        try terminal.waitForScreen(containing: "Soup.md")
        try terminal.waitForRawMode()
        try terminal.type("Gosalt")
        try terminal.press("Escape")
        try terminal.run(":wq")
        try terminal.waitForScreen(containing: "exit=0")
        #expect(try fixture.show(id)["body"] as? String == "leeks\nsalt\n")
    }

    /// `tag -i`: the note is picked among the notes alone, and every argument is a tag.
    @Test func tagWithIPicksTheNoteAndTakesEveryArgumentAsATag() throws {
        let terminal = try terminal()
        try terminal.run("notes tag -i winter '#hot'; echo \"exit=$?\"")
        try terminal.waitForScreen(containing: "tag>")
        try terminal.waitForScreen(containing: "2/2")
        try terminal.type("soup")
        try terminal.waitForScreen(containing: "1/2")
        try terminal.press("Enter")
        try terminal.waitForScreen(containing: "exit=0")
        #expect(try fixture.show("Recipes/Soup")["tags"] as? [String] == ["hot", "kitchen", "winter"])
        try terminal.run("notes untag -i hot; echo \"untagged=$?\"")
        try terminal.waitForScreen(containing: "untag>")
        try terminal.type("soup")
        try terminal.waitForScreen(containing: "1/2")
        try terminal.press("Enter")
        try terminal.waitForScreen(containing: "untagged=0")
        #expect(try fixture.show("Recipes/Soup")["tags"] as? [String] == ["kitchen", "winter"])
    }

    /// `attach -i`: the note is picked, and every argument is a file to attach to it.
    @Test func attachWithIPicksTheNoteAndTakesEveryArgumentAsAFile() throws {
        let terminal = try terminal()
        let images = [SampleFiles.image("plain.png").path, SampleFiles.image("still.gif").path]
        try terminal.run("notes attach -i \(images.joined(separator: " ")) --caption 'the view'; echo \"exit=$?\"")
        try terminal.waitForScreen(containing: "attach>")
        try terminal.type("gloss")
        try terminal.waitForScreen(containing: "1/2")
        try terminal.press("Enter")
        try terminal.waitForScreen(containing: "exit=0")
        let listed = try fixture.succeed(["attachments", "Getting started/Glossary"]).output
        #expect(listed.split(separator: "\n").count == 2 && listed.contains("the view"), "\(listed)")
        #expect(try fixture.succeed(["attachments", "Recipes/Soup"]).output.isEmpty)
    }

    /// Without a terminal, an item left out is a usage error, not a picker.
    @Test func withoutATerminalTheItemIsRequired() throws {
        _ = try fixture.add("Soup", body: "leeks")
        let image = SampleFiles.image("plain.png").path
        for arguments in [
            ["show"], ["cat"], ["edit"], ["rm"], ["tag", "-i", "winter"], ["untag", "-i", "winter"],
            ["attach", "-i", image],
        ] {
            fixture.expectFailure(try fixture.run(arguments), status: 64, mentioning: ["give the item", "terminal"])
        }
        #expect(try fixture.show("Soup")["trashed"] as? Bool == false)
        #expect(try fixture.show("Soup")["tags"] as? [String] == [])
        #expect(try fixture.succeed(["attachments", "Soup"]).output.isEmpty)
    }

    /// Without -i, `tag` and `attach` take the note first, as ever; a missing note or tag is
    /// the parser's one-line error.
    @Test func withoutITheNoteComesFirst() throws {
        _ = try fixture.add("Soup", body: "leeks")
        try fixture.succeed(["tag", "Soup", "winter", "hot"])
        #expect(try fixture.show("Soup")["tags"] as? [String] == ["hot", "winter"])
        #expect(try fixture.succeed(["attach", "Soup", SampleFiles.image("plain.png").path]).output.count > 0)
        fixture.expectFailure(try fixture.run(["tag"]), status: 64, mentioning: ["missing expected argument '<note>'"])
        fixture.expectFailure(
            try fixture.run(["tag", "-i"]), status: 64, mentioning: ["missing expected argument '<TAG> ...'"])
        fixture.expectFailure(
            try fixture.run(["attach", "Soup"]), status: 64, mentioning: ["missing expected argument '<FILE> ...'"])
        fixture.expectFailure(
            try fixture.run(["attach", "-i"]), status: 64, mentioning: ["missing expected argument '<FILE> ...'"])
    }

    /// A reference that names several notes ignoring case opens the picker on them; with
    /// --exact, or when output goes to a pipe, it fails on one line instead.
    @Test func anAmbiguousReferenceOpensThePickerOnItsCandidates() throws {
        let terminal = try terminal()
        _ = try fixture.add("glossary", in: "Recipes", body: "the kitchen's words")
        try terminal.run("notes show GLOSSARY; echo \"exit=$?\"")
        try terminal.waitForScreen(containing: "show>")
        try terminal.waitForScreen(containing: "2/2")
        let offered = try terminal.screen()
        #expect(
            offered.contains("Getting started/Glossary") && offered.contains("Recipes/glossary")
                && !offered.contains("Soup"), "\(offered)")
        try terminal.type("recip")
        try terminal.waitForScreen(containing: "1/2")
        try terminal.press("Enter")
        let screen = try terminal.waitForScreen(containing: "exit=0")
        #expect(screen.contains("path:     Recipes/glossary") && screen.contains("the kitchen's words"), "\(screen)")
        try terminal.run("clear; notes show GLOSSARY --exact; echo \"exact=$?\"")
        let exact = try terminal.waitForScreen(containing: "exact=64")
        #expect(exact.contains("notes: no item matches 'GLOSSARY'") && !exact.contains("show>"), "\(exact)")
        try terminal.run("clear; notes show GLOSSARY | cat; echo \"piped=${PIPESTATUS[0]}\"")
        let piped = try terminal.waitForScreen(containing: "piped=64")
        #expect(piped.contains("'GLOSSARY' matches 2 items") && !piped.contains("show>"), "\(piped)")
    }

    /// The own list, without fzf, offers the candidates alone too; Escape leaves the error.
    @Test func withoutFzfTheOwnListOffersTheCandidates() throws {
        let terminal = try terminal()
        try terminal.run("PATH=\(try pathWithoutFzf()) notes cat glosary; echo \"exit=$?\"")
        try terminal.waitForScreen(containing: "(1 of 1)")
        #expect(try terminal.screen().contains("Getting started/Glossary"))
        try terminal.press("Escape")
        let screen = try terminal.waitForScreen(containing: "exit=64")
        #expect(screen.contains("no item matches 'glosary'; the closest:"), "\(screen)")
    }
}
