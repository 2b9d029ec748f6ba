extension DiffFile {
    /// Slides each run of changed lines as far down as equal lines allow, merging runs it
    /// meets, then back up to the lowest place where it lines up with a change of `other`,
    /// when it passed one; `other`'s runs are walked in step, as git's `xdl_change_compact`.
    ///
    /// The diff stays a correct one: a run moves by one line only when the line it leaves
    /// equals the line it takes.
    mutating func compact(against other: DiffFile) {
        var group = firstGroup()
        var otherGroup = other.firstGroup()
        while true {
            if group.end != group.start { compact(&group, &otherGroup, other) }
            guard let next = nextGroup(after: group) else { break }
            group = next
            guard let otherNext = other.nextGroup(after: otherGroup) else {
                preconditionFailure("the changed runs of two diffed texts fell out of step")
            }
            otherGroup = otherNext
        }
    }

    /// A run of changed lines, `start..<end`, possibly empty, between unchanged lines.
    struct Group {
        var start: Int
        var end: Int
    }

    private mutating func compact(_ group: inout Group, _ otherGroup: inout Group, _ other: DiffFile) {
        var earliestEnd: Int
        var endMatchingOther = -1
        var size: Int
        repeat {
            size = group.end - group.start
            endMatchingOther = -1
            while slideUp(&group) { otherGroup = other.previousGroup(before: otherGroup)! }
            earliestEnd = group.end
            if otherGroup.end > otherGroup.start { endMatchingOther = group.end }
            while slideDown(&group) {
                otherGroup = other.nextGroup(after: otherGroup)!
                if otherGroup.end > otherGroup.start { endMatchingOther = group.end }
            }
        } while size != group.end - group.start
        if group.end != earliestEnd, endMatchingOther != -1 {
            while otherGroup.end == otherGroup.start {
                guard slideUp(&group) else { preconditionFailure("a run lost the change it lined up with") }
                otherGroup = other.previousGroup(before: otherGroup)!
            }
        }
    }

    func firstGroup() -> Group {
        var end = 0
        while isChanged(end) { end += 1 }
        return Group(start: 0, end: end)
    }

    func nextGroup(after group: Group) -> Group? {
        guard group.end != count else { return nil }
        var end = group.end + 1
        while isChanged(end) { end += 1 }
        return Group(start: group.end + 1, end: end)
    }

    func previousGroup(before group: Group) -> Group? {
        guard group.start != 0 else { return nil }
        var start = group.start - 1
        while isChanged(start - 1) { start -= 1 }
        return Group(start: start, end: group.start - 1)
    }

    /// Moves the run one line down when the line after it equals its first line.
    private mutating func slideDown(_ group: inout Group) -> Bool {
        guard group.end < count, lines[group.start] == lines[group.end] else { return false }
        changed[group.start + 1] = false
        changed[group.end + 1] = true
        group.start += 1
        group.end += 1
        while isChanged(group.end) { group.end += 1 }
        return true
    }

    /// Moves the run one line up when the line before it equals its last line.
    private mutating func slideUp(_ group: inout Group) -> Bool {
        guard group.start > 0, lines[group.start - 1] == lines[group.end - 1] else { return false }
        group.start -= 1
        group.end -= 1
        changed[group.start + 1] = true
        changed[group.end + 1] = false
        while isChanged(group.start - 1) { group.start -= 1 }
        return true
    }
}
