/// A stretch of a three-way merge where the sides changed the base: the lines of each side
/// that stand there and which side the merge takes (git's `xdl_do_merge`).
struct MergeRegion: Equatable {
    enum Kind {
        /// Only the older side changed this stretch.
        case older
        /// Only the newer side changed it.
        case newer
        /// Both changed it to the same lines.
        case same
        /// Both changed it, differently.
        case conflict
    }

    var kind: Kind
    var older: Range<Int>
    var newer: Range<Int>

    /// The regions of two sides' hunks against one base, in order: a hunk of one side that
    /// neither overlaps nor touches a hunk of the other is its side's alone; hunks that do
    /// form one region, a conflict unless both are the same change. A conflict is then cut
    /// down to the lines where the sides differ, and conflicts close together are joined.
    static func regions(older: [LineHunk], newer: [LineHunk], lines: NumberedLines) -> [MergeRegion] {
        var regions: [MergeRegion] = []
        var i = 0
        var j = 0
        while i < older.count && j < newer.count {
            let x = older[i]
            let y = newer[j]
            if x.old.upperBound < y.old.lowerBound {
                append(
                    .older, older: x.new, newer: shifted(x.old, by: y.new.lowerBound - y.old.lowerBound), to: &regions)
                i += 1
                continue
            }
            if y.old.upperBound < x.old.lowerBound {
                append(
                    .newer, older: shifted(y.old, by: x.new.lowerBound - x.old.lowerBound), newer: y.new, to: &regions)
                j += 1
                continue
            }
            if x.old != y.old || !lines.older[x.new].elementsEqual(lines.newer[y.new]) {
                let start = min(x.old.lowerBound, y.old.lowerBound)
                let end = max(x.old.upperBound, y.old.upperBound)
                append(.conflict, older: widened(x, to: start..<end), newer: widened(y, to: start..<end), to: &regions)
            }
            if x.old.upperBound >= y.old.upperBound { j += 1 }
            if y.old.upperBound >= x.old.upperBound { i += 1 }
        }
        for x in older[i...] {
            append(.older, older: x.new, newer: shifted(x.old, by: lines.newer.count - lines.base.count), to: &regions)
        }
        for y in newer[j...] {
            append(.newer, older: shifted(y.old, by: lines.older.count - lines.base.count), newer: y.new, to: &regions)
        }
        return joiningCloseConflicts(refiningConflicts(regions, lines: lines), lines: lines)
    }

    private static func shifted(_ range: Range<Int>, by offset: Int) -> Range<Int> {
        (range.lowerBound + offset)..<(range.upperBound + offset)
    }

    /// The lines of a side that stand where its hunk, widened to the base lines `base`, is.
    private static func widened(_ hunk: LineHunk, to base: Range<Int>) -> Range<Int> {
        let lower = hunk.new.lowerBound - (hunk.old.lowerBound - base.lowerBound)
        let upper = hunk.new.upperBound + (base.upperBound - hunk.old.upperBound)
        return lower..<upper
    }

    /// Adds a region, joined into the last one (as a conflict, unless of the same kind) when
    /// it touches it on either side.
    private static func append(_ kind: Kind, older: Range<Int>, newer: Range<Int>, to regions: inout [MergeRegion]) {
        if var last = regions.last,
            older.lowerBound <= last.older.upperBound || newer.lowerBound <= last.newer.upperBound
        {
            if kind != last.kind { last.kind = .conflict }
            last.older = last.older.lowerBound..<older.upperBound
            last.newer = last.newer.lowerBound..<newer.upperBound
            regions[regions.count - 1] = last
        } else {
            regions.append(MergeRegion(kind: kind, older: older, newer: newer))
        }
    }

    /// Each conflict with lines on both sides, cut by a diff of its two sides into the
    /// stretches that differ; a conflict whose sides are equal is no conflict.
    private static func refiningConflicts(_ regions: [MergeRegion], lines: NumberedLines) -> [MergeRegion] {
        var result: [MergeRegion] = []
        for region in regions {
            guard region.kind == .conflict, !region.older.isEmpty, !region.newer.isEmpty else {
                result.append(region)
                continue
            }
            let hunks = MergeLineDiff.hunks(
                from: Array(lines.older[region.older]), to: Array(lines.newer[region.newer]))
            if hunks.isEmpty {
                result.append(MergeRegion(kind: .same, older: region.older, newer: region.newer))
                continue
            }
            for hunk in hunks {
                result.append(
                    MergeRegion(
                        kind: .conflict, older: shifted(hunk.old, by: region.older.lowerBound),
                        newer: shifted(hunk.new, by: region.newer.lowerBound)))
            }
        }
        return result
    }

    /// Joins neighbouring conflicts that at most three lines, or only lines without a letter
    /// or digit, keep apart: one conflict reads more easily than two (git's
    /// `xdl_simplify_non_conflicts`).
    private static func joiningCloseConflicts(_ regions: [MergeRegion], lines: NumberedLines) -> [MergeRegion] {
        var result: [MergeRegion] = []
        for region in regions {
            if var last = result.last, last.kind == .conflict, region.kind == .conflict,
                region.older.lowerBound - last.older.upperBound <= 3
                    || !lines.older[last.older.upperBound..<region.older.lowerBound].contains(where: {
                        lines.hasLetterOrDigit[$0]
                    })
            {
                last.older = last.older.lowerBound..<region.older.upperBound
                last.newer = last.newer.lowerBound..<region.newer.upperBound
                result[result.count - 1] = last
            } else {
                result.append(region)
            }
        }
        return result
    }
}
