import CNCurses
import Foundation
import NoteStore

extension Browser {
    /// Acts on a key; false when the browser is to end.
    func handle(_ key: Key) throws -> Bool {
        let height = BrowserScreen.layout.listHeight
        if showsHelp {
            showsHelp = false
            return true
        }
        status = ""
        switch key {
        case .character("q"), .character("\u{3}"), .character("\u{4}"): return false
        case .character("j"), .code(Int32(KEY_DOWN)): try move(by: 1, height: height)
        case .character("k"), .code(Int32(KEY_UP)): try move(by: -1, height: height)
        case .code(Int32(KEY_NPAGE)), .character(" "): try move(by: height - 1, height: height)
        case .code(Int32(KEY_PPAGE)): try move(by: -(height - 1), height: height)
        case .character("g"), .code(Int32(KEY_HOME)):
            if focus == .places {
                places.selectFirst(height: height); try reload()
            } else {
                try selectNotesEnd(last: false, height: height)
            }
        case .character("G"), .code(Int32(KEY_END)):
            if focus == .places {
                places.selectLast(height: height); try reload()
            } else {
                try selectNotesEnd(last: true, height: height)
            }
        case .character("h"), .code(Int32(KEY_LEFT)): focus = focus == .links ? .notes : .places
        case .character("l"), .code(Int32(KEY_RIGHT)):
            focus = focus == .places || preview.links.isEmpty ? .notes : .links
        case .character("\t"):
            switch focus {
            case .places: focus = .notes
            case .notes: focus = preview.links.isEmpty ? .places : .links
            case .links: focus = .places
            }
        case .character("\u{1B}") where focus == .links: focus = .notes
        case .character("\n"), .character("\r"), .code(Int32(KEY_ENTER)):
            switch focus {
            case .places: focus = .notes
            case .notes: if let note = notes.selectedRow?.item { try edit(note) }
            case .links: try follow(height: height)
            }
        case .character("/"): try search()
        case .character("s"):
            order = order == .byCollection ? .byDay : .byCollection
            try reload()
        case .character("?"): showsHelp = true
        case .character("n"): try newNote()
        case .character("t"): try tagNote()
        case .character("m"): try moveNote()
        case .character("d"): try perform("moved to the trash") { try store.trash($0.id) }
        case .character("u"): try perform("restored") { try store.restore($0.id) }
        case .code(Int32(KEY_RESIZE)):
            notes.scrollToSelection(height: height)
            places.scrollToSelection(height: height)
            try reload()
            clear()
        default: break
        }
        if preview.note?.id != notes.selectedRow?.item?.id {
            preview = BrowserPreview.load(notes.selectedRow?.item, store: store)
        }
        preview.chosen = focus == .links ? min(preview.chosen ?? 0, max(0, preview.links.count - 1)) : nil
        return true
    }

    /// Selects the note of the link entry chosen in the preview: in the place shown when it
    /// is listed there, else in All notes.
    private func follow(height: Int) throws {
        guard let chosen = preview.chosen, chosen < preview.links.count else { return }
        guard let id = preview.links[chosen].note, let target = try? store.item(id, includingBody: false) else {
            return status = "this link reaches no note"
        }
        focus = .notes
        try selectNote(target, height: height)
        if notes.selectedRow?.item?.id != id {
            places.selectFirst(height: height)
            try reload()
            try selectNote(target, height: height)
        }
        if notes.selectedRow?.item?.id != id { status = "'\(target.name)' is not listed here" }
        preview = BrowserPreview.load(notes.selectedRow?.item, store: store)
    }

    private func move(by steps: Int, height: Int) throws {
        if focus == .links {
            guard !preview.links.isEmpty else { return }
            preview.chosen = max(0, min(preview.links.count - 1, (preview.chosen ?? 0) + (steps > 0 ? 1 : -1)))
            return
        }
        if focus == .places {
            places.move(by: steps, height: height)
            notes = PaneState()
            try reload()
        } else {
            try moveNotes(by: steps, height: height)
        }
    }

    /// Runs `change` on the selected note and says what happened in the status line; a
    /// refusal of the store is said there too, on one line.
    private func perform(_ done: String, _ change: (Item) throws -> Int) throws {
        guard let note = notes.selectedRow?.item else { return status = "no note is selected" }
        do {
            _ = try change(note)
            status = "'\(note.name)' \(done)"
        } catch {
            status = String(describing: error)
        }
        try reload()
    }

    private func edit(_ note: Item) throws {
        def_prog_mode()
        endwin()
        do {
            try actions.edit(note)
        } catch {
            status = String(describing: error)
        }
        reset_prog_mode()
        refresh()
        try reload()
    }

    /// `/`: the notes whose name contains what is typed, narrowed at each key; Enter keeps the
    /// filter, Escape drops it.
    private func search() throws {
        let before = filter
        let typed = try prompt("/", initial: filter) { text in
            self.filter = text
            try self.reload()
        }
        filter = typed ?? before
        try reload()
    }

    private func newNote() throws {
        guard let name = try prompt("new note: "), !name.isEmpty else { return }
        let parent: UUID? = if case let .collection(id) = place { id } else { nil }
        do {
            let note = try store.addNote(named: name, body: "", in: parent)
            try reload()
            try selectNote(note, height: BrowserScreen.layout.listHeight)
            focus = .notes
            try edit(note)
        } catch {
            status = String(describing: error)
        }
    }

    private func tagNote() throws {
        guard notes.selectedRow?.item != nil, let tag = try prompt("tag: "), !tag.isEmpty else { return }
        try perform("tagged #\(tag)") { try store.tag($0.id, with: [tag]).count }
    }

    private func moveNote() throws {
        guard notes.selectedRow?.item != nil,
            let target = try prompt("move to collection (empty: the top level): ")
        else { return }
        try perform(target.isEmpty ? "moved to the top level" : "moved to '\(target)'") { note in
            let parent = try target.isEmpty ? nil : store.resolve(target).id
            try store.move(note.id, to: parent)
            return 1
        }
    }

    /// Reads a line in the status line: Enter returns it, Escape returns nil. `onChange`
    /// runs after each key, for what follows the text as it is typed.
    func prompt(_ label: String, initial: String = "", onChange: ((String) throws -> Void)? = nil) throws -> String? {
        var text = initial
        curs_set(1)
        defer { curs_set(0) }
        while true {
            status = label + text
            draw()
            CNCurses.move(
                Int32(BrowserScreen.layout.height - 1),
                Int32(min(DisplayWidth.of(status), BrowserScreen.layout.width - 1)))
            refresh()
            var waiting = true
            while waiting {
                guard let key = readKey() else {
                    _ = waitForKey()
                    continue
                }
                waiting = false
                switch key {
                case .character("\n"), .character("\r"), .code(Int32(KEY_ENTER)):
                    status = ""
                    return text
                case .character("\u{1B}"), .character("\u{3}"), .character("\u{7}"):
                    status = ""
                    return nil
                case .character("\u{7F}"), .character("\u{8}"), .code(Int32(KEY_BACKSPACE)):
                    if !text.isEmpty { text.removeLast() }
                case let .character(character)
                where !character.isNewline && character.unicodeScalars.allSatisfy({ $0.value >= 0x20 }):
                    text.append(character)
                default:
                    continue
                }
                try onChange?(text)
            }
        }
    }

    private func waitForKey() -> Bool {
        var descriptor = pollfd(fd: STDIN_FILENO, events: Int16(POLLIN), revents: 0)
        return poll(&descriptor, 1, -1) > 0
    }
}
