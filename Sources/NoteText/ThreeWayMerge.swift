/// The line-based three-way merge of two versions edited from one base, as `git merge-file`
/// merges them (git-merge-file(1)).
///
/// Each side's changes against the base are found as git finds them (``MergeLineDiff``).
/// Changes of the two sides that overlap or touch in the base (or insert at the same place)
/// form one region: a region changed on one side takes that side's lines; a region changed
/// the same way on both takes those lines once. A region changed differently is cut down by a
/// diff of its two sides to the lines where they differ; what is left is a conflict, and
/// takes the lines of `newer`, the side whose stamp wins. The result is a function of the
/// three texts alone, so every device that merges the same versions gets the same text.
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
        let olderLines = TextLines.split(older)
        let newerLines = TextLines.split(newer)
        let numbered = NumberedLines(base: TextLines.split(base), older: olderLines, newer: newerLines)
        let regions = MergeRegion.regions(
            older: MergeLineDiff.hunks(from: numbered.base, to: numbered.older),
            newer: MergeLineDiff.hunks(from: numbered.base, to: numbered.newer), lines: numbered)
        // The older side's lines, with each region's lines put in place of its own.
        var output: [Substring] = []
        var conflicts = 0
        var position = 0
        for region in regions {
            output += olderLines[position..<region.older.lowerBound]
            switch region.kind {
            case .older, .same: output += olderLines[region.older]
            case .newer: output += newerLines[region.newer]
            case .conflict:
                conflicts += 1
                output += conflict(Array(olderLines[region.older]), Array(newerLines[region.newer]))
            }
            position = region.older.upperBound
        }
        output += olderLines[position...]
        return MergeResult(text: output.joined(), conflicts: conflicts)
    }
}
