import CNCurses
import CTerminal
import Foundation
import NoteStore

#if canImport(Glibc)
    import Glibc
#endif

/// `notes browse`: the collections, the notes of the selected one in sections, and a preview of
/// the selected note, kept in step with the store as a fetched results controller keeps a
/// table view: the store's observation of commits (by this process, another one, or an
/// import of sync) wakes the loop, which loads the rows on screen again and applies them as
/// changes, keeping the selection on the same item. The notes pane holds a window of its list
/// (``NoteList``), read again on every change and when a move goes past it.
public final class Browser {
    /// What the browser asks of the command that opened it.
    public struct Actions {
        /// Edits a note in the person's editor; the terminal is the editor's meanwhile.
        public var edit: (Item) throws -> Void
        public init(edit: @escaping (Item) throws -> Void) { self.edit = edit }
    }

    enum Focus { case places, notes, links }

    let store: Store
    let actions: Actions
    var places = PaneState()
    var notes = PaneState()
    var focus = Focus.notes
    var order = NoteList.Order.byCollection
    /// The notes of the place shown, as of the last load, and whether the notes pane's rows
    /// run to the list's ends.
    var noteList: NoteList?
    var notesReachStart = true
    var notesReachEnd = true
    var filter = ""
    var status = ""
    var showsHelp = false
    var preview = BrowserPreview()
    private let wake = WakePipe()

    public init(store: Store, actions: Actions) {
        self.store = store
        self.actions = actions
    }

    var place: BrowserPlace { places.selectedRow?.place ?? .everything }

    /// Runs until `q`; the terminal is as it was when it returns, or when the process ends
    /// by a signal or a crash meanwhile.
    public func run() throws {
        guard isatty(STDIN_FILENO) == 1, isatty(STDOUT_FILENO) == 1 else {
            throw TerminalError.notATerminal("the browser")
        }
        setlocale(LC_ALL, "")
        _ = notes_guard_terminal()
        defer { notes_release_terminal() }
        initscr()
        defer { endwin() }
        raw()
        noecho()
        keypad(notes_screen(), true)
        curs_set(0)
        nodelay(notes_screen(), true)
        // A check of the store's data version is one small query: 100 a second costs nothing.
        let observation = try store.observeCommits(every: 0.01) { [wake] in wake.signal() }
        defer { observation.cancel() }
        try reload()
        places.select(near: 0)
        draw()
        while true {
            switch wake.waitForInputOrSignal() {
            case .changed:
                try reload()
            case .input:
                while let key = readKey() {
                    if try !handle(key) { return }
                }
            }
            draw()
        }
    }

    /// Loads the places and the notes on screen again and applies them to the panes; the
    /// preview follows the selection.
    func reload() throws {
        let height = BrowserScreen.layout.listHeight
        let index = try store.collectionIndex()
        // The place shown may be gone (a collection removed elsewhere): the one selected now.
        places.replaceRows(try PlaceList.load(from: store), height: height)
        noteList = NoteList(store: store, index: index, place: place, order: order, filter: filter)
        try reloadNotes(height: height)
        let chosen = preview.chosen
        preview = BrowserPreview.load(notes.selectedRow?.item, store: store)
        if focus == .links {
            if preview.links.isEmpty {
                focus = .notes
            } else {
                preview.chosen = min(chosen ?? 0, preview.links.count - 1)
            }
        }
    }

    func draw() {
        let layout = BrowserScreen.layout
        let title = " notes  \(placeTitle)\(filter.isEmpty ? "" : "  /\(filter)")"
        BrowserScreen.put(0, 0, title + "   ? help  q quit", width: layout.width, attributes: notes_attr_reverse())
        BrowserScreen.drawPane(places, x: 0, width: layout.placesWidth, focused: focus == .places, layout: layout)
        BrowserScreen.drawPane(
            notes, x: layout.placesWidth + 1, width: layout.notesWidth, focused: focus == .notes, layout: layout)
        BrowserScreen.drawSeparators(layout: layout)
        BrowserScreen.drawPreview(preview.lines(width: layout.previewWidth - 1), layout: layout)
        BrowserScreen.put(layout.height - 1, 0, status, width: layout.width)
        if showsHelp { BrowserScreen.drawHelp(layout: layout) }
        refresh()
    }

    private var placeTitle: String {
        switch place {
        case .everything: "All notes"
        case .trash: "Trash"
        case .collection: places.selectedRow?.text ?? ""
        }
    }

    /// The next key typed, or nil when none is waiting: a character, or one of ncurses' key
    /// codes (arrows, resize).
    func readKey() -> Key? {
        var character: wint_t = 0
        let result = wget_wch(notes_screen(), &character)
        if result == ERR { return nil }
        if result == KEY_CODE_YES { return .code(Int32(character)) }
        return Unicode.Scalar(UInt32(character)).map { .character(Character($0)) }
    }

    enum Key: Equatable {
        case character(Character)
        case code(Int32)
    }
}
