/// `#tags` in a run of plain text (``MarkdownScanner/tags(in:)``).
enum Hashtags {
    static func find(in text: String) -> [String] {
        var tags: [String] = []
        var previous: Character? = nil
        var index = text.startIndex
        while index < text.endIndex {
            let character = text[index]
            defer { previous = character }
            guard character == "#", previous.map({ $0.isWhitespace || "([{".contains($0) }) ?? true else {
                index = text.index(after: index)
                continue
            }
            var end = text.index(after: index)
            while end < text.endIndex, isTagCharacter(text[end]) { end = text.index(after: end) }
            var tag = text[text.index(after: index)..<end]
            while let last = tag.last, last == "/" || last == "-" { tag = tag.dropLast() }
            if tag.contains(where: { !$0.isNumber && $0 != "/" && $0 != "-" && $0 != "_" }) { tags.append(String(tag)) }
            index = end
        }
        return tags
    }

    private static func isTagCharacter(_ character: Character) -> Bool {
        character.isLetter || character.isNumber || character == "_" || character == "-" || character == "/"
    }
}
