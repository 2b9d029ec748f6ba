import Foundation
import NoteStore

/// The front matter block of a Markdown file: `---` on the first line, `key: value` lines, and
/// `---` again, as Jekyll, Hugo and Obsidian write it.
///
/// Only the subset this tool writes and reads is understood: one `key: value` per line, the
/// value plain or in double quotes (JSON escapes, which YAML reads the same), and lists of
/// such values, in brackets (`tags: [a, "b c"]`) or as `- value` lines below their key. Lines
/// of other shapes (nested maps, comments) and keys other than those known are ignored.
struct FrontMatter: Equatable {
    var values: [(key: String, value: String)] = []
    /// Lists given as `- value` lines below a key without a value.
    var blockLists: [String: [String]] = [:]

    static func == (lhs: FrontMatter, rhs: FrontMatter) -> Bool {
        lhs.values.map(\.key) == rhs.values.map(\.key) && lhs.values.map(\.value) == rhs.values.map(\.value)
    }

    subscript(key: String) -> String? {
        values.first { $0.key == key }?.value
    }

    /// The value of the first of `keys` that the block has, each compared without regard to
    /// case (`Date`, `date`).
    func value(ofAny keys: [String]) -> String? {
        for key in keys {
            if let value = values.first(where: { $0.key.lowercased() == key })?.value, !value.isEmpty { return value }
        }
        return nil
    }

    mutating func append(_ key: String, _ value: String) {
        values.append((key, value))
    }

    /// Appends a list, written in brackets.
    mutating func append(_ key: String, list: [String]) {
        values.append((key, "[" + list.map(Self.quoted).joined(separator: ", ") + "]"))
        writtenRaw.insert(key)
    }

    /// Keys whose value is written as it is (a list in brackets).
    private var writtenRaw: Set<String> = []

    /// The values of a list: given in brackets, as `- value` lines, or as one value of words
    /// separated by commas or spaces (as Obsidian also reads tags); nil without the key.
    func list(_ key: String) -> [String]? {
        if let block = blockLists[key] { return block }
        guard let raw = rawValues.first(where: { $0.key == key })?.value ?? self[key] else { return nil }
        let inner: Substring
        if raw.hasPrefix("["), raw.hasSuffix("]") {
            inner = raw.dropFirst().dropLast()
        } else {
            return raw.split(whereSeparator: { $0 == "," || $0.isWhitespace }).map(String.init)
        }
        var items: [String] = []
        var current = ""
        var quote: Character?
        var escaped = false
        for character in inner {
            if let open = quote {
                current.append(character)
                if escaped {
                    escaped = false
                } else if character == "\\" && open == "\"" {
                    escaped = true
                } else if character == open {
                    quote = nil
                }
            } else if character == "\"" || character == "'" {
                quote = character
                current.append(character)
            } else if character == "," {
                items.append(current)
                current = ""
            } else {
                current.append(character)
            }
        }
        items.append(current)
        return items.map { Self.unquoted(Self.trimmed($0)) }.filter { !$0.isEmpty }
    }

    /// Values as they stood in the file, before unquoting: lists in brackets need them.
    private var rawValues: [(key: String, value: String)] = []

    /// Lines written after the values, as they are: a note's properties as YAML.
    var properties = ""

    /// The block, ending with its closing `---` line and a line break.
    var text: String {
        "---\n"
            + values.map { "\($0.key): \(writtenRaw.contains($0.key) ? $0.value : Self.quoted($0.value))\n" }.joined()
            + properties + "---\n"
    }

