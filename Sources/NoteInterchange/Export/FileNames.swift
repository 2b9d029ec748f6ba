import Foundation

/// Names of items made into file names: safe on every common file system, and unique among
/// the names already given in one folder (compared without case, as macOS and Windows do).
struct FileNames {
    private var taken: Set<String> = []

    /// The most bytes of UTF-8 a name keeps, leaving room for a suffix and an extension within
    /// the 255 bytes a file name may have.
    static let maximumBytes = 200

    /// `name` made safe, then made unique with ` (2)`, ` (3)` ... before `suffix` (such as `.md`);
    /// the name is taken with its suffix.
    mutating func claim(_ name: String, suffix: String = "") -> String {
        let base = Self.safe(name)
        var candidate = base
        var number = 2
        while taken.contains((candidate + suffix).lowercased()) || Self.isReserved(candidate) {
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

    /// Control characters and `/ \ : * ? " < > |` become `_`; leading dots and spaces and
    /// trailing dots and spaces are dropped (hidden files, and names Windows refuses); an empty
    /// result is `untitled`; long names are cut at a character boundary.
    static func safe(_ name: String) -> String {
        let forbidden: Set<Character> = ["/", "\\", ":", "*", "?", "\"", "<", ">", "|"]
        var text = String(name.map { character -> Character in
            if forbidden.contains(character) { return "_" }
            if character.unicodeScalars.contains(where: { $0.value < 0x20 || (0x7F...0x9F).contains($0.value) }) { return "_" }
            return character
        })
        while let first = text.first, first == "." || first == " " { text.removeFirst() }
        while let last = text.last, last == "." || last == " " { text.removeLast() }
        if text.isEmpty { text = "untitled" }
        while text.utf8.count > maximumBytes { text.removeLast() }
        return text
    }

    /// Names Windows keeps for devices (`CON`, `NUL`, `COM1` ...), with any extension.
    static func isReserved(_ name: String) -> Bool {
        let stem = name.split(separator: ".", maxSplits: 1).first.map { $0.uppercased() } ?? ""
        if ["CON", "PRN", "AUX", "NUL"].contains(stem) { return true }
        if stem.count == 4, stem.hasPrefix("COM") || stem.hasPrefix("LPT"), let digit = stem.last, digit.isNumber { return true }
        return false
    }
}
