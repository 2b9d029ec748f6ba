import Foundation
import NoteTestSupport
import Testing

/// Output longer than the screen goes through the pager (real `less`) at a real terminal,
/// never into a pipe, and not with `--no-pager` or an empty `NOTES_PAGER`.
@Suite(.serialized) struct TerminalPagerTests {
    let fixture = CommandLineFixture()

    func terminal(environment: [String: String] = [:]) throws -> TerminalSession {
        for number in 1...40 {
            _ = try fixture.add("Note number \(number)", body: "body \(number)")
        }
        return try TerminalSession(environment: ["NOTES_STORE": fixture.store.path].merging(environment) { $1 })
    }

    @Test func aLongListingIsPagedAndQuitWithQ() throws {
        let terminal = try terminal()
        try terminal.run("notes ls; echo \"exit=$?\"")
        let screen = try terminal.waitForScreen(within: 15, "less's prompt") {
            $0.hasSuffix(":\n") || $0.contains("\n:\n")
        }
        #expect(!screen.contains("exit="))
        try terminal.press("G")
        try terminal.waitForScreen(containing: "(END)")
        try terminal.press("q")
        try terminal.waitForScreen(containing: "exit=0")
    }

    @Test func aShortOutputAndAPipeAreNotPaged() throws {
        let terminal = try terminal()
        try terminal.run("notes show 'Note number 7'; notes ls | wc -l; echo \"exit=$?\"")
        let screen = try terminal.waitForScreen(containing: "exit=0")
        #expect(screen.contains("body 7"))
        #expect(screen.contains("\n40\n"))
    }

    @Test func noPagerAndAnEmptyNotesPagerTurnItOff() throws {
        let terminal = try terminal(environment: ["NOTES_PAGER": ""])
        try terminal.run("notes ls; echo \"exit=$?\"")
        try terminal.waitForScreen(containing: "exit=0")
        try terminal.run("clear; PAGER=less NOTES_PAGER=less notes ls --no-pager; echo \"exit=$?\"")
        try terminal.waitForScreen(containing: "exit=0")
    }
}
