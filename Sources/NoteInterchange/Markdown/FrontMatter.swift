import Foundation

/// The front matter block of a Markdown file: `---` on the first line, `key: value` lines, and
/// `---` again, as Jekyll, Hugo and Obsidian write it.
///
/// Only the subset this tool writes and reads is understood: one `key: value` per line, the
/// value plain or in double quotes (JSON escapes, which YAML reads the same). Lines of other
/// shapes (nested maps, lists, comments) and keys other than those known are ignored.
struct FrontMatter: Equatable {
    var values: [(key: String, value: String)] = []

    static func == (lhs: FrontMatter, rhs: FrontMatter) -> Bool {
        lhs.values.map(\.key) == rhs.values.map(\.key) && lhs.values.map(\.value) == rhs.values.map(\.value)
    }

    subscript(key: String) -> String? {
        values.first { $0.key == key }?.value
    }

    mutating func append(_ key: String, _ value: String) {
        values.append((key, value))
    }

    /// The block, ending with its closing `---` line and a line break.
    var text: String {
        "---\n" + values.map { "\($0.key): \(Self.quoted($0.value))\n" }.joined() + "---\n"
    }

    /// Splits `text` into its front matter and the rest; a text that does not start with a
    /// whole block has none, and is all body.
    static func split(_ text: String) -> (FrontMatter?, body: Substring) {
        guard text.hasPrefix("---\n") || text.hasPrefix("---\r\n") else { return (nil, Substring(text)) }
        var matter = FrontMatter()
        var rest = text[text.index(after: text.firstIndex(of: "\n")!)...]
        while !rest.isEmpty {
            let end = rest.firstIndex(of: "\n") ?? rest.endIndex
            var line = rest[..<end]
            if line.hasSuffix("\r") { line = line.dropLast() }
            let next = end == rest.endIndex ? end : rest.index(after: end)
            if line == "---" || line == "..." { return (matter, rest[next...]) }
            if let colon = line.firstIndex(of: ":"), !line.hasPrefix(" "), !line.hasPrefix("#") {
                let key = String(line[..<colon]).trimmingCharacters(in: .whitespaces)
                let raw = line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
                if !key.isEmpty { matter.append(key, unquoted(raw)) }
            }
            rest = rest[next...]
        }
        return (nil, Substring(text))
    }

    /// A value as written: plain when YAML reads it back unchanged, else a JSON string.
    static func quoted(_ value: String) -> String {
        let plain = value.unicodeScalars.allSatisfy { scalar in
            scalar.properties.isAlphabetic || scalar.properties.numericType != nil || "-_.+ ".unicodeScalars.contains(scalar)
        }
        if plain && !value.isEmpty && value.first != " " && value.last != " " && !["true", "false", "null", "yes", "no", "~"].contains(value.lowercased()) {
            return value
        }
        let data = (try? JSONSerialization.data(withJSONObject: [value], options: [.withoutEscapingSlashes])) ?? Data("[\"\"]".utf8)
        return String(decoding: data.dropFirst().dropLast(), as: UTF8.self)
    }

    static func unquoted(_ raw: String) -> String {
        if raw.hasPrefix("\""), raw.hasSuffix("\""), raw.count >= 2,
            let array = try? JSONSerialization.jsonObject(with: Data("[\(raw)]".utf8)) as? [String], let value = array.first
        {
            return value
        }
        if raw.hasPrefix("'"), raw.hasSuffix("'"), raw.count >= 2 {
            return String(raw.dropFirst().dropLast()).replacingOccurrences(of: "''", with: "'")
        }
        return raw
    }
}
