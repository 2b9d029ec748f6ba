import Foundation
import NoteStore

/// Text that came from a store or the cloud, made safe to print: the characters that could
/// drive a terminal or reverse the text around them (``ControlCharacters``) are shown as
/// escapes (`\e`, `\u{202e}`), so that a name sent by another device cannot colour the screen,
/// set the window title or disguise itself.
public enum TerminalText {
    /// `text` with every such character escaped; with `keepingLayout`, line feeds, tabs and
    /// the carriage return of a CRLF line end are kept, for multi-line output such as a body.
    /// Writes `line`, escaped, as one `notes: ` line on standard error: what a command says
    /// beside its output (a file skipped by an import, a tag already there).
    public static func warn(_ line: String) {
        FileHandle.standardError.write(Data("notes: \(escaped(line, keepingLayout: false))\n".utf8))
    }

    public static func escaped(_ text: String, keepingLayout: Bool) -> String {
        guard needsEscaping(text) else { return text }
        var out = String.UnicodeScalarView()
        let scalars = Array(text.unicodeScalars)
        for (index, scalar) in scalars.enumerated() {
            if keepingLayout {
                let endsCRLF = scalar == "\r" && index + 1 < scalars.count && scalars[index + 1] == "\n"
                if scalar == "\n" || scalar == "\t" || endsCRLF {
                    out.append(scalar)
                    continue
                }
            }
            guard ControlCharacters.contains(scalar) else {
                out.append(scalar)
                continue
            }
            out.append(contentsOf: escape(scalar).unicodeScalars)
        }
        return String(out)
    }

    /// JSON text with such characters, which JSON allows raw inside strings, written as
    /// `\uXXXX` escapes: the same JSON value, safe on a terminal. (JSONEncoder already
    /// escapes those below U+0020.)
    public static func escapedJSON(_ json: String) -> String {
        guard needsEscaping(json) else { return json }
        var out = String.UnicodeScalarView()
        for scalar in json.unicodeScalars {
            if scalar.value >= 0x20, ControlCharacters.contains(scalar) {
                out.append(contentsOf: String(format: "\\u%04x", scalar.value).unicodeScalars)
            } else {
                out.append(scalar)
            }
        }
        return String(out)
    }

    private static func escape(_ scalar: Unicode.Scalar) -> String {
        switch scalar {
        case "\n": return "\\n"
        case "\r": return "\\r"
        case "\t": return "\\t"
        case "\u{1B}": return "\\e"
        default: return "\\u{" + String(scalar.value, radix: 16) + "}"
        }
    }

    /// Whether any character needs a look: a quick pass over the UTF-8 bytes, since almost
    /// all text has none. Every such character is below U+0020, U+007F, or encoded with a
    /// lead byte of 0xC2 (C1), 0xD8 (U+061C) or 0xE2 (the separators and bidirectional marks).
    private static func needsEscaping(_ text: String) -> Bool {
        var text = text
        return text.withUTF8 { bytes in
            bytes.contains { $0 < 0x20 || $0 == 0x7F || $0 == 0xC2 || $0 == 0xD8 || $0 == 0xE2 }
        }
    }
}
