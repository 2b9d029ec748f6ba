import Foundation

/// The rows of one pane, the selected row and the first row on screen. The selection stays on
/// the same item when the rows change (by key), and the rows on screen stay where they were
/// when rows come or go above them.
struct PaneState {
    private(set) var rows: [BrowserRow] = []
    private(set) var selected: Int?
    private(set) var top = 0

    var selectedRow: BrowserRow? { selected.map { rows[$0] } }

    /// Replaces the rows, and returns how they changed.
    @discardableResult
    mutating func replaceRows(_ new: [BrowserRow], height: Int) -> RowChanges {
        let changes = RowChanges(from: rows.map(\.key), to: new.map(\.key))
        let oldKey = selectedRow?.key
        let oldPosition = selected ?? 0
        let shift = changes.inserted.filter { $0 < top }.count - changes.removed.filter { $0 < top }.count
        rows = new
        top = max(0, top + shift)
        if let oldKey, let index = new.firstIndex(where: { $0.key == oldKey }) {
            selected = index
        } else {
            selected = nil
            select(near: min(oldPosition, max(0, new.count - 1)))
        }
        scrollToSelection(height: height)
        return changes
    }

    /// Selects the selectable row at `index`, else the next one after it, else before it.
    mutating func select(near index: Int) {
        guard !rows.isEmpty else { return selected = nil }
        let after = rows.indices.filter { $0 >= index && rows[$0].isSelectable }.first
        let before = rows.indices.filter { $0 < index && rows[$0].isSelectable }.last
        selected = after ?? before
    }

    /// Moves the selection by `steps` selectable rows (negative: up), stopping at the ends.
    mutating func move(by steps: Int, height: Int) {
        guard var index = selected else { return select(near: 0) }
        var left = abs(steps)
        while left > 0 {
            let candidates = steps > 0 ? Array(rows.indices.filter { $0 > index }) : rows.indices.filter { $0 < index }.reversed()
            guard let next = candidates.first(where: { rows[$0].isSelectable }) else { break }
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
