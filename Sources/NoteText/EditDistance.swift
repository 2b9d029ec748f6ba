/// The distance between two words: the fewest insertions, deletions, substitutions and swaps of
/// two neighbouring characters that turn one into the other (the optimal string alignment form
/// of the Damerau–Levenshtein distance). For suggestions: `serach` is one swap from `search`,
/// `glosary` one deletion from `glossary`.
public enum EditDistance {
    public static func between(_ a: String, _ b: String) -> Int {
        let a = Array(a.unicodeScalars), b = Array(b.unicodeScalars)
        return distance(a[...], b[...], limit: max(a.count, b.count))!
    }

    /// The distance when it is at most `limit`, else nil; quicker than ``between(_:_:)``
    /// when most words are far apart, as a search among many names finds them: it stops at
    /// the first row of the table that holds nothing within the limit.
    public static func between(_ a: String, _ b: String, limit: Int) -> Int? {
        let a = Array(a.unicodeScalars), b = Array(b.unicodeScalars)
        guard abs(a.count - b.count) <= limit else { return nil }
        return distance(a[...], b[...], limit: limit)
    }

    private static func distance(_ a: ArraySlice<Unicode.Scalar>, _ b: ArraySlice<Unicode.Scalar>, limit: Int) -> Int? {
        let a = Array(a), b = Array(b)
        guard !a.isEmpty else { return b.count <= limit ? b.count : nil }
        guard !b.isEmpty else { return a.count <= limit ? a.count : nil }
        let width = b.count + 1
        // Three rows of the table: the one before the previous, the previous, the current.
        var older = [Int](repeating: 0, count: width)
        var previous = Array(0...b.count)
        var current = [Int](repeating: 0, count: width)
        for i in 1...a.count {
            current[0] = i
            var smallest = i
            for j in 1...b.count {
                let cost = a[i - 1] == b[j - 1] ? 0 : 1
                var value = min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + cost)
                if i > 1, j > 1, a[i - 1] == b[j - 2], a[i - 2] == b[j - 1] {
                    value = min(value, older[j - 2] + 1)
                }
                current[j] = value
                smallest = min(smallest, value)
            }
            if smallest > limit { return nil }
            (older, previous, current) = (previous, current, older)
        }
        return previous[b.count] <= limit ? previous[b.count] : nil
    }
}
