import NoteTerminal
import Testing

/// What `TerminalText` escapes and what it leaves: it reads UTF-8 bytes, so every character
/// whose encoding shares a lead byte with an escaped one must come out as it went in.
@Suite struct TerminalTextTests {
    @Test func controlCharactersAreEscapedAndTheirNeighboursKept() {
        let text = "a\u{1B}[31mb\u{7F}c\u{85}d\u{202E}e\u{061C}f\u{2028}g"
        #expect(
            TerminalText.escaped(text, keepingLayout: false)
                == "a\\e[31mb\\u{7f}c\\u{85}d\\u{202e}e\\u{61c}f\\u{2028}g")
    }

    /// Characters with the lead bytes of escaped ones (0xC2, 0xD8, 0xE2) that are not escaped.
    @Test func charactersSharingALeadByteAreKept() {
        let text = "\u{A0}non-breaking ©, \u{0627}\u{0628} Arabic, 10 € – “quoted” … \u{2066}"
        let escaped = TerminalText.escaped(text, keepingLayout: false)
        #expect(escaped == "\u{A0}non-breaking ©, \u{0627}\u{0628} Arabic, 10 € – “quoted” … \\u{2066}")
    }

    @Test func layoutIsKeptOnlyWhenAskedFor() {
        let text = "one\r\ntwo\tthree\rfour\n"
        #expect(TerminalText.escaped(text, keepingLayout: true) == "one\r\ntwo\tthree\\rfour\n")
        #expect(TerminalText.escaped(text, keepingLayout: false) == "one\\r\\ntwo\\tthree\\rfour\\n")
    }

    @Test func textWithNothingToEscapeIsTheSame() {
        let text = "Plan — 2026 ✓ 日本語 🙂"
        #expect(TerminalText.escaped(text, keepingLayout: false) == text)
        #expect(TerminalText.escaped(text + "\n", keepingLayout: true) == text + "\n")
    }
}
