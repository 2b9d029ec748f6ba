import Foundation

/// Names of items made into file names, unique among the names already given in one folder
/// (compared without case, as macOS and Windows do, and as Obsidian finds a link's note).
///
/// A name is kept as it is wherever the file system allows: on Linux only `/` and NUL are
/// forbidden in a name, besides `.` and `..` and names over 255 bytes (path_resolution(7)).
/// With ``portable``, a name is also one that Windows and macOS take: no `\ : * ? " < > |`, no
/// trailing dot or space, no device name (`CON`, `NUL` ...).
struct FileNames {
    private var taken: Set<String> = []
    /// Whether names are made safe on every common file system, not only on this one.
    let portable: Bool

    init(portable: Bool = false) {
        self.portable = portable
    }

    /// The most bytes of UTF-8 a name keeps, leaving room for a suffix and an extension within
    /// the 255 bytes a file name may have.
    static let maximumBytes = 200

    /// `name` made a file name, then made unique with ` (2)`, ` (3)` ... before `suffix` (such
    /// as `.md`); the name is taken with its suffix.
    mutating func claim(_ name: String, suffix: String = "") -> String {
        let base = portable ? Self.portable(name) : Self.native(name)
        var candidate = base
        var number = 2
        while taken.contains((candidate + suffix).lowercased()) || (portable && Self.isReserved(candidate)) {
            candidate = "\(base) (\(number))"
            number += 1
        }
        taken.insert((candidate + suffix).lowercased())
        return candidate
    }

    /// Reserves a name found on disk, so that no new name is given the same.
    mutating func reserve(_ fileName: String) {
        taken.insert(fileName.lowercased())
    }

    /// Whether a file name (with its suffix) is given already.
    func isTaken(_ fileName: String) -> Bool {
        taken.contains(fileName.lowercased())
    }

    /// `/` becomes `_`, and so do control characters (which a note's name never has); leading
    /// dots are dropped (a hidden file is not read back); an empty result is `untitled`; long
    /// names are cut at a character boundary.
    static func native(_ name: String) -> String {
        finished(
            String(
                name.map { character -> Character in
                    character == "/" || isControl(character) ? "_" : character
                }), trailing: [])
    }

    /// ``native(_:)``, and also `\ : * ? " < > |` made `_` and trailing dots and spaces and
    /// leading spaces dropped, as Windows asks.
    static func portable(_ name: String) -> String {
        let forbidden: Set<Character> = ["/", "\\", ":", "*", "?", "\"", "<", ">", "|"]
        return finished(
            String(
                name.map { character -> Character in
                    forbidden.contains(character) || isControl(character) ? "_" : character
                }), trailing: [".", " "], leading: [" "])
    }

    private static func isControl(_ character: Character) -> Bool {
        character.unicodeScalars.contains { $0.value < 0x20 || (0x7F...0x9F).contains($0.value) }
    }

    private static func finished(_ name: String, trailing: Set<Character>, leading: Set<Character> = []) -> String {
        var text = name
        while let first = text.first, first == "." || leading.contains(first) { text.removeFirst() }
        while let last = text.last, trailing.contains(last) { text.removeLast() }
        if text.isEmpty { text = "untitled" }
        while text.utf8.count > maximumBytes { text.removeLast() }
        return text
    }

    /// Names Windows keeps for devices (`CON`, `NUL`, `COM1` ...), with any extension.
    static func isReserved(_ name: String) -> Bool {
        let stem = name.split(separator: ".", maxSplits: 1).first.map { $0.uppercased() } ?? ""
        if ["CON", "PRN", "AUX", "NUL"].contains(stem) { return true }
        if stem.count == 4, stem.hasPrefix("COM") || stem.hasPrefix("LPT"), let digit = stem.last, digit.isNumber {
            return true
        }
        return false
    }
}
