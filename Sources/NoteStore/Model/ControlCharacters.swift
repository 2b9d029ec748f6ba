/// The characters that can drive a terminal or change how text around them reads: control
/// characters (C0, DEL and C1, of which ESC starts escape sequences and BEL ends window
/// titles), line and paragraph separators, and the bidirectional formatting characters
/// (U+202E and its kin reverse the text that follows; see Unicode's UAX #9).
///
/// Names refuse them (``ValidationFailure/Rule/nameHasControlCharacter``), and the command
/// line shows them escaped wherever it prints text that came from a store or the cloud.
public enum ControlCharacters {
    /// The bidirectional formatting characters: ALM, LRM, RLM, the embeddings and overrides
    /// LRE to RLO, and the isolates LRI to PDI.
    static let bidirectionalFormatting: Set<UInt32> = [
        0x061C, 0x200E, 0x200F, 0x202A, 0x202B, 0x202C, 0x202D, 0x202E, 0x2066, 0x2067, 0x2068, 0x2069,
    ]

    /// Whether `scalar` is one of these characters.
    public static func contains(_ scalar: Unicode.Scalar) -> Bool {
        // Most text is ASCII, whose only such characters are C0 and DEL: no table lookup.
        if scalar.isASCII { return scalar.value < 0x20 || scalar.value == 0x7F }
        switch scalar.properties.generalCategory {
        case .control, .lineSeparator, .paragraphSeparator: return true
        case .format: return bidirectionalFormatting.contains(scalar.value)
        default: return false
        }
    }

    /// The first such character of `text`, or nil.
    public static func first(in text: String) -> Unicode.Scalar? {
        text.unicodeScalars.first(where: contains)
    }

    /// How a message names such a character: `the control character U+001B`.
    public static func describe(_ scalar: Unicode.Scalar) -> String {
        let kind = scalar.properties.generalCategory == .format ? "bidirectional formatting" : "control"
        return "the \(kind) character \(codePoint(scalar))"
    }

    /// How a message names a character: `U+001B`.
    public static func codePoint(_ scalar: Unicode.Scalar) -> String {
        let hex = String(scalar.value, radix: 16, uppercase: true)
        return "U+" + String(repeating: "0", count: max(0, 4 - hex.count)) + hex
    }
}