    /// Splits `text` into its front matter and the rest; a text that does not start with a
    /// whole block has none, and is all body. Lines are found by their bytes: a line break is
    /// one byte in UTF-8, so its index is a character's.
    static func split(_ text: String) -> (FrontMatter?, body: Substring) {
        let utf8 = text.utf8
        guard utf8.starts(with: "---\n".utf8) || utf8.starts(with: "---\r\n".utf8),
            var lineStart = utf8.firstIndex(of: 0x0A).map({ utf8.index(after: $0) })
        else { return (nil, Substring(text)) }
        var matter = FrontMatter()
        var listKey: String?
        while lineStart < utf8.endIndex {
            let end = utf8[lineStart...].firstIndex(of: 0x0A) ?? utf8.endIndex
            let next = end == utf8.endIndex ? end : utf8.index(after: end)
            var line = text[lineStart..<end]
            if line.utf8.last == 0x0D { line = text[lineStart..<utf8.index(before: end)] }
            if line == "---" || line == "..." { return (matter, text[next...]) }
            let trimmed = Self.trimmed(line)
            if let key = listKey, trimmed.hasPrefix("- ") || trimmed == "-" {
                let item = unquoted(Self.trimmed(trimmed.dropFirst()))
                if !item.isEmpty { matter.blockLists[key, default: []].append(item) }
            } else if let colon = line.utf8.firstIndex(of: 0x3A), line.utf8.first != 0x20, line.utf8.first != 0x23 {
                let key = Self.trimmed(line[..<colon])
                let raw = Self.trimmed(line[line.utf8.index(after: colon)...])
                listKey = raw.isEmpty && !key.isEmpty ? key : nil
                if !key.isEmpty, !raw.isEmpty {
                    matter.append(key, unquoted(raw))
                    matter.rawValues.append((key, raw))
                }
            } else {
                listKey = nil
            }
            lineStart = next
        }
        return (nil, Substring(text))
    }

    /// The lines between a block's opening and closing lines, given the text and what
    /// ``split(_:)`` found after the block.
    static func block(of text: String, before body: Substring) -> Substring {
        let utf8 = text.utf8
        guard let first = utf8.firstIndex(of: 0x0A) else { return "" }
        let start = utf8.index(after: first)
        var end = body.startIndex
        // Back over the closing line's break, then to the start of the closing line.
        if end > start, utf8[utf8.index(before: end)] == 0x0A { end = utf8.index(before: end) }
        let closing = utf8[start..<end].lastIndex(of: 0x0A).map { utf8.index(after: $0) } ?? start
        return text[start..<closing]
    }

    /// Without the spaces and tabs around it (Foundation's trimming bridges every line). Both
    /// are one byte in UTF-8, so the ends are found by bytes.
    static func trimmed(_ text: some StringProtocol) -> String {
        let text = Substring(text)
        let utf8 = text.utf8
        func isBlank(_ byte: UInt8) -> Bool { byte == 0x20 || byte == 0x09 }
        guard let first = utf8.firstIndex(where: { !isBlank($0) }), let last = utf8.lastIndex(where: { !isBlank($0) })
        else { return "" }
        return String(text[first...last])
    }

    /// A value as written: plain when YAML reads it back unchanged, else a JSON string.
    static func quoted(_ value: String) -> String {
        let plain = value.unicodeScalars.allSatisfy { scalar in
            if scalar.isASCII {
                let byte = UInt8(scalar.value)
                return (0x30...0x39).contains(byte) || (0x41...0x5A).contains(byte) || (0x61...0x7A).contains(byte)
                    || [0x2D, 0x5F, 0x2E, 0x2B, 0x20].contains(byte)  // - _ . + space
            }
            return scalar.properties.isAlphabetic || scalar.properties.numericType != nil
        }
        if plain && !value.isEmpty && value.first != " " && value.last != " "
            && !["true", "false", "null", "yes", "no", "~"].contains(value.lowercased())
        {
            return value
        }
        var quoted = ""
        OutboxChanges.appendJSONString(value, to: &quoted)
        return quoted
    }

    static func unquoted(_ raw: String) -> String {
        let utf8 = raw.utf8
        if utf8.count >= 2, utf8.first == 0x22, utf8.last == 0x22 {
            // Without a backslash, and no control character, a JSON string is its text.
            let inner = utf8.dropFirst().dropLast()
            if !inner.contains(where: { $0 == 0x5C || $0 == 0x22 || $0 < 0x20 }) {
                return String(raw[inner.startIndex..<inner.endIndex])
            }
        }
        if raw.hasPrefix("\""), raw.hasSuffix("\""), raw.count >= 2,
            let array = try? JSONSerialization.jsonObject(with: Data("[\(raw)]".utf8)) as? [String],
            let value = array.first
        {
            return value
        }
        if raw.hasPrefix("'"), raw.hasSuffix("'"), raw.count >= 2 {
            return String(raw.dropFirst().dropLast()).replacingOccurrences(of: "''", with: "'")
        }
        return raw
    }
}
