import Foundation
import NoteTestSupport
import Testing

/// On a narrow terminal, listings and search results stay in their columns: long names are
/// cut with '…' (CJK counted two columns wide), snippets are one line.
@Suite(.serialized) struct TerminalColumnsTests {
    let fixture = CommandLineFixture()

    @Test func longNamesAreCutToTheTerminalsWidth() throws {
        _ = try fixture.add(
            "Call Anna re: flat viewing and a very long name that will not fit on a line of the terminal", body: "flat")
        _ = try fixture.add(
            "日本語メモ とても長い名前のノートです。"
                + "これは端末の幅を超えるかもしれません",
            body: "東京 | a | table\nflat")
        let terminal = try TerminalSession(
            width: 50, environment: ["NOTES_STORE": fixture.store.path, "NOTES_PAGER": ""])
        try terminal.run("clear")
        try terminal.waitForPrompt()
        try terminal.run("notes ls --sort name; echo end")
        var lines = try linesUpToTheEnd(of: terminal)
        // The command, two items, the end: no row more, as there would be if a line wrapped.
        #expect(lines.count == 4, "\(lines)")
        #expect(lines[1].hasSuffix("…") && lines[1].contains("Call Anna re: flat"))
        #expect(lines[2].hasSuffix("…") && lines[2].contains("日本語メモ"))
        try terminal.run("clear")
        try terminal.waitForPrompt()
        try terminal.run("notes search flat --color never; echo end")
        lines = try linesUpToTheEnd(of: terminal)
        // The command, two results of two lines each, the end.
        #expect(lines.count == 6, "\(lines)")
        #expect(lines.contains("          «flat»"))
        #expect(lines.filter { $0 == "          «flat»" }.count == 2, "the line of the match")
        try terminal.run("clear")
        try terminal.waitForPrompt()
        _ = try fixture.add(
            "Trip",
            body: "雨\n東京タワーから見た夕日はとても美しくて、"
                + "また来年も必ず来たいと思いました。")
        try terminal.run("notes search 東京 --color never; echo end")
        lines = try linesUpToTheEnd(of: terminal)
        // The command, two results of two lines each, the end: each snippet one line, the
        // line of the match, cut to the 50 columns (less the indent) with '…'.
        #expect(lines.count == 6, "\(lines)")
        #expect(lines.contains("          «東京»タワーから見た夕日はとても美しく…"), "\(lines)")
        #expect(lines.contains("          «東京» a table"), "\(lines)")
    }

    /// The screen's lines from the command to its "end", without the prompt that the shell
    /// may or may not have drawn after it yet.
    private func linesUpToTheEnd(of terminal: TerminalSession) throws -> [String] {
        let lines = try terminal.waitForScreen(containing: "\nend\n").split(separator: "\n").map(String.init)
            .filter { !$0.isEmpty }
        guard let end = lines.firstIndex(of: "end") else { return lines }
        return Array(lines[...end])
    }
}
