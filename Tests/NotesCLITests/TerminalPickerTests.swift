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
        try FileManager.default.createSymbolicLink(at: bin.appendingPathComponent("notes"), withDestinationURL: NotesCommand.binary)
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

    /// Without a terminal, an item left out is a usage error, not a picker.
    @Test func withoutATerminalTheItemIsRequired() throws {
        _ = try fixture.add("Soup", body: "leeks")
        for command in ["show", "cat", "edit", "rm"] {
            fixture.expectFailure(try fixture.run([command]), status: 64, mentioning: ["give the item", "terminal"])
        }
        #expect(try fixture.show("Soup")["trashed"] as? Bool == false)
    }
}
