import CTerminal
import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// How many columns of a terminal a text takes: two for wide characters (CJK, most emoji),
/// none for combining marks, one for the others, as wcwidth(3) counts them in a UTF-8 locale.
public enum DisplayWidth {
    /// The columns `text` takes; a control character counts as none.
    public static func of(_ text: String) -> Int {
        text.unicodeScalars.reduce(0) { $0 + columns($1) }
    }

    static func columns(_ scalar: Unicode.Scalar) -> Int {
        max(0, Int(notes_column_width(scalar.value)))
    }

    /// `text` cut to at most `width` columns, ending in `…` when it was cut; a character is
    /// never cut in half (a wide one that does not fit goes whole).
    public static func truncated(_ text: String, to width: Int) -> String {
        guard width > 0 else { return "" }
        if of(text) <= width { return text }
        var result = ""
        var used = 0
        for character in text {
            let columns = character.unicodeScalars.reduce(0) { $0 + Self.columns($1) }
            if used + columns > width - 1 { break }
            result.append(character)
            used += columns
        }
        return result + "…"
    }

    /// The width of the terminal on standard output, or nil when it is not a terminal.
    /// `COLUMNS`, when set to a number, wins, as for ls(1).
    public static func terminalColumns(environment: [String: String] = ProcessInfo.processInfo.environment) -> Int? {
        guard isatty(STDOUT_FILENO) == 1 else { return nil }
        if let columns = environment["COLUMNS"].flatMap(Int.init), columns > 0 { return columns }
        var size = winsize()
        guard ioctl(STDOUT_FILENO, UInt(TIOCGWINSZ), &size) == 0, size.ws_col > 0 else { return nil }
        return Int(size.ws_col)
    }
}
