import Foundation
import NoteTestSupport
import Testing

/// Completion of item paths with spaces, quotes and other scripts, pressed with Tab in a real
/// bash (with Debian's bash-completion loaded, as a person's shell has it) at a real terminal,
/// then run: what completion wrote on the line is what the shell hands to `notes`.
@Suite(.serialized) struct TerminalCompletionTests {
    let fixture = CommandLineFixture()

    func terminal() throws -> TerminalSession {
        try fixture.makeCollection("Getting started")
        _ = try fixture.add("Glossary", in: "Getting started", body: "the glossary's body")
        _ = try fixture.add("Café ☕ notes", body: "the café's body")
        _ = try fixture.add("It's \"quoted\" (twice)", body: "the quoted body")
        _ = try fixture.add("Rent `date` $HOME", body: "the rent's body")
        let script = fixture.file("notes.bash")
        let generated = try fixture.succeed(["--generate-completion-script", "bash"]).output
        try Data(generated.utf8).write(to: script)
        let terminal = try TerminalSession(environment: ["NOTES_STORE": fixture.store.path])
        try terminal.run("source /usr/share/bash-completion/bash_completion; source '\(script.path)'; clear")
        try terminal.waitForPrompt()
        return terminal
    }

    /// Types `typed`, presses Tab, and waits for the line to read `completed`; then runs it and
    /// waits for `output`.
    func complete(_ terminal: TerminalSession, _ typed: String, to completed: String, printing output: String) throws {
        try terminal.run("clear")
        try terminal.waitForPrompt()
        try terminal.type(typed)
        try terminal.press("Tab")
        try terminal.waitForScreen(containing: "$ \(completed)")
        try terminal.press("Enter")
        try terminal.waitForScreen(containing: output)
    }

    @Test func aPathWithASpaceCompletesAfterABackslash() throws {
        let terminal = try terminal()
        try complete(
            terminal, "notes cat Getting\\ started/G", to: "notes cat Getting\\ started/Glossary",
            printing: "the glossary's body")
    }

    @Test func aPathWithASpaceCompletesInsideQuotes() throws {
        let terminal = try terminal()
        try complete(
            terminal, "notes cat 'Getting started/G", to: "notes cat 'Getting started/Glossary'",
            printing: "the glossary's body")
        try complete(
            terminal, "notes cat \"Getting started/G", to: "notes cat \"Getting started/Glossary\"",
            printing: "the glossary's body")
    }

    @Test func accentsEmojiQuotesAndParenthesesComplete() throws {
        let terminal = try terminal()
        try complete(terminal, "notes cat Caf", to: "notes cat Café\\ ☕\\ notes", printing: "the café's body")
        try complete(
            terminal, "notes cat It", to: "notes cat It\\'s\\ \\\"quoted\\\"\\ \\(twice\\)", printing: "the quoted body")
    }

    /// `$` and a backquote are escaped, never left for the shell to expand: bash itself would
    /// leave them bare, taking them for an expansion typed on purpose.
    @Test func dollarAndBackquoteAreEscaped() throws {
        let terminal = try terminal()
        try complete(terminal, "notes cat Re", to: "notes cat Rent\\ \\`date\\`\\ \\$HOME", printing: "the rent's body")
        try complete(terminal, "notes cat 'Re", to: "notes cat 'Rent `date` $HOME'", printing: "the rent's body")
    }

    @Test func aCommonPrefixWithASpaceIsInsertedEscaped() throws {
        let terminal = try terminal()
        try terminal.type("notes cat Get")
        try terminal.press("Tab")
        try terminal.waitForScreen(containing: "$ notes cat Getting\\ started")
    }
}
