/// A unified diff of two texts, as `diff -u` prints it.
public enum UnifiedDiff {
    /// The lines of the diff, without line breaks; none when the texts are equal.
    public static func render(old: String, new: String, oldLabel: String, newLabel: String, context: Int = 3)
        -> [String]
    {
        let a = TextLines.split(old)
        let b = TextLines.split(new)
        let hunks = LineDiff.hunks(from: a, to: b)
        guard !hunks.isEmpty else { return [] }
        var output = ["--- \(oldLabel)", "+++ \(newLabel)"]
        var index = 0
        while index < hunks.count {
            // Hunks closer than twice the context print as one.
            var group = [hunks[index]]
            index += 1
            while index < hunks.count, hunks[index].old.lowerBound - group.last!.old.upperBound <= 2 * context {
                group.append(hunks[index])
                index += 1
            }
            let oldStart = max(0, group[0].old.lowerBound - context)
            let oldEnd = min(a.count, group.last!.old.upperBound + context)
            let newStart = max(0, group[0].new.lowerBound - context)
            let newEnd = min(b.count, group.last!.new.upperBound + context)
            output.append("@@ -\(range(oldStart, oldEnd - oldStart)) +\(range(newStart, newEnd - newStart)) @@")
            var position = oldStart
            for hunk in group {
                for line in a[position..<hunk.old.lowerBound] { output += text(" ", line) }
                for line in a[hunk.old] { output += text("-", line) }
                for line in b[hunk.new] { output += text("+", line) }
                position = hunk.old.upperBound
            }
            for line in a[position..<oldEnd] { output += text(" ", line) }
        }
        return output
    }

    /// GNU diff's numbering: `start,count` from 1; a single line is `start`; an empty range is
    /// the line before it, `start-1,0`.
    private static func range(_ start: Int, _ count: Int) -> String {
        if count == 0 { return "\(start),0" }
        if count == 1 { return "\(start + 1)" }
        return "\(start + 1),\(count)"
    }

    private static func text(_ mark: String, _ line: Substring) -> [String] {
        guard line.hasSuffix("\n") else { return [mark + line, "\\ No newline at end of file"] }
        return [mark + line.dropLast()]
    }
}
