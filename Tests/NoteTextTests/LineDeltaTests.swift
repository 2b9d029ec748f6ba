import NoteTestSupport
import NoteText
import Testing

@Suite struct LineDeltaTests {
    @Test func roundTrips() throws {
        var random = SplitMix64(seed: 11)
        for _ in 0..<500 {
            let base = RandomText.lines(&random, count: Int(random.next() % 40)).joined()
            let text = RandomText.edit(TextLines.split(base).map(String.init), &random).joined()
            let delta = LineDelta.make(from: base, to: text)
            #expect(try delta.apply(to: base) == text)
            #expect(try LineDelta(decoding: delta.encoded) == delta)
        }
    }

    /// The delta made from the lines between those the texts share at both ends is the one
    /// the diff of all the lines gives: texts with and without a last line break, edits at
    /// either end, repeated lines, a text that is the start or the end of the other.
    @Test func theDeltaIsTheOneOfTheWholeDiff() throws {
        var random = SplitMix64(seed: 12)
        func reference(_ base: String, _ text: String) -> [LineDelta.Operation] {
            let baseLines = TextLines.split(base)
            let lines = TextLines.split(text)
            var operations: [LineDelta.Operation] = []
            var position = 0
            for hunk in LineDiff.hunks(from: baseLines, to: lines) {
                if hunk.old.lowerBound > position {
                    operations.append(.copy(start: position, count: hunk.old.lowerBound - position))
                }
                if !hunk.new.isEmpty { operations.append(.insert(Array(lines[hunk.new].joined().utf8))) }
                position = hunk.old.upperBound
            }
            if baseLines.count > position {
                operations.append(.copy(start: position, count: baseLines.count - position))
            }
            return operations
        }
        for round in 0..<2_000 {
            var base = RandomText.lines(&random, count: Int(random.next() % 30)).joined()
            var text = RandomText.edit(TextLines.split(base).map(String.init), &random).joined()
            // Some without a last line break, some sharing a partial last line.
            if round % 3 == 0, !base.isEmpty { base.removeLast() }
            if round % 5 == 0, !text.isEmpty { text.removeLast() }
            if round % 7 == 0 { text = base + "tail" }
            if round % 11 == 0 { text = String(base.dropFirst(base.count / 2)) }
            let delta = LineDelta.make(from: base, to: text)
            #expect(delta.operations == reference(base, text), "\(base.debugDescription) → \(text.debugDescription)")
            #expect(try delta.apply(to: base) == text)
        }
    }

    @Test func aOneLineEditOfALongNoteIsSmall() throws {
        let lines = (0..<200).map { "line \($0): the quick brown fox jumps over the lazy dog\n" }
        var edited = lines
        edited[100] = "a new line in the middle\n"
        let delta = LineDelta.make(from: lines.joined(), to: edited.joined())
        #expect(delta.encoded.count < 100)
        #expect(try delta.apply(to: lines.joined()) == edited.joined())
    }

    @Test func damagedBytesThrow() {
        let delta = LineDelta.make(from: "a\nb\nc\n", to: "a\nx\nc\n").encoded
        #expect(throws: LineDeltaError.self) { try LineDelta(decoding: []) }
        #expect(throws: LineDeltaError.self) { try LineDelta(decoding: [2] + delta.dropFirst()) }
        for cut in 1..<delta.count {
            if let partial = try? LineDelta(decoding: Array(delta.prefix(cut))) {
                _ = try? partial.apply(to: "a\nb\nc\n")
            }
        }
        #expect(throws: LineDeltaError.self) { try LineDelta(decoding: [1, 0xFF, 0xFF, 0xFF]) }
        // A delta that copies lines the base lacks.
        #expect(throws: LineDeltaError.self) { try LineDelta(decoding: delta).apply(to: "a\n") }
    }

    /// A line changed only in its Unicode form ("é" as one character, then as "e" and a
    /// combining accent) is a change: the delta gives back the very bytes.
    @Test func canonicallyEquivalentLinesAreStillDifferentBytes() throws {
        let composed = "caf\u{E9}\nend\n"
        let decomposed = "cafe\u{301}\nend\n"
        #expect(composed == decomposed)
        let delta = LineDelta.make(from: composed, to: decomposed)
        #expect(Array(try delta.apply(to: composed).utf8) == Array(decomposed.utf8))
        let merged = ThreeWayMerge.merge(base: composed, older: composed + "x\n", newer: decomposed)
        #expect(Array(merged.text.utf8) == Array((decomposed + "x\n").utf8))
    }
}
