extension MarkdownReference {
    /// Where the text that names the target is, in `bytes` (the text the reference was found
    /// in): the part of a wiki link or an embed before its `#` and `|`, an inline image's or
    /// link's destination (inside its `<` `>` when it has them, with its `#fragment`), or the
    /// value of an `<img>`'s `src` that is the target. Nil when the target is not in the
    /// reference's text (a reference-style image's is in its definition).
    ///
    /// Replacing these bytes alone retargets the reference and leaves the rest of the text as
    /// it was.
    public func targetRange(in bytes: [UInt8]) -> Range<Int>? {
        guard range.upperBound <= bytes.count else { return nil }
        switch kind {
        case .wikiLink, .wikiEmbed:
            let open = range.lowerBound + (kind == .wikiEmbed ? 3 : 2)
            var end = open
            while end < range.upperBound - 2 {
                let byte = bytes[end]
                if byte == UInt8(ascii: "#") || byte == UInt8(ascii: "|") { break }
                if byte == UInt8(ascii: "\\"), end + 1 < range.upperBound, bytes[end + 1] == UInt8(ascii: "|") { break }
                end += 1
            }
            return open..<end
        case .image, .link:
            return destination(in: bytes)
        case .htmlImage:
            return source(in: bytes)
        }
    }

    /// An inline image's or link's destination: after its last `](`, in angle brackets or up
    /// to a space or the closing parenthesis.
    private func destination(in bytes: [UInt8]) -> Range<Int>? {
        var index = range.upperBound - 1
        while index > range.lowerBound, !(bytes[index] == UInt8(ascii: "(") && bytes[index - 1] == UInt8(ascii: "]")) {
            index -= 1
        }
        guard index > range.lowerBound else { return nil }
        var start = index + 1
        while start < range.upperBound, bytes[start] == 0x20 || bytes[start] == 0x0A { start += 1 }
        if start < range.upperBound, bytes[start] == UInt8(ascii: "<") {
            guard let close = bytes[(start + 1)..<range.upperBound].firstIndex(of: UInt8(ascii: ">")) else {
                return nil
            }
            return (start + 1)..<close
        }
        var stop = start
        var depth = 0
        while stop < range.upperBound {
            let byte = bytes[stop]
            if byte == 0x20 || byte == 0x0A { break }
            if byte == UInt8(ascii: "(") { depth += 1 }
            if byte == UInt8(ascii: ")") {
                if depth == 0 { break }
                depth -= 1
            }
            stop += 1
        }
        return stop > start ? start..<stop : nil
    }

    /// The first value of a `src` attribute in the reference's HTML that is its target as
    /// written.
    private func source(in bytes: [UInt8]) -> Range<Int>? {
        let written = Array(target.utf8)
        guard !written.isEmpty else { return nil }
        var index = range.lowerBound
        while index + 4 <= range.upperBound {
            defer { index += 1 }
            guard bytes[index] | 0x20 == UInt8(ascii: "s"), bytes[index + 1] | 0x20 == UInt8(ascii: "r"),
                bytes[index + 2] | 0x20 == UInt8(ascii: "c"), index > range.lowerBound
            else { continue }
            var start = index + 3
            while start < range.upperBound, bytes[start] == 0x20 { start += 1 }
            guard start < range.upperBound, bytes[start] == UInt8(ascii: "=") else { continue }
            start += 1
            while start < range.upperBound, bytes[start] == 0x20 { start += 1 }
            if start < range.upperBound, bytes[start] == UInt8(ascii: "\"") || bytes[start] == UInt8(ascii: "'") {
                start += 1
            }
            let end = start + written.count
            if end <= range.upperBound, Array(bytes[start..<end]) == written { return start..<end }
        }
        return nil
    }
}
