import Foundation
import Testing

@testable import NoteStore

/// The trigram index folds text as a query is folded: accents off, case down, `ß` as `ss`.
/// Text that folding leaves as it is but for ASCII case (most of what Chinese, Japanese, Korean
/// and Thai notes hold) takes a way without Foundation's normalization, and must come out as
/// the normalization would make it.
@Suite struct TrigramFoldTests {
    /// What folding makes of text without accents: canonical decomposition and composition,
    /// then lower case.
    static func normalized(_ text: String) -> String {
        text.decomposedStringWithCanonicalMapping.precomposedStringWithCanonicalMapping.lowercased()
    }

    @Test func textOfScriptsWithoutCaseFoldsAsNormalizationWould() {
        let ranges: [ClosedRange<UInt32>] = [
            0x20...0x7E, 0x0E01...0x0E3A, 0x0E3F...0x0E5B, 0x2010...0x2027, 0x3000...0x303F, 0x3041...0x3096,
            0x309B...0x30FF, 0x4E00...0x9FFF, 0xAC00...0xD7A3, 0xFF01...0xFF20, 0xFF3B...0xFF9F, 0x20000...0x2A6DF,
        ]
        var generator = SystemRandomNumberGenerator()
        for _ in 0..<2_000 {
            var scalars = String.UnicodeScalarView()
            for _ in 0..<Int.random(in: 1...12, using: &generator) {
                let range = ranges.randomElement(using: &generator)!
                if let scalar = Unicode.Scalar(UInt32.random(in: range, using: &generator)) { scalars.append(scalar) }
            }
            let text = String(scalars)
            #expect(TrigramIndex.folded(text) == Self.normalized(text) || text.utf8.allSatisfy { $0 < 0x80 }, "\(text)")
        }
    }

    @Test func mixedTextFoldsItsASCIICase() {
        #expect(TrigramIndex.folded("東京 Tower") == "東京 tower")
        #expect(TrigramIndex.folded("ソウル 서울 SEOUL") == "ソウル 서울 seoul")
        #expect(TrigramIndex.folded("สวัสดี ABC") == "สวัสดี abc")
    }

    /// What composes or has case goes the long way: voicing marks joined to their kana, the
    /// compatibility ideographs made the unified ones, full-width capitals made small.
    @Test func textThatNormalizationChangesTakesTheLongWay() {
        #expect(TrigramIndex.folded("か\u{3099}") == "が")
        #expect(TrigramIndex.folded("\u{F900}") == "\u{8C48}")
        #expect(TrigramIndex.folded("ＡＢＣ東京") == "ａｂｃ東京")
        #expect(TrigramIndex.folded("Ünïcödé 東京") == "unicode 東京")
    }
}
