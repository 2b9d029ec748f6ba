import NoteTestSupport
import NoteText
import Testing

@Suite struct LineDiffTests {
    @Test func linesKeepTheirBreaks() {
        #expect(TextLines.split("") == [])
        #expect(TextLines.split("a") == ["a"])
        #expect(TextLines.split("a\nb\n") == ["a\n", "b\n"])
        #expect(TextLines.split("a\n\nb") == ["a\n", "\n", "b"])
        #expect(TextLines.split("é\nü").joined() == "é\nü")
    }

    @Test func hunksOfSmallEdits() {
        #expect(LineDiff.hunks(from: "a\nb\nc\n", to: "a\nb\nc\n") == [])
        #expect(LineDiff.hunks(from: "a\nb\nc\n", to: "a\nB\nc\n") == [LineHunk(old: 1..<2, new: 1..<2)])
        #expect(LineDiff.hunks(from: "a\nc\n", to: "a\nb\nc\n") == [LineHunk(old: 1..<1, new: 1..<2)])
        #expect(LineDiff.hunks(from: "a\nb\nc\n", to: "a\nc\n") == [LineHunk(old: 1..<2, new: 1..<1)])
        #expect(
            LineDiff.hunks(from: "a\nb\nc\nd\n", to: "x\nb\nc\ny\n") == [
                LineHunk(old: 0..<1, new: 0..<1), LineHunk(old: 3..<4, new: 3..<4),
            ])
    }

    @Test func hunksRebuildTheNewText() {
        var random = SplitMix64(seed: 7)
        for _ in 0..<300 {
            let old = RandomText.lines(&random, count: Int(random.next() % 30))
            let new = RandomText.edit(old, &random)
            let a = TextLines.split(old.joined())
            let b = TextLines.split(new.joined())
            var rebuilt: [Substring] = []
            var position = 0
            for hunk in LineDiff.hunks(from: a, to: b) {
                #expect(!(hunk.old.isEmpty && hunk.new.isEmpty))
                #expect(hunk.old.lowerBound >= position)
                rebuilt += a[position..<hunk.old.lowerBound]
                rebuilt += b[hunk.new]
                position = hunk.old.upperBound
            }
            rebuilt += a[position...]
            #expect(rebuilt == b)
        }
    }

    @Test func unrelatedTextsPastTheLimitGiveOneHunk() {
        let old = (0..<3000).map { "old \($0)\n" }.joined()
        let new = (0..<3000).map { "new \($0)\n" }.joined()
        #expect(LineDiff.hunks(from: old, to: new) == [LineHunk(old: 0..<3000, new: 0..<3000)])
    }
}

enum RandomText {
    static let words = ["apple", "pear", "leek", "salt", "", "soup", "bread", "é", "milk"]

    static func lines(_ random: inout SplitMix64, count: Int) -> [String] {
        (0..<count).map { _ in words[Int(random.next() % UInt64(words.count))] + "\n" }
    }

    /// A few insertions, deletions and replacements, and sometimes no final line break.
    static func edit(_ lines: [String], _ random: inout SplitMix64) -> [String] {
        var result = lines
        for _ in 0..<Int(random.next() % 5) {
            let position = result.isEmpty ? 0 : Int(random.next() % UInt64(result.count + 1))
            switch random.next() % 3 {
            case 0: result.insert(words[Int(random.next() % UInt64(words.count))] + "\n", at: position)
            case 1: if position < result.count { result.remove(at: position) }
            default: if position < result.count { result[position] = "changed \(random.next() % 100)\n" }
            }
        }
        if random.next() % 4 == 0, let last = result.last { result[result.count - 1] = String(last.dropLast()) }
        return result
    }
}
