import Foundation
import Testing

@testable import NoteTerminal

/// The rows of a pane as the store changes under them: the selection stays on its item, and
/// the rows on screen stay where they were when rows come or go above them.
@Suite struct PaneStateTests {
    func rows(_ keys: [String]) -> [BrowserRow] {
        keys.map { key in
            key.hasPrefix("#")
                ? BrowserRow.section(String(key.dropFirst()))
                : BrowserRow(key: key, text: key, depth: 0, item: nil, place: .everything)
        }
    }

    @Test func theSelectionFollowsItsItemWhenRowsComeAbove() {
        var pane = PaneState()
        pane.replaceRows(rows(["#A", "a1", "a2", "a3"]), height: 10)
        pane.move(by: 2, height: 10)
        #expect(pane.selectedRow?.key == "a3")
        pane.replaceRows(rows(["#A", "a0", "a1", "a2", "a3"]), height: 10)
        #expect(pane.selectedRow?.key == "a3")
        #expect(pane.selected == 4)
    }

    @Test func aRemovedSelectionMovesToTheRowInItsPlaceSkippingHeadings() {
        var pane = PaneState()
        pane.replaceRows(rows(["#A", "a1", "#B", "b1", "b2"]), height: 10)
        pane.move(by: 1, height: 10)
        #expect(pane.selectedRow?.key == "b1")
        pane.replaceRows(rows(["#A", "a1", "#B", "b2"]), height: 10)
        #expect(pane.selectedRow?.key == "b2")
        pane.replaceRows(rows(["#A", "a1"]), height: 10)
        #expect(pane.selectedRow?.key == "a1")
        pane.replaceRows([], height: 10)
        #expect(pane.selectedRow == nil)
    }

    @Test func rowsComingAboveTheScreenDoNotScrollIt() {
        var pane = PaneState()
        let many = (0..<50).map { String(format: "n%02d", $0) }
        pane.replaceRows(rows(many), height: 10)
        pane.move(by: 30, height: 10)
        let first = pane.window(height: 10).first?.key
        let changes = pane.replaceRows(rows(["m00", "m01"] + many), height: 10)
        #expect(pane.window(height: 10).first?.key == first)
        #expect(pane.selectedRow?.key == "n30")
        #expect(changes.isEmpty)
    }

    @Test func movingStopsAtTheEndsAndScrolls() {
        var pane = PaneState()
        pane.replaceRows(rows(["#A"] + (0..<20).map { "a\($0)" }), height: 5)
        pane.move(by: -3, height: 5)
        #expect(pane.selectedRow?.key == "a0")
        pane.move(by: 100, height: 5)
        #expect(pane.selectedRow?.key == "a19")
        #expect(pane.window(height: 5).last?.key == "a19")
        pane.selectFirst(height: 5)
        #expect(pane.window(height: 5).first?.key == "section:A")
    }

    @Test func changesNameInsertedRemovedAndMovedRows() {
        let changes = RowChanges(from: ["a", "b", "c", "d"], to: ["b", "a", "d", "e"])
        #expect(changes.removed == [2])
        #expect(changes.inserted == [3])
        #expect(changes.moved.map(\.from) == [1, 0])
        #expect(RowChanges(from: ["a", "b"], to: ["a", "b"]).isEmpty)
    }
}

@Suite struct DisplayWidthTests {
    @Test func wideAndCombiningCharactersCount() {
        #expect(DisplayWidth.of("abc") == 3)
        #expect(DisplayWidth.of("日本語") == 6)
        #expect(DisplayWidth.of("e\u{301}") == 1)
        #expect(DisplayWidth.of("☕") == 2)
    }

    @Test func truncationNeverSplitsAWideCharacter() {
        #expect(DisplayWidth.truncated("abcdef", to: 4) == "abc…")
        #expect(DisplayWidth.truncated("abc", to: 3) == "abc")
        #expect(DisplayWidth.truncated("日本語メモ", to: 6) == "日本…")
        #expect(DisplayWidth.of(DisplayWidth.truncated("日本語メモ", to: 6)) <= 6)
        #expect(DisplayWidth.truncated("abc", to: 0) == "")
    }

    @Test func previewLinesWrapAtSpaces() {
        #expect(BrowserPreview.wrapped("one two three", width: 8) == ["one two", "three"])
        #expect(BrowserPreview.wrapped("abcdefghij", width: 4) == ["abcd", "efgh", "ij"])
    }

    @Test func thePickersListMatchesLettersInOrder() {
        #expect(ListPicker.matches(Array("gls"), "getting started/glossary"))
        #expect(!ListPicker.matches(Array("zz"), "getting started/glossary"))
    }
}
