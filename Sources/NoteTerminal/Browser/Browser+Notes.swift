import Foundation
import NoteStore

extension Browser {
    /// Rows read beyond what a move or the screen needs, each way, so that most moves find
    /// their rows loaded.
    static let notesMargin = 20

    /// Reads the notes from the first row on screen on again (and a screen before it), keeping
    /// the selection on its note wherever the note is listed now.
    func reloadNotes(height: Int) throws {
        guard let noteList else { return }
        let selected = notes.selectedRow?.item
        let window = try noteList.window(
            at: topAnchor, before: height + Self.notesMargin, after: 2 * height + Self.notesMargin)
        show(window, height: height)
        guard let selected, notes.selectedRow?.item?.id != selected.id,
            let now = try? store.item(selected.id, includingBody: false)
        else { return }
        // The selected note is listed elsewhere now (renamed, or many notes came before it):
        // the screen follows it, when it is still listed.
        let around = try noteList.window(
            at: .note(now), before: height + Self.notesMargin, after: height + Self.notesMargin)
        guard around.rows.contains(where: { $0.key == selected.id.storeString }) else { return }
        show(around, height: height)
        notes.select(key: selected.id.storeString, height: height)
    }

    /// Moves the selection in the notes pane by `steps` selectable rows, reading the rows it
    /// goes to first when the pane does not hold them.
    func moveNotes(by steps: Int, height: Int) throws {
        if let noteList, let selected = notes.selected, let note = notes.selectedRow?.item {
            let needed = abs(steps) + height
            let short =
                steps > 0
                ? !notesReachEnd && notes.rows.count - 1 - selected < needed
                : !notesReachStart && selected < needed
            if short {
                show(
                    try noteList.window(
                        at: .note(note), before: needed + Self.notesMargin, after: needed + Self.notesMargin),
                    height: height)
                notes.select(key: note.id.storeString, height: height)
            }
        }
        notes.move(by: steps, height: height)
    }

    /// Shows the first notes of the list (`g`) or its last ones (`G`), and selects the first
    /// or the last.
    func selectNotesEnd(last: Bool, height: Int) throws {
        guard let noteList else { return }
        let margin = 2 * height + Self.notesMargin
        show(
            try noteList.window(at: last ? .end : .start, before: last ? margin : 0, after: last ? 0 : margin),
            height: height)
        if last { notes.selectLast(height: height) } else { notes.selectFirst(height: height) }
    }

    /// Shows the rows around a note and selects it, when it is listed.
    func selectNote(_ note: Item, height: Int) throws {
        guard let noteList else { return }
        show(
            try noteList.window(at: .note(note), before: height + Self.notesMargin, after: height + Self.notesMargin),
            height: height)
        notes.select(key: note.id.storeString, height: height)
    }

    private func show(_ window: NoteList.Window, height: Int) {
        notes.replaceRows(window.rows, height: height, anchor: window.anchor)
        notesReachStart = window.reachesStart
        notesReachEnd = window.reachesEnd
    }

    /// Where the screen starts: the list's start when it shows the first row (rows that come
    /// before it, or another order or filter, start there too), else the note of the first row
    /// on screen, or the note under it when that row is a heading.
    private var topAnchor: NoteList.Anchor {
        guard notes.top > 0 || !notesReachStart, notes.top < notes.rows.count,
            let note = notes.rows[notes.top...].lazy.compactMap(\.item).first
        else { return .start }
        return .note(note)
    }
}
