import NoteText
import Testing

@Suite struct ThreeWayMergeTests {
    let base = "one\ntwo\nthree\nfour\nfive\n"

    @Test func oneSideChangedTakesThatSide() {
        let changed = "one\nTWO\nthree\nfour\nfive\n"
        #expect(
            ThreeWayMerge.merge(base: base, older: base, newer: changed) == MergeResult(text: changed, conflicts: 0))
        #expect(
            ThreeWayMerge.merge(base: base, older: changed, newer: base) == MergeResult(text: changed, conflicts: 0))
        #expect(
            ThreeWayMerge.merge(base: base, older: changed, newer: changed) == MergeResult(text: changed, conflicts: 0))
    }

    @Test func firstAndLastLinesMerge() {
        let result = ThreeWayMerge.merge(
            base: base, older: "ONE\ntwo\nthree\nfour\nfive\n", newer: "one\ntwo\nthree\nfour\nFIVE\n")
        #expect(result == MergeResult(text: "ONE\ntwo\nthree\nfour\nFIVE\n", conflicts: 0))
    }

    @Test func sameLineConflictsAndNewerWins() {
        let result = ThreeWayMerge.merge(
            base: base, older: "one\ntwo\n3\nfour\nfive\n", newer: "one\ntwo\nTHREE\nfour\nfive\n")
        #expect(result == MergeResult(text: "one\ntwo\nTHREE\nfour\nfive\n", conflicts: 1))
    }

    @Test func markingConflictsKeepsBothSidesBetweenMarkers() {
        let result = ThreeWayMerge.markingConflicts(
            base: base, older: "ONE\ntwo\n3\nfour\nfive\n", newer: "one\ntwo\nTHREE\nfour\nfive\n",
            olderLabel: "theirs", newerLabel: "yours")
        #expect(result.conflicts == 1)
        #expect(result.text == "ONE\ntwo\n<<<<<<< theirs\n3\n=======\nTHREE\n>>>>>>> yours\nfour\nfive\n")
    }

    @Test func markingConflictsEndsALastLineWithoutABreakBeforeTheMarker() {
        let result = ThreeWayMerge.markingConflicts(
            base: "a\nb", older: "a\nB", newer: "a\nb2", olderLabel: "theirs", newerLabel: "yours")
        #expect(result.text == "a\n<<<<<<< theirs\nB\n=======\nb2\n>>>>>>> yours\n")
    }

    @Test func sameChangeOnBothSidesIsNoConflict() {
        let result = ThreeWayMerge.merge(
            base: base, older: "one\ntwo\nTHREE\nfour\nfive\nsix\n", newer: "one\ntwo\nTHREE\nfour\nfive\n")
        #expect(result.conflicts == 0)
        #expect(result.text == "one\ntwo\nTHREE\nfour\nfive\nsix\n")
    }

    @Test func withoutFinalLineBreak() {
        let base = "a\nb\nc\nd\ne"
        let result = ThreeWayMerge.merge(base: base, older: "A\nb\nc\nd\ne", newer: "a\nb\nc\nd\nE")
        #expect(result == MergeResult(text: "A\nb\nc\nd\nE", conflicts: 0))
    }

    @Test func emptyBase() {
        #expect(ThreeWayMerge.merge(base: "", older: "x\n", newer: "y\n") == MergeResult(text: "y\n", conflicts: 1))
        #expect(ThreeWayMerge.merge(base: "", older: "", newer: "y\n") == MergeResult(text: "y\n", conflicts: 0))
        #expect(ThreeWayMerge.merge(base: "", older: "x\n", newer: "") == MergeResult(text: "x\n", conflicts: 0))
    }

    @Test func deletionAndFarEditMerge() {
        let result = ThreeWayMerge.merge(
            base: base, older: "one\nthree\nfour\nfive\n", newer: "one\ntwo\nthree\nfour\nFIVE\n")
        #expect(result == MergeResult(text: "one\nthree\nfour\nFIVE\n", conflicts: 0))
    }

    @Test func insertionsAtOnePlaceConflict() {
        let result = ThreeWayMerge.merge(base: base, older: base + "six\n", newer: base + "seven\n")
        #expect(result == MergeResult(text: base + "seven\n", conflicts: 1))
    }

    @Test func longTextsKeepBothEdits() {
        let lines = (0..<3000).map { "line \($0) of a long note with some words\n" }
        let base = lines.joined()
        var older = lines
        older[10] = "changed near the start\n"
        var newer = lines
        newer[2900] = "changed near the end\n"
        let result = ThreeWayMerge.merge(base: base, older: older.joined(), newer: newer.joined())
        #expect(result.conflicts == 0)
        #expect(result.text.contains("changed near the start") && result.text.contains("changed near the end"))
        #expect(TextLines.split(result.text).count == 3000)
    }
}
