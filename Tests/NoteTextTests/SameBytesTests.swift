import NoteText
import Testing

@Suite struct SameBytesTests {
    @Test func textsAreTheSameOnlyByteForByte() {
        let precomposed = "caf\u{E9}"
        let decomposed = "cafe\u{301}"
        #expect(precomposed == decomposed, "Swift takes them as equal")
        #expect(!precomposed.hasSameBytes(as: decomposed))
        #expect(precomposed.hasSameBytes(as: "caf\u{E9}"))
        #expect("".hasSameBytes(as: ""))
        #expect(!"".hasSameBytes(as: "a"))
        let long = String(repeating: "a line of a long note\n", count: 50_000)
        #expect(long.hasSameBytes(as: String(repeating: "a line of a long note\n", count: 50_000)))
        #expect(!long.hasSameBytes(as: long.dropLast() + "!"), "the last byte differs")
        #expect(!long.hasSameBytes(as: "!" + long.dropFirst()), "the first byte differs")
    }
}
