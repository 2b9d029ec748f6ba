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
}
