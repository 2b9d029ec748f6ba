/// The line diff that a three-way merge works from: the one `git merge-file` computes, so that
/// both merges find the same changes and agree on what merges cleanly.
///
/// Myers' linear-space algorithm, which splits at a middle snake and recurses
/// (http://www.xmailserver.org/diff2.pdf, section 4b), over the lines left once the common
/// start and end are taken off and lines that cannot match are set aside as changed: a line
/// that the other text lacks, and a line found many times in the other text amid lines that
/// are mostly changed (as GNU diff's `discard_confusing_lines`). Past a cost it stops at a
/// good enough split, so that large texts take bounded time. The changes are then slid as far
/// down as lines allow, and back up to meet a change of the other text when one is in reach,
/// as git's `xdl_change_compact` does; the merge relies on both sides being slid the same way.
///
/// Lines are numbers here: equal numbers for lines with equal bytes.
enum MergeLineDiff {
    /// The hunks that turn `old` into `new`, in order, none empty.
    static func hunks(from old: [Int], to new: [Int]) -> [LineHunk] {
        var oldFile = DiffFile(lines: old)
        var newFile = DiffFile(lines: new)
        markChanges(&oldFile, &newFile)
        oldFile.compact(against: newFile)
        newFile.compact(against: oldFile)
        return script(oldFile, newFile)
    }

    /// The hunks read off the changed marks of both texts.
    private static func script(_ old: DiffFile, _ new: DiffFile) -> [LineHunk] {
        var result: [LineHunk] = []
        var i = 0
        var j = 0
        while i < old.count || j < new.count {
            if old.isChanged(i) || new.isChanged(j) {
                let startOld = i
                let startNew = j
                while old.isChanged(i) { i += 1 }
                while new.isChanged(j) { j += 1 }
                result.append(LineHunk(old: startOld..<i, new: startNew..<j))
            } else {
                i += 1
                j += 1
            }
        }
        return result
    }

    /// Marks the changed lines of both texts.
    private static func markChanges(_ old: inout DiffFile, _ new: inout DiffFile) {
        var start = 0
        while start < old.count, start < new.count, old.lines[start] == new.lines[start] { start += 1 }
        var end = 0
        while end < old.count - start, end < new.count - start,
            old.lines[old.count - 1 - end] == new.lines[new.count - 1 - end]
        {
            end += 1
        }
        let oldMiddle = start..<(old.count - end)
        let newMiddle = start..<(new.count - end)
        let oldKept = old.keepMatchable(in: oldMiddle, other: new.lines)
        let newKept = new.keepMatchable(in: newMiddle, other: old.lines)
        var search = MiddleSnakeSearch(old: oldKept.map { old.lines[$0] }, new: newKept.map { new.lines[$0] })
        var changedOld: [Int] = []
        var changedNew: [Int] = []
        search.compare(
            0, oldKept.count, 0, newKept.count, minimal: false, changedOld: &changedOld, changedNew: &changedNew)
        for index in changedOld { old.changed[oldKept[index] + 1] = true }
        for index in changedNew { new.changed[newKept[index] + 1] = true }
    }
}

/// One text of a diff: its lines and which of them are changed.
struct DiffFile {
    let lines: [Int]
    /// Whether each line is changed, with an unchanged line before the first and after the last.
    var changed: [Bool]

    init(lines: [Int]) {
        self.lines = lines
        changed = [Bool](repeating: false, count: lines.count + 2)
    }

    var count: Int { lines.count }

    func isChanged(_ index: Int) -> Bool { changed[index + 1] }

    /// The lines of `range` that the search may match (the others are marked changed): a line
    /// found in `other`, unless found there many times and standing amid lines that are not.
    mutating func keepMatchable(in range: Range<Int>, other: [Int]) -> [Int] {
        guard !range.isEmpty else { return [] }
        let limit = min(Self.roughSquareRoot(count), 1024)
        var counts: [Int: Int] = [:]
        for line in other { counts[line, default: 0] += 1 }
        // 0: no match in the other text; 1: some; 2: many.
        let kinds = range.map { index -> UInt8 in
            let matches = counts[lines[index]] ?? 0
            return matches == 0 ? 0 : matches >= limit ? 2 : 1
        }
        var kept: [Int] = []
        for offset in kinds.indices {
            if kinds[offset] == 1 || (kinds[offset] == 2 && !Self.isAmidChanges(kinds, offset)) {
                kept.append(range.lowerBound + offset)
            } else {
                changed[range.lowerBound + offset + 1] = true
            }
        }
        return kept
    }

    /// Whether a line found many times stands in runs of lines without a match (before and
    /// after it, within 100 lines) that make up more than a quarter of the run.
    private static func isAmidChanges(_ kinds: [UInt8], _ index: Int) -> Bool {
        let low = max(0, index - 100)
        let high = min(kinds.count - 1, index + 100)
        func run(_ indexes: some Sequence<Int>) -> (unmatched: Int, many: Int) {
            var unmatched = 0
            var many = 1
            for other in indexes {
                if kinds[other] == 0 { unmatched += 1 } else if kinds[other] == 2 { many += 1 } else { break }
            }
            return (unmatched, many)
        }
        let before = run(stride(from: index - 1, through: low, by: -1))
        if before.unmatched == 0 { return false }
        let after = run(stride(from: index + 1, through: high, by: 1))
        if after.unmatched == 0 { return false }
        let many = before.many + after.many
        return many * 4 < many + before.unmatched + after.unmatched
    }

    /// A power of two near the square root of `n` (1 for 0).
    static func roughSquareRoot(_ n: Int) -> Int {
        var result = 1
        var rest = n
        while rest > 0 {
            result <<= 1
            rest >>= 2
        }
        return result
    }
}
