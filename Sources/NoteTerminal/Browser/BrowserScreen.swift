import CNCurses
import Foundation

/// The browser's screen through ncursesw: panes of rows, a title, a status line. Every text
/// from the store is escaped (``TerminalText``) and cut to its column by display width.
/// ncurses keeps a copy of the screen and sends the terminal only the cells that changed,
/// so drawing everything again after a change neither flickers nor redraws the terminal.
enum BrowserScreen {
    struct Layout {
        let height: Int
        let width: Int
        var listHeight: Int { max(1, height - 2) }
        var placesWidth: Int { width >= 60 ? max(16, width / 4) : width / 3 }
        var notesWidth: Int { width >= 60 ? (width - placesWidth) * 9 / 20 : width - placesWidth - 1 }
        var previewX: Int { placesWidth + 1 + notesWidth + 1 }
        var previewWidth: Int { width >= 60 ? max(0, width - previewX) : 0 }
    }

    static var layout: Layout { Layout(height: Int(notes_lines()), width: Int(notes_columns())) }

    /// `text` at (`y`, `x`), escaped, cut or padded to `width` columns.
    static func put(_ y: Int, _ x: Int, _ text: String, width: Int, attributes: Int32 = 0) {
        guard width > 0, y >= 0 else { return }
        let safe = DisplayWidth.truncated(TerminalText.escaped(text, keepingLayout: false), to: width)
        let padded = safe + String(repeating: " ", count: max(0, width - DisplayWidth.of(safe)))
        if attributes != 0 { attron(attributes) }
        mvaddstr(Int32(y), Int32(x), padded)
        if attributes != 0 { attroff(attributes) }
    }

    /// A pane of rows at column `x`, `width` wide, from its first row on screen; the selected
    /// row is in reverse video, bold when the pane has the focus.
    static func drawPane(_ pane: PaneState, x: Int, width: Int, focused: Bool, layout: Layout) {
        for line in 0..<layout.listHeight {
            let index = pane.top + line
            guard index < pane.rows.count else {
                put(1 + line, x, "", width: width)
                continue
            }
            let row = pane.rows[index]
            var attributes: Int32 = 0
            if !row.isSelectable { attributes = notes_attr_bold() | notes_attr_underline() }
            if index == pane.selected { attributes = notes_attr_reverse() | (focused ? notes_attr_bold() : 0) }
            let indent = String(repeating: "  ", count: row.depth)
            put(1 + line, x, " " + indent + row.text, width: width, attributes: attributes)
        }
    }

    static func drawSeparators(layout: Layout) {
        for line in 0..<layout.listHeight {
            mvaddstr(Int32(1 + line), Int32(layout.placesWidth), "│")
            if layout.previewWidth > 0 { mvaddstr(Int32(1 + line), Int32(layout.previewX - 1), "│") }
        }
    }

    /// The preview's lines, cut to the pane's height.
    static func drawPreview(_ lines: [(text: String, attributes: Int32)], layout: Layout) {
        guard layout.previewWidth > 0 else { return }
        for line in 0..<layout.listHeight {
            let entry = line < lines.count ? lines[line] : (text: "", attributes: 0)
            put(1 + line, layout.previewX, " " + entry.text, width: layout.previewWidth, attributes: entry.attributes)
        }
    }

    static let help = [
        "j k  ↓ ↑    move            Enter  edit the note in $EDITOR",
        "h l  ← →    collections / notes / links  Tab  switch pane",
        "Enter on a link: go to its note",
        "g G         first / last    /      search names as you type",
        "n           new note        t      tag the note",
        "m           move the note   d      move it to the trash",
        "u           restore it from the trash",
        "s           sort by name / by day   ?  this help   q  quit",
    ]

    /// The keys, in a box over the panes, until a key is pressed.
    static func drawHelp(layout: Layout) {
        let width = min(layout.width - 2, 66)
        let x = max(0, (layout.width - width) / 2)
        let y = max(1, (layout.height - help.count - 2) / 2)
        put(
            y, x, "─ keys " + String(repeating: "─", count: max(0, width - 7)), width: width,
            attributes: notes_attr_reverse())
        for (offset, line) in help.enumerated() { put(y + 1 + offset, x, " " + line, width: width) }
        put(y + 1 + help.count, x, " press a key", width: width, attributes: notes_attr_reverse())
    }
}
