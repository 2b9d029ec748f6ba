/// The snippet of a note found by the trigram index: its best-matching line, each occurrence
/// of the texts looked for between markers.
///
/// The trigram index holds no text, so its matches are found again here, in the text folded
/// as the index folds it (``TrigramIndex/folded(_:)``), one character at a time so that each
/// folded character points back to the character it came from. The best line holds the most
/// of the texts looked for, then the most occurrences; the first such line wins. Only the
/// first ``textLimit`` characters of a body are read: a note whose matches all come later
/// shows the start of its first line.
enum SubstringSnippet {
    /// The characters of a body read for its snippet.
    static let textLimit = 65_536
    /// The characters of a line looked through, and the most shown.
    static let lineLimit = 2_000
    static let shownCharacters = 240
    /// The characters shown before the first match of a line, when it starts further in.
    static let leadingCharacters = 16

    static func excerpt(name: String, body: String?, substrings: [String], markers: (String, String)) -> String {
        let terms = substrings.filter { !$0.isEmpty }.map { Array($0.lowercased()) }
        var best: (line: [Character], matches: [Range<Int>], score: (Int, Int))?
        for text in [body ?? "", name] {
            for line in text.split(whereSeparator: \.isNewline) {
                let characters = Array(line.prefix(lineLimit))
                let matches = self.matches(of: terms, in: characters)
                guard !matches.ranges.isEmpty else { continue }
                if best == nil || matches.score > best!.score {
                    best = (characters, matches.ranges, matches.score)
                }
            }
            if best != nil { break }
        }
        guard let best else {
            let first = (body ?? name).split(whereSeparator: \.isNewline).first ?? ""
            return String(first.prefix(shownCharacters))
        }
        return marked(best.line, best.matches, markers: markers)
    }

    /// The ranges, in characters of `line`, of each occurrence of each term, and the line's
    /// score: the number of terms found, then of occurrences.
    private static func matches(of terms: [[Character]], in line: [Character]) -> (
        ranges: [Range<Int>], score: (Int, Int)
    ) {
        var folded: [Character] = []
        var origin: [Int] = []
        for (index, character) in line.enumerated() {
            for piece in TrigramIndex.folded(String(character)).lowercased() {
                folded.append(piece)
                origin.append(index)
            }
        }
        var ranges: [Range<Int>] = []
        var found = 0
        for term in terms where !term.isEmpty && term.count <= folded.count {
            var any = false
            var start = 0
            while start + term.count <= folded.count {
                if folded[start..<(start + term.count)].elementsEqual(term) {
                    ranges.append(origin[start]..<(origin[start + term.count - 1] + 1))
                    any = true
                    start += term.count
                } else {
                    start += 1
                }
            }
            if any { found += 1 }
        }
        return (ranges, (found, ranges.count))
    }

    /// The line from a little before its first match, each match between markers.
    private static func marked(_ line: [Character], _ matches: [Range<Int>], markers: (String, String)) -> String {
        let sorted = matches.sorted { $0.lowerBound < $1.lowerBound }
        var start = max(0, (sorted.first?.lowerBound ?? 0) - leadingCharacters)
        if start > 0, let space = line[start..<sorted[0].lowerBound].firstIndex(where: \.isWhitespace) {
            start = space + 1
        }
        let end = min(line.count, start + shownCharacters)
        var output = start > 0 ? "…" : ""
        var position = start
        for match in sorted where match.lowerBound >= position && match.upperBound <= end {
            output += String(line[position..<match.lowerBound]) + markers.0 + String(line[match]) + markers.1
            position = match.upperBound
        }
        output += String(line[position..<end])
        if end < line.count { output += "…" }
        return output
    }
}
