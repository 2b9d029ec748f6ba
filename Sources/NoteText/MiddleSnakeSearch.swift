/// Myers' divide-and-conquer diff in linear space: find where a shortest edit path crosses the
/// middle (searching from both corners at once), then diff the two halves
/// (http://www.xmailserver.org/diff2.pdf, section 4b).
///
/// Past ``maximumCost`` edits in one search it settles for the furthest point either search
/// reached, and once an edit cost passes 256 it takes a long run of matches it has found as
/// the split, as git's xdiff does, so that two large texts far apart take bounded time.
struct MiddleSnakeSearch {
    let old: [Int]
    let new: [Int]
    /// The furthest old position reached on each diagonal (old - new), from the start and
    /// from the end; a diagonal `d` is at `d + offset`.
    private var forward: [Int]
    private var backward: [Int]
    private let offset: Int
    private let maximumCost: Int

    private static let snakeLength = 20
    private static let heuristicCost = 256

    init(old: [Int], new: [Int]) {
        self.old = old
        self.new = new
        let diagonals = old.count + new.count + 3
        forward = [Int](repeating: 0, count: diagonals)
        backward = [Int](repeating: 0, count: diagonals)
        offset = new.count + 1
        maximumCost = max(256, DiffFile.roughSquareRoot(diagonals))
    }

    /// Collects the positions of the changed lines of `old[oldStart..<oldEnd]` and
    /// `new[newStart..<newEnd]`.
    mutating func compare(
        _ oldStart: Int, _ oldEnd: Int, _ newStart: Int, _ newEnd: Int, minimal: Bool,
        changedOld: inout [Int], changedNew: inout [Int]
    ) {
        var (oldStart, oldEnd, newStart, newEnd) = (oldStart, oldEnd, newStart, newEnd)
        while oldStart < oldEnd, newStart < newEnd, old[oldStart] == new[newStart] {
            oldStart += 1
            newStart += 1
        }
        while oldStart < oldEnd, newStart < newEnd, old[oldEnd - 1] == new[newEnd - 1] {
            oldEnd -= 1
            newEnd -= 1
        }
        if oldStart == oldEnd {
            changedNew += newStart..<newEnd
        } else if newStart == newEnd {
            changedOld += oldStart..<oldEnd
        } else {
            let split = self.split(oldStart, oldEnd, newStart, newEnd, minimal: minimal)
            compare(
                oldStart, split.old, newStart, split.new, minimal: split.minimalBefore,
                changedOld: &changedOld, changedNew: &changedNew)
            compare(
                split.old, oldEnd, split.new, newEnd, minimal: split.minimalAfter,
                changedOld: &changedOld, changedNew: &changedNew)
        }
    }

    private struct Split {
        var old: Int
        var new: Int
        var minimalBefore: Bool
        var minimalAfter: Bool
    }

    /// Where to cut the box in two.
    private mutating func split(_ oldStart: Int, _ oldEnd: Int, _ newStart: Int, _ newEnd: Int, minimal: Bool) -> Split
    {
        let box = Box(oldStart: oldStart, oldEnd: oldEnd, newStart: newStart, newEnd: newEnd)
        let odd = (box.forwardMiddle - box.backwardMiddle) & 1 != 0
        var reach = Reach(
            forwardMin: box.forwardMiddle, forwardMax: box.forwardMiddle,
            backwardMin: box.backwardMiddle, backwardMax: box.backwardMiddle)
        forward[box.forwardMiddle + offset] = oldStart
        backward[box.backwardMiddle + offset] = oldEnd
        var cost = 1
        while true {
            var gotSnake = false
            if let met = stepForward(box, &reach, odd: odd, gotSnake: &gotSnake) { return met }
            if let met = stepBackward(box, &reach, odd: odd, gotSnake: &gotSnake) { return met }
            if !minimal {
                if gotSnake && cost > Self.heuristicCost, let snake = goodSnake(box, reach, cost: cost) { return snake }
                if cost >= maximumCost { return furthest(box, reach) }
            }
            cost += 1
        }
    }

    private struct Box {
        let oldStart: Int
        let oldEnd: Int
        let newStart: Int
        let newEnd: Int
        var lowest: Int { oldStart - newEnd }
        var highest: Int { oldEnd - newStart }
        var forwardMiddle: Int { oldStart - newStart }
        var backwardMiddle: Int { oldEnd - newEnd }
    }

    private struct Reach {
        var forwardMin: Int
        var forwardMax: Int
        var backwardMin: Int
        var backwardMax: Int
    }

