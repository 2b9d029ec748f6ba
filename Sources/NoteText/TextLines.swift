/// Text cut into lines that keep their line break, so that joining them gives the text back.
public enum TextLines {
    /// The lines of `text`, each with its `\n` (the last one without, when the text does not
    /// end with one); no lines for empty text.
    public static func split(_ text: String) -> [Substring] {
        var lines: [Substring] = []
        var start = text.startIndex
        var index = text.utf8.startIndex
        let utf8 = text.utf8
        while index != utf8.endIndex {
            let next = utf8.index(after: index)
            if utf8[index] == 0x0A {
                lines.append(text[start..<next])
                start = next
            }
            index = next
        }
        if start != text.endIndex { lines.append(text[start...]) }
        return lines
    }
}
