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
