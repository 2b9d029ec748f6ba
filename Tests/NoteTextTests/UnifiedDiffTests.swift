import Foundation
import NoteText
import Testing

/// Expected outputs made with GNU diff 3.8: `diff -u --label a --label b OLD NEW`.
@Suite struct UnifiedDiffTests {
    @Test func equalTextsGiveNothing() {
        #expect(UnifiedDiff.render(old: "a\n", new: "a\n", oldLabel: "a", newLabel: "b").isEmpty)
    }

    @Test func oneChangedLine() {
        let old = (1...10).map { "\($0)\n" }.joined()
        let new = old.replacingOccurrences(of: "5\n", with: "five\n")
        #expect(
            UnifiedDiff.render(old: old, new: new, oldLabel: "a", newLabel: "b") == [
                "--- a", "+++ b", "@@ -2,7 +2,7 @@", " 2", " 3", " 4", "-5", "+five", " 6", " 7", " 8",
            ])
    }

    @Test func insertionIntoEmptyAndMissingFinalBreak() {
        #expect(
            UnifiedDiff.render(old: "", new: "x\ny", oldLabel: "a", newLabel: "b") == [
                "--- a", "+++ b", "@@ -0,0 +1,2 @@", "+x", "+y", "\\ No newline at end of file",
            ])
        #expect(
            UnifiedDiff.render(old: "x\n", new: "", oldLabel: "a", newLabel: "b") == [
                "--- a", "+++ b", "@@ -1 +0,0 @@", "-x",
            ])
    }

    @Test func distantChangesMakeTwoHunks() {
        let old = (1...20).map { "\($0)\n" }.joined()
        let new = (1...20).map { $0 == 2 ? "two\n" : $0 == 19 ? "nineteen\n" : "\($0)\n" }.joined()
        #expect(
            UnifiedDiff.render(old: old, new: new, oldLabel: "a", newLabel: "b") == [
                "--- a", "+++ b", "@@ -1,5 +1,5 @@", " 1", "-2", "+two", " 3", " 4", " 5",
                "@@ -16,5 +16,5 @@", " 16", " 17", " 18", "-19", "+nineteen", " 20",
            ])
    }
}
