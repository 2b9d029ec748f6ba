/// The best-matching line among the tokens of a text that ``SnippetFunction`` looked at: the
/// line with matches of the most phrases of the query, then with the most matches; of equals,
/// the first.
struct SnippetLine {
    let bytes: UnsafeBufferPointer<UInt8>
    let tokens: [Range<Int>]
    /// The tokens of the best line, as indexes of `tokens`: `lineStart..<lineEnd`.
    private(set) var lineStart = 0
    private(set) var lineEnd = 0
    /// The first match in the best line, as an index of `tokens`.
    private(set) var firstMatch = 0

    /// `tokens` are the byte ranges of the tokens from the token `firstToken` on; `matches`,
    /// each match's phrase and token offset.
    init(
        bytes: UnsafeBufferPointer<UInt8>, tokens: [Range<Int>], firstToken: Int32,
        matches: [(phrase: Int32, offset: Int32)]
    ) {
        self.bytes = bytes
        self.tokens = tokens
        guard !tokens.isEmpty else { return }
        var lineOfToken: [Int] = []
        lineOfToken.reserveCapacity(tokens.count)
        var line = 0
        var position = tokens[0].lowerBound
        for token in tokens {
            line += bytes[position..<token.lowerBound].count { $0 == 0x0A }
            lineOfToken.append(line)
            position = token.upperBound
        }
        var phrases: [Int: Set<Int32>] = [:]
        var counts: [Int: Int] = [:]
        var firstOfLine: [Int: Int] = [:]
        for match in matches {
            let index = Int(match.offset - firstToken)
            guard tokens.indices.contains(index) else { continue }
            let line = lineOfToken[index]
            phrases[line, default: []].insert(match.phrase)
            counts[line, default: 0] += 1
            firstOfLine[line] = min(firstOfLine[line] ?? index, index)
        }
        let best =
            phrases.keys.max { a, b in
                (phrases[a]!.count, counts[a]!, -a) < (phrases[b]!.count, counts[b]!, -b)
            } ?? lineOfToken[0]
        lineStart = lineOfToken.firstIndex(of: best) ?? 0
        lineEnd = (lineOfToken.lastIndex(of: best) ?? 0) + 1
        firstMatch = firstOfLine[best] ?? lineStart
    }

    /// The tokens shown: from `leading` tokens before the line's first match (or the line's
    /// start), at most `length` of them, within the line.
    func window(leading: Int32, length: Int32) -> (start: Int, end: Int) {
        let start = max(lineStart, firstMatch - Int(leading))
        return (start, min(lineEnd, start + Int(length)))
    }

    /// The byte after the line break before the token `index` (the text's start, or the end
    /// of the token before, when none comes between).
    func startByte(beforeToken index: Int) -> Int {
        let floor = index > 0 ? tokens[index - 1].upperBound : 0
        var position = tokens[index].lowerBound
        while position > floor, bytes[position - 1] != 0x0A { position -= 1 }
        return position
    }

    /// The byte of the line break after the token `index` (the start of the token after, or
    /// the text's end, when none comes between).
    func endByte(afterToken index: Int) -> Int {
        let ceiling = index + 1 < tokens.count ? tokens[index + 1].lowerBound : bytes.count
        var position = tokens[index].upperBound
        while position < ceiling, bytes[position] != 0x0A, bytes[position] != 0x0D { position += 1 }
        return position
    }
}
