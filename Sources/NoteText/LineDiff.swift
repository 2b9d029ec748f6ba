/// The line differences between two texts, as hunks (Myers' O(ND) algorithm,
/// http://www.xmailserver.org/diff2.pdf).
///
/// The common start and end are taken off first, so that the usual edit of a long note costs
/// little. The search stops after ``maximumEdits`` edits: two texts further apart get one hunk
/// replacing everything between their common start and end, which is a correct diff, not a
/// minimal one, so that two unrelated 10 MB texts cannot take quadratic time.
public enum LineDiff {
    /// The most insertions plus deletions searched for.
    public static let maximumEdits = 2000

    /// The hunks that turn `old` into `new`, in order, none empty.
    public static func hunks(from old: [Substring], to new: [Substring]) -> [LineHunk] {
        var prefix = 0
        while prefix < old.count, prefix < new.count, same(old[prefix], new[prefix]) { prefix += 1 }
        var suffix = 0
        while suffix < old.count - prefix, suffix < new.count - prefix,
            same(old[old.count - 1 - suffix], new[new.count - 1 - suffix])
        {
            suffix += 1
        }
        let oldMiddle = prefix..<(old.count - suffix)
        let newMiddle = prefix..<(new.count - suffix)
        if oldMiddle.isEmpty && newMiddle.isEmpty { return [] }
        if oldMiddle.isEmpty || newMiddle.isEmpty { return [LineHunk(old: oldMiddle, new: newMiddle)] }
        // Lines as numbers: lines with equal bytes get equal numbers (not Swift's `==`, which
        // takes canonically equivalent text as equal: "é" and "e" with a combining accent).
        var numbers: [LineBytes: Int] = [:]
        func number(_ line: Substring) -> Int {
            let key = LineBytes(line: line)
            if let known = numbers[key] { return known }
            numbers[key] = numbers.count
            return numbers.count - 1
        }
        let a = old[oldMiddle].map(number)
        let b = new[newMiddle].map(number)
        guard let matches = myers(a, b) else { return [LineHunk(old: oldMiddle, new: newMiddle)] }
        return hunks(matches: matches, oldCount: a.count, newCount: b.count, offset: prefix)
    }

    /// Whether two lines have the same bytes.
    static func same(_ a: Substring, _ b: Substring) -> Bool {
        a.utf8.elementsEqual(b.utf8)
    }

    /// A line as a key that is equal to another when their bytes are.
    struct LineBytes: Hashable {
        let line: Substring

        static func == (a: LineBytes, b: LineBytes) -> Bool { same(a.line, b.line) }

        func hash(into hasher: inout Hasher) {
            let hashed: Void? = line.utf8.withContiguousStorageIfAvailable {
                hasher.combine(bytes: UnsafeRawBufferPointer($0))
            }
            if hashed == nil { Array(line.utf8).withUnsafeBytes { hasher.combine(bytes: $0) } }
        }
    }

    /// The hunks of two whole texts.
    public static func hunks(from old: String, to new: String) -> [LineHunk] {
        hunks(from: TextLines.split(old), to: TextLines.split(new))
    }

    /// Hunks between the matched lines (pairs of old and new positions, increasing).
    private static func hunks(matches: [(Int, Int)], oldCount: Int, newCount: Int, offset: Int) -> [LineHunk] {
        var result: [LineHunk] = []
        var i = 0
        var j = 0
        for (x, y) in matches + [(oldCount, newCount)] {
            if x > i || y > j {
                result.append(LineHunk(old: (offset + i)..<(offset + x), new: (offset + j)..<(offset + y)))
            }
            i = x + 1
            j = y + 1
        }
        return result
    }

    /// The matched positions of a shortest edit script, or nil past ``maximumEdits``.
    private static func myers(_ a: [Int], _ b: [Int]) -> [(Int, Int)]? {
        let n = a.count
        let m = b.count
        let limit = min(n + m, maximumEdits)
        let offset = limit + 1
        var v = [Int](repeating: 0, count: 2 * limit + 3)
        // Only the diagonals -d-1 ... d+1 of each round are kept: about d² numbers in all.
        var trace: [[Int]] = []
        var found = false
        outer: for d in 0...limit {
            trace.append(Array(v[(offset - d - 1)...(offset + d + 1)]))
            var k = -d
            while k <= d {
                var x: Int
                if k == -d || (k != d && v[offset + k - 1] < v[offset + k + 1]) {
                    x = v[offset + k + 1]
                } else {
                    x = v[offset + k - 1] + 1
                }
                var y = x - k
                while x < n, y < m, a[x] == b[y] {
                    x += 1
                    y += 1
                }
                v[offset + k] = x
                if x >= n && y >= m {
                    found = true
                    break outer
                }
                k += 2
            }
        }
        guard found else { return nil }
        // Walk back through the trace, collecting the diagonal moves.
        var matches: [(Int, Int)] = []
        var x = n
        var y = m
        for d in stride(from: trace.count - 1, through: 0, by: -1) {
            let round = trace[d]
            func at(_ k: Int) -> Int { round[k + d + 1] }
            let k = x - y
            let previousK = (k == -d || (k != d && at(k - 1) < at(k + 1))) ? k + 1 : k - 1
            let previousX = d == 0 ? 0 : at(previousK)
            let previousY = previousX - previousK
            while x > previousX && y > previousY && x > 0 && y > 0 {
                x -= 1
                y -= 1
                matches.append((x, y))
            }
            if d > 0 {
                x = previousX
                y = previousY
            }
        }
        return matches.reversed()
    }
}
