import Foundation
import NoteTestSupport
import Testing

/// `notes edit` with real editors, typed into at a real terminal (tmux) from an interactive
/// bash, as a person uses them: the editor gets the terminal, the keyboard and its signals,
/// and hands the terminal back; nothing of the note is left outside the store.
@Suite(.serialized) struct TerminalEditorTests {
    let fixture = CommandLineFixture()
    let vim = "vim -u NONE -i NONE -N"

    func terminal(editor: String) throws -> TerminalSession {
        try TerminalSession(environment: [
            "NOTES_STORE": fixture.store.path, "EDITOR": editor, "TMPDIR": fixture.file("tmp").path,
        ])
    }

    func body(_ id: String) throws -> String? {
        try fixture.show(id)["body"] as? String
    }

    /// Nothing of the note is left anywhere: not in the store's private folder, not in the
    /// temporary folder.
    func expectNoCopiesLeft() throws {
        let editing = fixture.store.appendingPathComponent(".editing")
        #expect((try? FileManager.default.contentsOfDirectory(atPath: editing.path)) ?? [] == [])
        #expect((try? FileManager.default.contentsOfDirectory(atPath: fixture.file("tmp").path)) ?? [] == [])
    }

    /// A note named Soup with `body`, and a terminal in which `notes edit Soup` has vim open
    /// and ready for keys.
    func editingSoup(body: String) throws -> (id: String, terminal: TerminalSession) {
        let id = try fixture.add("Soup", body: body)
        try FileManager.default.createDirectory(at: fixture.file("tmp"), withIntermediateDirectories: true)
        let terminal = try terminal(editor: vim)
        try terminal.run("notes edit Soup; echo \"exit=$?\"")
        try terminal.waitForScreen(containing: "Soup.md")
        try terminal.waitForRawMode()
        return (id, terminal)
    }

    /// Vim open on Soup, whose second line another process changes while this one changes
    /// it too and saves: the editor opens again on the conflict.
    func conflictInTheEditor() throws -> (id: String, terminal: TerminalSession, screen: String) {
        let (id, terminal) = try editingSoup(body: "leeks\nsalt\n")
        try fixture.succeed(["edit", id, "--body", "leeks\nsea salt\n"])
        try terminal.type("jccno salt")
        try terminal.press("Escape")
        try terminal.run(":wq")
        return (id, terminal, try terminal.waitForScreen(containing: ">>>>>>> your edit"))
    }

    @Test func vimEditsANoteAndSaves() throws {
        let id = try fixture.add("Soup", body: "leeks\nsalt\n")
        try FileManager.default.createDirectory(at: fixture.file("tmp"), withIntermediateDirectories: true)
        let terminal = try terminal(editor: vim)
        try terminal.run("stty -g > before; notes edit Soup; echo \"exit=$?\"; stty -g > after")
        try terminal.waitForScreen(containing: "Soup.md")
        try terminal.waitForRawMode()
        try terminal.type("Gopepper")
        try terminal.press("Escape")
        try terminal.run(":wq")
        try terminal.waitForScreen(containing: "exit=0")
        #expect(try body(id) == "leeks\nsalt\npepper\n")
        try expectNoCopiesLeft()
        try terminal.run("cmp before after && echo modes-kept")
        try terminal.waitForScreen(containing: "modes-kept")
    }

    @Test func nanoEditsANoteAndSaves() throws {
        let id = try fixture.add("Soup", body: "leeks\nsalt\n")
        try FileManager.default.createDirectory(at: fixture.file("tmp"), withIntermediateDirectories: true)
        let terminal = try terminal(editor: "nano --ignorercfiles")
        try terminal.run("notes edit Soup; echo \"exit=$?\"")
        try terminal.waitForScreen(containing: "Read 2 lines")
        try terminal.waitForRawMode()
        try terminal.press("C-End")
        try terminal.type("pepper")
        try terminal.press("C-o")
        try terminal.waitForScreen(containing: "File Name to Write")
        try terminal.press("Enter")
        try terminal.press("C-x")
        try terminal.waitForScreen(containing: "exit=0")
        #expect(try body(id) == "leeks\nsalt\npepper\n")
        try expectNoCopiesLeft()
    }

