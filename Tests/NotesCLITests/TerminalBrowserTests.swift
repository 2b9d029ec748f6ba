import Foundation
import NoteStore
import NoteTestSupport
import Testing

/// `notes browse` at a real terminal (tmux), driven by keys as a person drives it, while
/// other processes change the store.
@Suite(.serialized) struct TerminalBrowserTests {
    let fixture = CommandLineFixture()

    func terminal(width: Int = 80, height: Int = 24) throws -> TerminalSession {
        try fixture.makeCollection("Getting started")
        try fixture.makeCollection("Recipes")
        _ = try fixture.add("Glossary", in: "Getting started", body: "A glossary of terms.")
        _ = try fixture.add("Soup", in: "Recipes", body: "leeks\nsalt\n")
        _ = try fixture.add("日本語メモ", body: "東京")
        let terminal = try TerminalSession(
            width: width, height: height,
            environment: ["NOTES_STORE": fixture.store.path, "EDITOR": "vim -u NONE -i NONE -N"])
        try terminal.run("stty -g > before; notes browse; echo \"exit=$?\"; stty -g > after")
        try terminal.waitForScreen(containing: "? help")
        try terminal.waitForRawMode()
        return terminal
    }

    /// Quits with q, and checks the terminal's modes are as they were before.
    func quit(_ terminal: TerminalSession, status: Int = 0) throws {
        try terminal.press("q")
        try terminal.waitForScreen(containing: "exit=\(status)")
        try terminal.run("cmp before after && echo modes-restored")
        try terminal.waitForScreen(containing: "modes-restored")
    }

    @Test func showsCollectionsNotesInSectionsAndAPreview() throws {
        let terminal = try terminal()
        let screen = try terminal.waitForScreen(containing: "日本語メモ")
        #expect(screen.contains("All notes"))
        #expect(screen.contains("Getting started/ │"))
        #expect(screen.contains("│ (top level)"))
        #expect(screen.contains("│ Recipes/"))
        // The first note is selected and previewed.
        #expect(screen.contains("│ 東京"))
        try terminal.press("j")
        try terminal.waitForScreen(containing: "│ Getting started/Glossary")
        try terminal.press("h", "j", "j")
        try terminal.waitForScreen(containing: "notes  Recipes/")
        try terminal.waitForScreen(containing: "│ Recipes/Soup")
        try quit(terminal)
    }

    /// The preview lists the notes a note links to and those linking to it; Tab takes the
    /// focus to them and Enter goes to the note; a link added elsewhere shows at once.
    @Test func thePreviewListsLinksAndEnterFollowsThem() throws {
        _ = try fixture.add("Index", body: "See [[Glossary]] and [[Nowhere]].")
        let terminal = try terminal()
        try terminal.waitForScreen(containing: "│   → Getting started/Glossary")
        try terminal.waitForScreen(containing: "│   → [[Nowhere]] (nothing)")
        try terminal.press("\t")
        try terminal.press("\r")
        // On Glossary now: its preview lists the note that links to it.
        try terminal.waitForScreen(containing: "│   ← Index:1")
        try terminal.waitForScreen(containing: "│ A glossary of terms.")
        _ = try fixture.add("Later", in: "Recipes", body: "also [[glossary]]")
        try terminal.waitForScreen(containing: "│   ← Recipes/Later:1")
        try terminal.press("l", "j", "\r")
        try terminal.waitForScreen(containing: "│ also [[glossary]]")
        try quit(terminal)
    }

    /// A note saved by another process appears within the deadline, with the selection
    /// kept on the note that was selected.
    @Test func aNoteSavedElsewhereAppearsInPlace() throws {
        let terminal = try terminal()
        try terminal.press("j")
        try terminal.waitForScreen(containing: "│ Getting started/Glossary")
        _ = try fixture.add("Arrived from elsewhere", body: "new")
        let screen = try terminal.waitForScreen(containing: "Arrived from elsewhere")
        #expect(screen.contains("│ Getting started/Glossary"), "the selection moved: \(screen)")
        try fixture.succeed(["rm", "Arrived from elsewhere"])
        try terminal.waitForScreen(within: 15, "the trashed note gone") { !$0.contains("Arrived from elsewhere") }
        try quit(terminal)
    }

