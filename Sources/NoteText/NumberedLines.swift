/// The lines of the three texts of a merge as numbers, equal for lines with equal bytes (not
/// Swift's `==`, which takes canonically equivalent text as equal).
struct NumberedLines {
    var base: [Int] = []
    var older: [Int] = []
    var newer: [Int] = []
    /// For each number, whether its line has an ASCII letter or digit.
    var hasLetterOrDigit: [Bool] = []

    init(base: [Substring], older: [Substring], newer: [Substring]) {
        var numbers: [LineDiff.LineBytes: Int] = [:]
        var hasLetterOrDigit: [Bool] = []
        func number(_ line: Substring) -> Int {
            let key = LineDiff.LineBytes(line: line)
            if let known = numbers[key] { return known }
            numbers[key] = numbers.count
            hasLetterOrDigit.append(
                line.utf8.contains { byte in
                    (0x30...0x39).contains(byte) || (0x41...0x5A).contains(byte) || (0x61...0x7A).contains(byte)
                })
            return numbers.count - 1
        }
        self.base = base.map(number)
        self.older = older.map(number)
        self.newer = newer.map(number)
        self.hasLetterOrDigit = hasLetterOrDigit
    }
}
