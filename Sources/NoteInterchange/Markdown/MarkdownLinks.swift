import Foundation

/// What an export writes into the links it makes (reading them is ``MarkdownScanner``'s).
enum MarkdownLinks {
    /// `\`, `[` and `]` escaped with a backslash, and line breaks made spaces, so that the text
    /// stays one link text.
    static func escapeText(_ text: String) -> String {
        var result = ""
        for character in text {
            switch character {
            case "\\", "[", "]": result += "\\\(character)"
            case "\n", "\r", "\r\n": result += " "
            default: result.append(character)
            }
        }
        return result
    }

    /// A file name as a Markdown link's destination: as it is when it has only letters,
    /// digits and `-._~`, else between `<` and `>` (with those two percent-encoded);
    /// `bracketed` when the `<` and `>` are there already.
    static func destination(_ name: String, bracketed: Bool = false) -> String {
        if !bracketed, name.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || "-._~".contains($0)) }) {
            return name
        }
        let inside = name.replacingOccurrences(of: "<", with: "%3C").replacingOccurrences(of: ">", with: "%3E")
        return bracketed ? inside : "<" + inside + ">"
    }
}
