/// The line-based three-way merge of two versions edited from one base (diff3).
///
/// Each side's changes against the base are found with ``LineDiff``. Changes of the two sides
/// that overlap or touch in the base (or insert at the same place) form one region: a region
/// changed on one side takes that side's lines; a region changed the same way on both takes
/// those lines; a region changed differently is a conflict, and takes the lines of `newer`,
/// the side whose stamp wins.
public enum ThreeWayMerge {
    public static func merge(base: String, older: String, newer: String) -> MergeResult {
        merge(base: base, older: older, newer: newer) { _, newerText in newerText }
    }

    /// The merge as a person resolves it: each conflicting region holds both sides' lines
    /// between git's conflict markers (`<<<<<<< olderLabel`, `=======`, `>>>>>>> newerLabel`);
    /// everything else merges as ``merge(base:older:newer:)`` does.
    public static func markingConflicts(
        base: String, older: String, newer: String, olderLabel: String, newerLabel: String
    ) -> MergeResult {
        merge(base: base, older: older, newer: newer) { olderText, newerText in
            func ended(_ lines: [Substring]) -> [Substring] {
                guard let last = lines.last, !last.hasSuffix("\n") else { return lines }
                return lines.dropLast() + [last + "\n"]
            }
            return ["<<<<<<< \(olderLabel)\n"] + ended(olderText) + ["=======\n"] + ended(newerText)
                + [">>>>>>> \(newerLabel)\n"]
        }
    }

    private static func merge(
        base: String, older: String, newer: String, conflict: ([Substring], [Substring]) -> [Substring]
    ) -> MergeResult {
        // Texts compare by their bytes: the merge gives back exactly what was written.
        if older.utf8.elementsEqual(newer.utf8) { return MergeResult(text: newer, conflicts: 0) }
        if base.utf8.elementsEqual(older.utf8) { return MergeResult(text: newer, conflicts: 0) }
        if base.utf8.elementsEqual(newer.utf8) { return MergeResult(text: older, conflicts: 0) }
        let baseLines = TextLines.split(base)
        let olderLines = TextLines.split(older)
        let newerLines = TextLines.split(newer)
        let changes = (LineDiff.hunks(from: baseLines, to: olderLines).map { Side(hunk: $0, isNewer: false) }
            + LineDiff.hunks(from: baseLines, to: newerLines).map { Side(hunk: $0, isNewer: true) })
            .sorted { ($0.hunk.old.lowerBound, $0.hunk.old.upperBound) < ($1.hunk.old.lowerBound, $1.hunk.old.upperBound) }
        var output: [Substring] = []
        var conflicts = 0
        var position = 0
        var index = 0
        while index < changes.count {
            // A region: changes that overlap or touch the ones before it.
            var region = [changes[index]]
            var end = changes[index].hunk.old.upperBound
            index += 1
            while index < changes.count, changes[index].hunk.old.lowerBound <= end {
                end = max(end, changes[index].hunk.old.upperBound)
                region.append(changes[index])
                index += 1
            }
            let start = region[0].hunk.old.lowerBound
            output += baseLines[position..<start]
            let olderHunks = region.filter { !$0.isNewer }.map(\.hunk)
            let newerHunks = region.filter(\.isNewer).map(\.hunk)
            let olderText = apply(olderHunks, base: baseLines, lines: olderLines, region: start..<end)
            let newerText = apply(newerHunks, base: baseLines, lines: newerLines, region: start..<end)
            if olderHunks.isEmpty {
                output += newerText
            } else if newerHunks.isEmpty {
                output += olderText
            } else {
                let same = olderText.count == newerText.count && zip(olderText, newerText).allSatisfy(LineDiff.same)
                if same {
                    output += newerText
                } else {
                    conflicts += 1
                    output += conflict(olderText, newerText)
                }
            }
            position = end
        }
        output += baseLines[position...]
        return MergeResult(text: output.joined(), conflicts: conflicts)
    }

    private struct Side {
        let hunk: LineHunk
        let isNewer: Bool
    }

    /// The lines one side makes of the base region, from its hunks inside it.
    private static func apply(_ hunks: [LineHunk], base: [Substring], lines: [Substring], region: Range<Int>) -> [Substring] {
        var result: [Substring] = []
        var position = region.lowerBound
        for hunk in hunks {
            result += base[position..<hunk.old.lowerBound]
            result += lines[hunk.new]
            position = hunk.old.upperBound
        }
        result += base[position..<region.upperBound]
        return result
    }
}
