/// Wiki links as Obsidian and zk write them: `[[target]]`, `[[target#fragment]]`,
/// `[[target|display]]`, and embeds `![[…]]`, on one line; `\|` (as in a table) is a `|`.
enum WikiLinks {
    /// The wiki links in `span` of `bytes`, outside the `skipped` ranges.
    static func find(in bytes: UnsafeBufferPointer<UInt8>, _ span: Range<Int>, skipping skipped: [Range<Int>])
        -> [MarkdownReference]
    {
        var found: [MarkdownReference] = []
        var index = span.lowerBound
        while index + 3 < span.upperBound {
            if let inside = skipped.first(where: { $0.contains(index) }) {
                index = inside.upperBound
                continue
            }
            guard bytes[index] == UInt8(ascii: "["), bytes[index + 1] == UInt8(ascii: "["), !isEscaped(bytes, index)
            else {
                index += 1
                continue
            }
            guard let close = closing(bytes, from: index + 2, before: span.upperBound, skipping: skipped) else {
                index += 2
                continue
            }
            let isEmbed =
                index > span.lowerBound && bytes[index - 1] == UInt8(ascii: "!") && !isEscaped(bytes, index - 1)
            let inner = String(decoding: UnsafeBufferPointer(rebasing: bytes[(index + 2)..<close]), as: UTF8.self)
            if let reference = parse(
                inner, kind: isEmbed ? .wikiEmbed : .wikiLink, range: (isEmbed ? index - 1 : index)..<(close + 2))
            {
                found.append(reference)
            }
            index = close + 2
        }
        return found
    }

    /// Where the `]]` that closes a link opened before `start` is: on the same line, with no
    /// `[[` before it.
    private static func closing(
        _ bytes: UnsafeBufferPointer<UInt8>, from start: Int, before end: Int, skipping skipped: [Range<Int>]
    ) -> Int? {
        var index = start
        while index + 1 < end {
            let byte = bytes[index]
            if byte == 0x0A || byte == 0x0D || skipped.contains(where: { $0.contains(index) }) { return nil }
            if byte == UInt8(ascii: "["), bytes[index + 1] == UInt8(ascii: "[") { return nil }
            if byte == UInt8(ascii: "]"), bytes[index + 1] == UInt8(ascii: "]") { return index > start ? index : nil }
            index += 1
        }
        return nil
    }

    /// Whether the byte at `index` follows an odd number of backslashes.
    private static func isEscaped(_ bytes: UnsafeBufferPointer<UInt8>, _ index: Int) -> Bool {
        var count = 0
        var position = index - 1
        while position >= 0, bytes[position] == UInt8(ascii: "\\") {
            count += 1
            position -= 1
        }
        return count % 2 == 1
    }

    /// `target#fragment|display`, split at the first `|` (or `\|`) and then the first `#`.
    static func parse(_ inner: String, kind: MarkdownReference.Kind, range: Range<Int>) -> MarkdownReference? {
        var left = Substring(inner)
        var display: String?
        if let bar = inner.firstIndex(of: "|") {
            var end = bar
            if end > inner.startIndex, inner[inner.index(before: end)] == "\\" { end = inner.index(before: end) }
            left = inner[..<end]
            display = String(inner[inner.index(after: bar)...])
        }
        var target = left
        var fragment: String?
        if let hash = left.firstIndex(of: "#") {
            target = left[..<hash]
            fragment = String(left[left.index(after: hash)...])
        }
        let trimmed = target.trimmingSpaces
        guard !trimmed.isEmpty || fragment != nil else { return nil }
        return MarkdownReference(kind: kind, target: trimmed, fragment: fragment, display: display, range: range)
    }
}

extension Substring {
    /// Without spaces and tabs at either end.
    var trimmingSpaces: String {
        var result = self
        while let first = result.first, first == " " || first == "\t" { result.removeFirst() }
        while let last = result.last, last == " " || last == "\t" { result.removeLast() }
        return String(result)
    }
}
