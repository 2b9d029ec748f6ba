import CNCurses
import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// The terminal of the process, `/dev/tty`, whatever standard input and output are.
enum TerminalDevice {
    static var isAvailable: Bool {
        let descriptor = open("/dev/tty", O_RDWR | O_CLOEXEC)
        guard descriptor >= 0 else { return false }
        close(descriptor)
        return true
    }
}

/// The picker without fzf: the browser's list on `/dev/tty`, narrowed as the query is typed
/// (the letters of the query in order, ignoring case, as fzf matches).
final class ListPicker {
    let candidates: [PickerCandidate]
    var query: String
    let prompt: String
    var list = PaneState()

    init(candidates: [PickerCandidate], query: String, prompt: String) {
        self.candidates = candidates
        self.query = query
        self.prompt = prompt
    }

    func run() throws -> PickerCandidate? {
        setlocale(LC_ALL, "")
        guard let tty = fopen("/dev/tty", "r+") else { throw TerminalError.notATerminal("the picker") }
        defer { fclose(tty) }
        guard let screen = newterm(nil, tty, tty) else { throw TerminalError.notATerminal("the picker") }
        set_term(screen)
        defer {
            endwin()
            delscreen(screen)
        }
        raw()
        noecho()
        keypad(notes_screen(), true)
        narrow()
        while true {
            draw()
            var character: wint_t = 0
            let result = wget_wch(notes_screen(), &character)
            if result == ERR { continue }
            let height = Int(notes_lines()) - 1
            if result == KEY_CODE_YES {
                switch Int32(character) {
                case KEY_UP: list.move(by: -1, height: height)
                case KEY_DOWN: list.move(by: 1, height: height)
                case KEY_BACKSPACE:
                    if !query.isEmpty { query.removeLast() }
                    narrow()
                case KEY_ENTER: return chosen
                default: break
                }
                continue
            }
            switch character {
            case 0x0A, 0x0D: return chosen
            case 0x1B, 0x03, 0x07: return nil
            case 0x10: list.move(by: -1, height: height)
            case 0x0E: list.move(by: 1, height: height)
            case 0x7F, 0x08:
                if !query.isEmpty { query.removeLast() }
                narrow()
            default:
                if character >= 0x20, let scalar = Unicode.Scalar(UInt32(character)) {
                    query.unicodeScalars.append(scalar)
                    narrow()
                }
            }
        }
    }

    private var chosen: PickerCandidate? {
        list.selectedRow.flatMap { row in candidates.first { $0.id.uuidString == row.key } }
    }

    private func narrow() {
        let wanted = Array(query.lowercased())
        let rows = candidates.filter { Self.matches(wanted, $0.line.lowercased()) }.map {
            BrowserRow(key: $0.id.uuidString, text: $0.line, depth: 0, item: nil, place: .everything)
        }
        list = PaneState()
        list.replaceRows(rows, height: Int(notes_lines()) - 1)
    }

    /// Whether the letters of `wanted` appear in `line` in order.
    static func matches(_ wanted: [Character], _ line: String) -> Bool {
        var rest = wanted[...]
        for character in line where character == rest.first { rest = rest.dropFirst() }
        return rest.isEmpty
    }

    private func draw() {
        let layout = BrowserScreen.layout
        BrowserScreen.drawPane(list, x: 0, width: layout.width, focused: true, layout: layout)
        BrowserScreen.put(layout.height - 1, 0, "", width: layout.width)
        let line = "\(prompt)\(query)"
        BrowserScreen.put(
            0, 0, line + "   (\(list.rows.count) of \(candidates.count))", width: layout.width,
            attributes: notes_attr_bold())
        CNCurses.move(0, Int32(min(DisplayWidth.of(line), layout.width - 1)))
        refresh()
    }
}
