/// The `src` of each `<img>` tag in a piece of HTML, as Markdown carries it inline or as a
/// block: attributes quoted with `"` or `'`, or unquoted; names in any case.
enum HTMLImages {
    static func sources(in html: String) -> [String] {
        let bytes = withoutComments(Array(html.utf8))
        var sources: [String] = []
        var index = 0
        while let tag = nextImageTag(bytes, from: index) {
            index = tag
            var position = tag
            while position < bytes.count, bytes[position] != UInt8(ascii: ">") {
                guard let (name, value, next) = attribute(bytes, from: position) else { break }
                position = next
                if name == "src", let value, !value.isEmpty {
                    sources.append(value)
                    break
                }
            }
            index = max(position, index + 1)
        }
        return sources
    }

    /// The bytes with every `<!-- … -->` comment left out: what is inside one is not shown.
    private static func withoutComments(_ bytes: [UInt8]) -> [UInt8] {
        let open = Array("<!--".utf8), close = Array("-->".utf8)
        var result: [UInt8] = []
        var index = 0
        while index < bytes.count {
            if bytes[index...].starts(with: open) {
                var end = index + open.count
                while end < bytes.count, !bytes[end...].starts(with: close) { end += 1 }
                index = min(bytes.count, end + close.count)
                continue
            }
            result.append(bytes[index])
            index += 1
        }
        return result
    }

    /// The index just after the next `<img` followed by a space, or nil.
    private static func nextImageTag(_ bytes: [UInt8], from start: Int) -> Int? {
        var index = start
        while index + 4 < bytes.count {
            if bytes[index] == UInt8(ascii: "<"),
                String(decoding: bytes[(index + 1)..<(index + 4)], as: UTF8.self).lowercased() == "img",
                isSpace(bytes[index + 4])
            {
                return index + 4
            }
            index += 1
        }
        return nil
    }

    /// The attribute at `start` (after spaces): its lowercased name, its value (nil when it has
    /// none), and where what follows it starts.
    private static func attribute(_ bytes: [UInt8], from start: Int) -> (String, String?, Int)? {
        var index = start
        while index < bytes.count, isSpace(bytes[index]) || bytes[index] == UInt8(ascii: "/") { index += 1 }
        let nameStart = index
        while index < bytes.count, !isSpace(bytes[index]), bytes[index] != UInt8(ascii: "="),
            bytes[index] != UInt8(ascii: ">")
        {
            index += 1
        }
        guard index > nameStart else { return nil }
        let name = String(decoding: bytes[nameStart..<index], as: UTF8.self).lowercased()
        while index < bytes.count, isSpace(bytes[index]) { index += 1 }
        guard index < bytes.count, bytes[index] == UInt8(ascii: "=") else { return (name, nil, index) }
        index += 1
        while index < bytes.count, isSpace(bytes[index]) { index += 1 }
        guard index < bytes.count else { return (name, nil, index) }
        let quote = bytes[index]
        if quote == UInt8(ascii: "\"") || quote == UInt8(ascii: "'") {
            let valueStart = index + 1
            guard let end = bytes[valueStart...].firstIndex(of: quote) else { return nil }
            return (name, String(decoding: bytes[valueStart..<end], as: UTF8.self), end + 1)
        }
        let valueStart = index
        while index < bytes.count, !isSpace(bytes[index]), bytes[index] != UInt8(ascii: ">") { index += 1 }
        return (name, String(decoding: bytes[valueStart..<index], as: UTF8.self), index)
    }

    private static func isSpace(_ byte: UInt8) -> Bool {
        byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D || byte == 0x0C
    }
}