    /// A list longer than the rows the browser reads at a time: moves, ends and pages go
    /// through it, a note saved elsewhere appears beside the selection far down, and the
    /// selection follows its note when another process moves it away.
    @Test func aLongListScrollsAndFollowsItsSelection() throws {
        let store = try Store(folder: fixture.store)
        let context = store.makeContext()
        let long = context.insertCollection(named: "Long")
        for number in 1...120 {
            _ = context.insertNote(named: String(format: "note %03d", number), body: "", in: long.id)
        }
        try context.save()
        let terminal = try terminal()
        // 日本語メモ, Glossary, note 001 ... note 120, Soup.
        try terminal.press("G")
        try terminal.waitForScreen(containing: "│ Recipes/Soup")
        try terminal.press("g")
        try terminal.waitForScreen(containing: "│ 東京")
        for _ in 0..<5 { try terminal.press("Space") }
        try terminal.waitForScreen(containing: "│ Long/note 104")
        _ = try fixture.add("note 103a", in: "Long", body: "new")
        let screen = try terminal.waitForScreen(containing: "note 103a")
        #expect(screen.contains("│ Long/note 104"), "the selection moved: \(screen)")
        try fixture.succeed(["mv", "Long/note 104", "--to", "Recipes"])
        try terminal.waitForScreen(containing: "│ Recipes/note 104")
        for _ in 0..<5 { try terminal.press("PageUp") }
        try terminal.waitForScreen(containing: "│ Long/note 0")
        try terminal.press("g")
        try terminal.waitForScreen(containing: "│ 東京")
        // Another order starts at its first row, as the list did.
        try terminal.press("s")
        try terminal.waitForScreen(within: 15, "the newest day first") { screen in
            screen.split(separator: "\n").dropFirst().first?.contains("│ 20") == true
        }
        try terminal.press("s")
        try terminal.waitForScreen(within: 15, "the top level first") { screen in
            screen.split(separator: "\n").dropFirst().first?.contains("│ (top level)") == true
        }
        try quit(terminal)
    }

    @Test func enterEditsInVimAndTheBrowserComesBack() throws {
        let terminal = try terminal()
        try terminal.press("j")
        try terminal.waitForScreen(containing: "│ Getting started/Glossary")
        try terminal.press("Enter")
        try terminal.waitForScreen(containing: "Glossary.md")
        try terminal.waitForRawMode()
        try terminal.type("Goadded in vim")
        try terminal.press("Escape")
        try terminal.run(":wq")
        try terminal.waitForScreen(containing: "│ added in vim")
        #expect(
            try fixture.show("Getting started/Glossary")["body"] as? String == "A glossary of terms.\nadded in vim\n")
        try quit(terminal)
    }

    @Test func keysTrashRestoreTagMoveAndSearch() throws {
        let terminal = try terminal()
        // Search narrows the notes as it is typed.
        try terminal.press("/")
        try terminal.type("sou")
        try terminal.waitForScreen(within: 15, "only Soup listed") {
            !$0.contains("Glossary") && $0.contains("│ Soup")
        }
        try terminal.press("Enter")
        try terminal.press("t")
        try terminal.type("kitchen")
        try terminal.press("Enter")
        try terminal.waitForScreen(containing: "tagged #kitchen")
        try terminal.press("m")
        try terminal.type("Getting started")
        try terminal.press("Enter")
        try terminal.waitForScreen(containing: "moved to 'Getting started'")
        #expect(try fixture.show("Getting started/Soup")["tags"] as? [String] == ["kitchen"])
        try terminal.press("d")
        try terminal.waitForScreen(containing: "'Soup' moved to the trash")
        #expect(try fixture.show("Getting started/Soup")["trashed"] as? Bool == true)
        // The trash lists it; u brings it back.
        try terminal.press("h", "G", "l")
        try terminal.waitForScreen(containing: "notes  Trash")
        try terminal.press("u")
        try terminal.waitForScreen(containing: "'Soup' restored")
        #expect(try fixture.show("Getting started/Soup")["trashed"] as? Bool == false)
        try quit(terminal)
    }

    @Test func aNewNoteIsNamedThenEdited() throws {
        let terminal = try terminal()
        try terminal.press("n")
        try terminal.type("Shopping")
        try terminal.press("Enter")
        try terminal.waitForScreen(containing: "Shopping.md")
        try terminal.waitForRawMode()
        try terminal.type("ieggs")
        try terminal.press("Escape")
        try terminal.run(":wq")
        try terminal.waitForScreen(containing: "│ eggs")
        #expect(try fixture.show("Shopping")["body"] as? String == "eggs\n")
        try quit(terminal)
    }

    /// A resize lays the panes out again; SIGTERM and Ctrl-C leave the terminal as it was.
    @Test func resizesAndSignalsKeepTheTerminalUsable() throws {
        let terminal = try terminal()
        try terminal.resize(width: 60, height: 15)
        try terminal.waitForScreen(within: 15, "a narrower layout") { screen in
            screen.split(separator: "\n").allSatisfy { DisplayColumns.of(String($0)) <= 60 }
                && screen.contains("Getting star…")
        }
        try terminal.press("C-c")
        try terminal.waitForScreen(containing: "exit=0")
        try terminal.run("cmp before after && echo modes-restored")
        try terminal.waitForScreen(containing: "modes-restored")
        try terminal.run("clear; notes browse; echo \"exit=$?\"; stty -g > after")
        try terminal.waitForScreen(containing: "? help")
        let browser = try #require(try terminal.processes(named: "notes").first)
        #expect(kill(browser, SIGTERM) == 0)
        try terminal.waitForScreen(containing: "exit=143")
        try terminal.run("cmp before after && echo modes-restored-again")
        try terminal.waitForScreen(containing: "modes-restored-again")
    }
}