    /// One more edit from the start, on every diagonal in reach.
    private mutating func stepForward(_ box: Box, _ reach: inout Reach, odd: Bool, gotSnake: inout Bool) -> Split? {
        if reach.forwardMin > box.lowest {
            reach.forwardMin -= 1
            forward[reach.forwardMin - 1 + offset] = -1
        } else {
            reach.forwardMin += 1
        }
        if reach.forwardMax < box.highest {
            reach.forwardMax += 1
            forward[reach.forwardMax + 1 + offset] = -1
        } else {
            reach.forwardMax -= 1
        }
        for d in stride(from: reach.forwardMax, through: reach.forwardMin, by: -2) {
            var i =
                forward[d - 1 + offset] >= forward[d + 1 + offset]
                ? forward[d - 1 + offset] + 1 : forward[d + 1 + offset]
            let before = i
            var j = i - d
            while i < box.oldEnd, j < box.newEnd, old[i] == new[j] {
                i += 1
                j += 1
            }
            if i - before > Self.snakeLength { gotSnake = true }
            forward[d + offset] = i
            if odd, reach.backwardMin <= d, d <= reach.backwardMax, backward[d + offset] <= i {
                return Split(old: i, new: j, minimalBefore: true, minimalAfter: true)
            }
        }
        return nil
    }

    /// One more edit from the end, on every diagonal in reach.
    private mutating func stepBackward(_ box: Box, _ reach: inout Reach, odd: Bool, gotSnake: inout Bool) -> Split? {
        if reach.backwardMin > box.lowest {
            reach.backwardMin -= 1
            backward[reach.backwardMin - 1 + offset] = Int.max
        } else {
            reach.backwardMin += 1
        }
        if reach.backwardMax < box.highest {
            reach.backwardMax += 1
            backward[reach.backwardMax + 1 + offset] = Int.max
        } else {
            reach.backwardMax -= 1
        }
        for d in stride(from: reach.backwardMax, through: reach.backwardMin, by: -2) {
            var i =
                backward[d - 1 + offset] < backward[d + 1 + offset]
                ? backward[d - 1 + offset] : backward[d + 1 + offset] - 1
            let before = i
            var j = i - d
            while i > box.oldStart, j > box.newStart, old[i - 1] == new[j - 1] {
                i -= 1
                j -= 1
            }
            if before - i > Self.snakeLength { gotSnake = true }
            backward[d + offset] = i
            if !odd, reach.forwardMin <= d, d <= reach.forwardMax, i <= forward[d + offset] {
                return Split(old: i, new: j, minimalBefore: true, minimalAfter: true)
            }
        }
        return nil
    }

    /// A diagonal that got far from its corner and ends in a long run of matches, if any.
    private func goodSnake(_ box: Box, _ reach: Reach, cost: Int) -> Split? {
        var best = 0
        var found: Split?
        for d in stride(from: reach.forwardMax, through: reach.forwardMin, by: -2) {
            let i = forward[d + offset]
            let j = i - d
            let value = (i - box.oldStart) + (j - box.newStart) - abs(d - box.forwardMiddle)
            guard value > 4 * cost, value > best, box.oldStart + Self.snakeLength <= i, i < box.oldEnd,
                box.newStart + Self.snakeLength <= j, j < box.newEnd,
                (1...Self.snakeLength).allSatisfy({ old[i - $0] == new[j - $0] })
            else { continue }
            best = value
            found = Split(old: i, new: j, minimalBefore: true, minimalAfter: false)
        }
        if let found { return found }
        for d in stride(from: reach.backwardMax, through: reach.backwardMin, by: -2) {
            let i = backward[d + offset]
            let j = i - d
            let value = (box.oldEnd - i) + (box.newEnd - j) - abs(d - box.backwardMiddle)
            guard value > 4 * cost, value > best, box.oldStart < i, i <= box.oldEnd - Self.snakeLength,
                box.newStart < j, j <= box.newEnd - Self.snakeLength,
                (0..<Self.snakeLength).allSatisfy({ old[i + $0] == new[j + $0] })
            else { continue }
            best = value
            found = Split(old: i, new: j, minimalBefore: false, minimalAfter: true)
        }
        return found
    }

    /// The point furthest from its corner that either search reached.
    private func furthest(_ box: Box, _ reach: Reach) -> Split {
        var forwardBest = -1
        var forwardOld = -1
        for d in stride(from: reach.forwardMax, through: reach.forwardMin, by: -2) {
            var i = min(forward[d + offset], box.oldEnd)
            var j = i - d
            if box.newEnd < j {
                i = box.newEnd + d
                j = box.newEnd
            }
            if forwardBest < i + j {
                forwardBest = i + j
                forwardOld = i
            }
        }
        var backwardBest = Int.max
        var backwardOld = Int.max
        for d in stride(from: reach.backwardMax, through: reach.backwardMin, by: -2) {
            var i = max(box.oldStart, backward[d + offset])
            var j = i - d
            if j < box.newStart {
                i = box.newStart + d
                j = box.newStart
            }
            if i + j < backwardBest {
                backwardBest = i + j
                backwardOld = i
            }
        }
        if (box.oldEnd + box.newEnd) - backwardBest < forwardBest - (box.oldStart + box.newStart) {
            return Split(old: forwardOld, new: forwardBest - forwardOld, minimalBefore: true, minimalAfter: false)
        }
        return Split(old: backwardOld, new: backwardBest - backwardOld, minimalBefore: false, minimalAfter: true)
    }
}
