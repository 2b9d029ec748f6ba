import Foundation

/// The rows of one pane, the selected row and the first row on screen. The selection stays on
/// the same item when the rows change (by key), and the rows on screen stay where they were
/// when rows come or go above them.
struct PaneState {
    private(set) var rows: [BrowserRow] = []
    private(set) var selected: Int?
    private(set) var top = 0

    var selectedRow: BrowserRow? { selected.map { rows[$0] } }

    /// Replaces the rows, and returns how the rows on screen changed (the diff the screen
    /// needs; the rest of a long list is not compared).
    ///
    /// `anchor`, for rows that are a window of a longer list, is the index in `new` of the
    /// place of the first row on screen, which serves when that row is gone; a selection that
    /// is gone then moves to the row on its line of the screen.
    @discardableResult
    mutating func replaceRows(_ new: [BrowserRow], height: Int, anchor: Int? = nil) -> RowChanges {
        let oldWindow = window(height: height).map(\.key)
        let oldSelectedKey = selectedRow?.key
        let oldTopKey = top < rows.count ? rows[top].key : nil
        let oldPosition = selected ?? 0
        let oldTop = top
        rows = new
        // The first row on screen stays first when it is still there: rows that come or go
        // above it do not scroll the screen.
        top =
            oldTopKey.flatMap { key in new.firstIndex { $0.key == key } } ?? anchor
            ?? min(oldTop, max(0, new.count - 1))
        if let oldSelectedKey, let index = new.firstIndex(where: { $0.key == oldSelectedKey }) {
            selected = index
        } else {
            selected = nil
            let position = anchor == nil ? oldPosition : max(0, top + oldPosition - oldTop)
            select(near: min(position, max(0, new.count - 1)))
        }
        scrollToSelection(height: height)
        return RowChanges(from: oldWindow, to: window(height: height).map(\.key))
    }

    /// The rows on screen.
    func window(height: Int) -> ArraySlice<BrowserRow> {
        rows[min(top, rows.count)..<min(top + max(0, height), rows.count)]
    }

    /// Selects the row with this key, if there is one, and scrolls to it.
    @discardableResult
    mutating func select(key: String, height: Int) -> Bool {
        guard let index = rows.firstIndex(where: { $0.key == key }) else { return false }
        selected = index
        scrollToSelection(height: height)
        return true
    }

    /// Selects the selectable row at `index`, else the next one after it, else before it.
    mutating func select(near index: Int) {
        guard !rows.isEmpty else { return selected = nil }
        let start = max(0, min(index, rows.count - 1))
        if let after = rows[start...].firstIndex(where: \.isSelectable) { return selected = after }
        selected = rows[..<start].lastIndex(where: \.isSelectable)
    }

    /// Moves the selection by `steps` selectable rows (negative: up), stopping at the ends.
    mutating func move(by steps: Int, height: Int) {
        guard var index = selected else { return select(near: 0) }
        var left = abs(steps)
        while left > 0 {
            let next =
                steps > 0
                ? rows[(index + 1)...].firstIndex(where: \.isSelectable)
                : rows[..<index].lastIndex(where: \.isSelectable)
            guard let next else { break }
            index = next
            left -= 1
        }
        selected = index
        scrollToSelection(height: height)
    }

    mutating func selectFirst(height: Int) {
        select(near: 0)
        top = 0
        scrollToSelection(height: height)
    }

    mutating func selectLast(height: Int) {
        select(near: rows.count)
        scrollToSelection(height: height)
    }

    /// Scrolls so that the selected row is on screen (its section heading too, when it fits).
    mutating func scrollToSelection(height: Int) {
        guard height > 0 else { return }
        top = min(top, max(0, rows.count - height))
        guard let selected else { return }
        if selected < top {
            top = selected > 0 && !rows[selected - 1].isSelectable ? selected - 1 : selected
        } else if selected >= top + height {
            top = selected - height + 1
        }
    }
}
