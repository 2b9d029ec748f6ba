import Foundation

/// Image links in Markdown: `![text](destination)`, with the destination plain
/// (percent-encoded) or in angle brackets, and an optional title after it.
enum MarkdownLinks {
    struct ImageLink: Equatable {
        var text: String
        var destination: String
    }

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

    /// Every image link in `text`, in order.
    static func images(in text: Substring) -> [ImageLink] {
        var links: [ImageLink] = []
        var index = text.startIndex
        while let start = ByteSearch.firstRange(of: Array("![".utf8), in: text, from: index) {
            index = start.upperBound
            guard let (label, afterLabel) = linkText(text, from: start.upperBound),
                afterLabel < text.endIndex, text[afterLabel] == "("
            else { continue }
            guard let (destination, end) = destination(text, from: text.index(after: afterLabel)) else { continue }
            links.append(ImageLink(text: label, destination: destination))
            index = end
        }
        return links
    }

    /// The link text from just after `![` to its `]`, unescaped, and the index after the `]`.
    private static func linkText(_ text: Substring, from start: Substring.Index) -> (String, Substring.Index)? {
        var result = ""
        var index = start
        var depth = 0
        while index < text.endIndex {
            let character = text[index]
            if character == "\\", text.index(after: index) < text.endIndex {
                index = text.index(after: index)
                result.append(text[index])
            } else if character == "[" {
                depth += 1
                result.append(character)
            } else if character == "]" {
                if depth == 0 { return (result, text.index(after: index)) }
                depth -= 1
                result.append(character)
            } else if character == "\n" && result.hasSuffix("\n") {
                return nil
            } else {
                result.append(character)
            }
            index = text.index(after: index)
        }
        return nil
    }

    /// The destination from just after `(`, and the index after the closing `)`.
    private static func destination(_ text: Substring, from start: Substring.Index) -> (String, Substring.Index)? {
        var index = start
        while index < text.endIndex, text[index] == " " { index = text.index(after: index) }
        guard index < text.endIndex else { return nil }
        var destination = ""
        if text[index] == "<" {
            index = text.index(after: index)
            while index < text.endIndex, text[index] != ">" {
                if text[index] == "\n" { return nil }
                destination.append(text[index])
                index = text.index(after: index)
            }
            guard index < text.endIndex else { return nil }
            index = text.index(after: index)
        } else {
            var depth = 0
            while index < text.endIndex {
                let character = text[index]
                if character == " " || character == "\n" { break }
                if character == "(" { depth += 1 }
                if character == ")" {
                    if depth == 0 { break }
                    depth -= 1
                }
                destination.append(character)
                index = text.index(after: index)
            }
            destination = destination.removingPercentEncoding ?? destination
        }
        // An optional title, then `)`.
        while index < text.endIndex, text[index] != ")" {
            if text[index] == "\n" && text[text.index(before: index)] == "\n" { return nil }
            index = text.index(after: index)
        }
        guard index < text.endIndex else { return nil }
        return (destination, text.index(after: index))
    }
}