    /// Ctrl-C and Ctrl-Z are the editor's: `notes` waits through them, and `fg` brings the
    /// editor back as a shell does any job.
    @Test func controlCAndControlZReachTheEditorNotNotes() throws {
        let id = try fixture.add("Soup", body: "leeks\n")
        try FileManager.default.createDirectory(at: fixture.file("tmp"), withIntermediateDirectories: true)
        let terminal = try terminal(editor: vim)
        try terminal.run("notes edit Soup")
        try terminal.waitForScreen(containing: "Soup.md")
        try terminal.waitForRawMode()
        try terminal.press("C-c")
        // Vim says how to quit, and drops what was typed after the interrupt until then.
        try terminal.waitForScreen(containing: "Type  :qa")
        try terminal.press("C-z")
        try terminal.waitForScreen(containing: "Stopped")
        try terminal.run("fg")
        try terminal.waitForScreen(containing: "leeks")
        try terminal.type("Gochives")
        try terminal.press("Escape")
        try terminal.run(":wq")
        try terminal.waitForPrompt()
        try terminal.run("echo \"exit=$?\"")
        try terminal.waitForScreen(containing: "exit=0")
        #expect(try body(id) == "leeks\nchives\n")
        try expectNoCopiesLeft()
    }

    /// SIGTERM to `notes` while the editor is open waits for the editor: what it writes is
    /// saved, then `notes` ends by the signal, leaving no copy of the text behind.
    @Test func sigtermWhileTheEditorIsOpenSavesWhatItWrites() throws {
        let (id, terminal) = try editingSoup(body: "leeks\n")
        let notes = try #require(try terminal.processes(named: "notes").first)
        #expect(kill(notes, SIGTERM) == 0)
        try terminal.type("Gothyme")
        try terminal.press("Escape")
        try terminal.run(":wq")
        try terminal.waitForScreen(containing: "exit=143")
        #expect(try body(id) == "leeks\nthyme\n")
        try expectNoCopiesLeft()
    }

    /// The same lines changed in another process while the editor was open: the editor opens
    /// again on both versions between conflict markers, and what it ends with is saved.
    @Test func aConflictReopensTheEditorWithMarkers() throws {
        let (id, terminal, screen) = try conflictInTheEditor()
        #expect(screen.contains("<<<<<<< saved elsewhere while you edited"))
        #expect(screen.contains("sea salt"))
        #expect(screen.contains("no salt"))
        // Resolve: keep both, one line each.
        try terminal.type("ggjddjddjdd")
        try terminal.press("Escape")
        try terminal.run(":wq")
        try terminal.waitForScreen(containing: "exit=0")
        #expect(try body(id) == "leeks\nsea salt\nno salt\n")
        try expectNoCopiesLeft()
    }

    /// Leaving the editor without resolving keeps both versions, markers and all, in the note.
    @Test func anUnresolvedConflictIsSavedWithItsMarkers() throws {
        let (id, terminal, _) = try conflictInTheEditor()
        try terminal.run(":q")
        let screen = try terminal.waitForScreen(containing: "exit=0")
        #expect(screen.contains("is saved with conflict markers in it"))
        #expect(
            try body(id) == """
                leeks
                <<<<<<< saved elsewhere while you edited
                sea salt
                =======
                no salt
                >>>>>>> your edit

                """)
    }

    /// `notes add NAME` on a terminal with no body opens the editor, as `git commit` does;
    /// an empty buffer adds nothing.
    @Test func addWithoutABodyOpensTheEditor() throws {
        try FileManager.default.createDirectory(at: fixture.file("tmp"), withIntermediateDirectories: true)
        let terminal = try terminal(editor: vim)
        try terminal.run("notes add Shopping; echo \"exit=$?\"")
        try terminal.waitForScreen(containing: "Shopping.md")
        try terminal.waitForRawMode()
        try terminal.type("ieggs")
        try terminal.press("Escape")
        try terminal.run(":wq")
        try terminal.waitForScreen(containing: "exit=0")
        #expect(try body("Shopping") == "eggs\n")
        try terminal.run("clear; notes add Nothing; echo \"exit=$?\"")
        try terminal.waitForScreen(containing: "Nothing.md")
        try terminal.waitForRawMode()
        try terminal.run(":q")
        let screen = try terminal.waitForScreen(containing: "exit=1")
        #expect(screen.contains("no note added: the body was left empty"))
        #expect(try fixture.list().compactMap { $0["name"] as? String } == ["Shopping"])
        try expectNoCopiesLeft()
    }
}
