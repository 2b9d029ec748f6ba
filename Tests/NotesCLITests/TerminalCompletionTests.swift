import Foundation
import NoteTestSupport
import Testing

/// Completion of item paths with spaces, quotes, `$` and other scripts, pressed with Tab at a
/// real terminal in each shell `notes` writes a script for, loaded as a person's shell loads
/// it: bash with Debian's bash-completion, zsh through `compinit` and its `fpath`, fish by
/// `source`. Then the line is run: what completion wrote on it is what the shell hands to
/// `notes`.
@Suite(.serialized) struct TerminalCompletionTests {
    typealias Shell = TerminalSession.Shell

    let fixture = CommandLineFixture()

    func terminal(_ shell: Shell) throws -> TerminalSession {
        try fixture.makeCollection("Getting started")
        _ = try fixture.add("Glossary", in: "Getting started", body: "the glossary's body")
        _ = try fixture.add("Café ☕ notes", body: "the café's body")
        _ = try fixture.add("日本語メモ", body: "the japanese body")
        _ = try fixture.add("It's \"quoted\" (twice)", body: "the quoted body")
        _ = try fixture.add("Rent `date` $HOME", body: "the rent's body")
        let generated = try fixture.succeed(["--generate-completion-script", shell.rawValue]).output
        let folder = fixture.file("completions")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let script = folder.appendingPathComponent(shell == .zsh ? "_notes" : "notes.\(shell)")
        try Data(generated.utf8).write(to: script)
        let terminal = try TerminalSession(environment: ["NOTES_STORE": fixture.store.path], shell: shell)
        switch shell {
        case .bash:
            try terminal.run("source /usr/share/bash-completion/bash_completion; source '\(script.path)'; clear")
        case .zsh:
            try terminal.run("fpath=('\(folder.path)' $fpath); autoload -Uz compinit; compinit -u -D; clear")
        case .fish:
            try terminal.run("source '\(script.path)'; clear")
        }
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

    @Test(arguments: Shell.allCases)
    func aPathWithASpaceCompletesAfterABackslash(_ shell: Shell) throws {
        let terminal = try terminal(shell)
        try complete(
            terminal, "notes cat Getting\\ started/G", to: "notes cat Getting\\ started/Glossary",
            printing: "the glossary's body")
    }

    @Test(arguments: Shell.allCases)
    func aPathWithASpaceCompletesInsideQuotes(_ shell: Shell) throws {
        let terminal = try terminal(shell)
        try complete(
            terminal, "notes cat 'Getting started/G", to: "notes cat 'Getting started/Glossary'",
            printing: "the glossary's body")
        try complete(
            terminal, "notes cat \"Getting started/G", to: "notes cat \"Getting started/Glossary\"",
            printing: "the glossary's body")
    }

    @Test(arguments: Shell.allCases)
    func accentsEmojiCJKQuotesAndParenthesesComplete(_ shell: Shell) throws {
        let terminal = try terminal(shell)
        try complete(terminal, "notes cat Caf", to: "notes cat Café\\ ☕\\ notes", printing: "the café's body")
        try complete(terminal, "notes cat 日本", to: "notes cat 日本語メモ", printing: "the japanese body")
        try complete(
            terminal, "notes cat It", to: "notes cat It\\'s\\ \\\"quoted\\\"\\ \\(twice\\)", printing: "the quoted body"
        )
    }

    /// `$` and a backquote are escaped where they are syntax (fish takes a backquote as it
    /// is), never left for the shell to expand: bash itself would leave them bare, taking
    /// them for an expansion typed on purpose.
    @Test(arguments: Shell.allCases)
    func dollarAndBackquoteAreEscaped(_ shell: Shell) throws {
        let terminal = try terminal(shell)
        let escaped = shell == .fish ? "Rent\\ `date`\\ \\$HOME" : "Rent\\ \\`date\\`\\ \\$HOME"
        try complete(terminal, "notes cat Re", to: "notes cat \(escaped)", printing: "the rent's body")
        try complete(terminal, "notes cat 'Re", to: "notes cat 'Rent `date` $HOME'", printing: "the rent's body")
    }

    @Test(arguments: Shell.allCases)
    func aCommonPrefixWithASpaceIsInsertedEscaped(_ shell: Shell) throws {
        let terminal = try terminal(shell)
        try terminal.type("notes cat Get")
        try terminal.press("Tab")
        try terminal.waitForScreen(containing: "$ notes cat Getting\\ started")
    }
}
