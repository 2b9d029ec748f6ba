import Foundation
import NoteStore

/// Text that came from a store or the cloud, made safe to print: the characters that could
/// drive a terminal or reverse the text around them (``ControlCharacters``) are shown as
/// escapes (`\e`, `\u{202e}`), so that a name sent by another device cannot colour the screen,
/// set the window title or disguise itself.
public enum TerminalText {
    /// Writes `line`, escaped, as one `notes: ` line on standard error: what a command says
    /// beside its output (a file skipped by an import, a tag already there).
    public static func warn(_ line: String) {
        FileHandle.standardError.write(Data("notes: \(escaped(line, keepingLayout: false))\n".utf8))
    }

    /// `text` with every such character escaped; with `keepingLayout`, line feeds, tabs and
    /// the carriage return of a CRLF line end are kept, for multi-line output such as a body.
    public static func escaped(_ text: String, keepingLayout: Bool) -> String {
        guard needsEscaping(text) else { return text }
        var text = text
        return text.withUTF8 { bytes in
            var out: [UInt8] = []
            out.reserveCapacity(bytes.count + 64)
            var run = 0
            var index = 0
            // Runs of bytes that start no such character are copied whole.
            func copyRun() {
                if run < index { out.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[run..<index])) }
            }
            while index < bytes.count {
                let byte = bytes[index]
                guard mayStartOne(byte) else {
                    index += 1
                    continue
                }
                // A valid UTF-8 text: 0xC2 and 0xD8 lead two bytes, 0xE2 three.
                let length = byte < 0x80 ? 1 : byte < 0xE0 ? 2 : 3
                let scalar: Unicode.Scalar
                switch length {
                case 1: scalar = Unicode.Scalar(byte)
                case 2: scalar = Unicode.Scalar(UInt32(byte & 0x1F) << 6 | UInt32(bytes[index + 1] & 0x3F))!
                default:
                    scalar = Unicode.Scalar(
                        UInt32(byte & 0x0F) << 12 | UInt32(bytes[index + 1] & 0x3F) << 6
                            | UInt32(bytes[index + 2] & 0x3F))!
                }
                let kept =
                    keepingLayout
                    && (byte == 0x0A || byte == 0x09
                        || (byte == 0x0D && index + 1 < bytes.count && bytes[index + 1] == 0x0A))
                if kept || !ControlCharacters.contains(scalar) {
                    index += length
                    continue
                }
                copyRun()
                out.append(contentsOf: escape(scalar).utf8)
                index += length
                run = index
            }
            copyRun()
            return String(decoding: out, as: UTF8.self)
        }
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
        return text.withUTF8 { bytes in bytes.contains(where: mayStartOne) }
    }

    /// Whether a byte of UTF-8 text may start such a character (see ``needsEscaping(_:)``).
    private static func mayStartOne(_ byte: UInt8) -> Bool {
        byte < 0x20 || byte == 0x7F || byte == 0xC2 || byte == 0xD8 || byte == 0xE2
    }
}
