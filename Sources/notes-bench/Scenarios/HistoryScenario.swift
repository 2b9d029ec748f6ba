import Foundation
import NoteStore
import NoteSync

/// `history`: what keeping every version costs, and what a merge costs.
///
/// - History growth: a note of about 10 KB (200 lines) gets one-line edits, each a save through
///   the store API; the bytes of history stored per edit (versions are line deltas, with a
///   whole text every 50) against the note's size. Target: under 1 KB per edit.
/// - The merge of two concurrent edits of a note of about 100 KB (2,500 lines): devices A and B
///   share a container in this process; A changes a line near the top, B one near the bottom,
///   then A exports and B syncs, which applies A's version, finds it concurrent with its own
///   and merges the two three-way. Timed: B's `sync now` (its export, the import and the merge);
///   in the same round, the floor: a sequential edit of the same note on A imported by B (its
///   version descends from B's: no merge). The difference is the merge.
struct HistoryScenario: Scenario {
    static let targetBytesPerEdit = 1024.0

    func run(on bench: Workbench) throws -> ScenarioReport {
        var report = ScenarioReport(name: "history")
        let edits = bench.sizes.historyEdits
        let rounds = bench.sizes.mergeRounds
        report.parameters = [
            Fact("one-line edits of a 10 KB note", edits), Fact("merge rounds on a 100 KB note", rounds),
        ]
        try measureGrowth(edits: edits, bench: bench, into: &report)
        try measureMerges(rounds: rounds, bench: bench, into: &report)
        return report
    }

    /// Lines of about 50 bytes, numbered so that every line differs.
    private static func lines(_ count: Int, _ text: inout TextGenerator) -> [String] {
        (0..<count).map {
            "\($0): " + text.body(words: 6...8, marked: false).replacingOccurrences(of: "\n", with: " ") + "\n"
        }
    }

    private func measureGrowth(edits: Int, bench: Workbench, into report: inout ScenarioReport) throws {
        bench.progress("history: \(edits) one-line edits of a 10 KB note")
        let folder = try bench.makeFolder("history-growth")
        defer { bench.removeFolder(folder) }
        let store = try Store(folder: folder)
        var text = TextGenerator(seed: 31)
        var lines = Self.lines(250, &text)
        let note = try store.addNote(named: "Long note", body: lines.joined(), in: nil)
        let before = try store.historyBytes(of: note.id)
        var samples: [Double] = []
        var random = SystemRandomNumberGenerator()
        for edit in 0..<edits {
            lines[Int.random(in: 0..<lines.count, using: &random)] =
                "edit \(edit): " + text.body(words: 6...8, marked: false) + "\n"
            let body = lines.joined()
            samples.append(try Stopwatch.milliseconds { _ = try store.edit(note.id, body: body) })
        }
        let added = try store.historyBytes(of: note.id) - before
        let perEdit = Double(added) / Double(edits)
        let size = lines.joined().utf8.count
        report.measurements.append(
            Measurement("Store.edit of one line (one save, with its version)", unit: .milliseconds, samples: samples))
        report.facts += [
            Fact("note size", ReportPrinter.format(Double(size), .bytes)),
            Fact(
                "history stored for \(ReportPrinter.grouped(edits)) edits",
                ReportPrinter.format(Double(added), .bytes)),
            Fact("history per edit", ReportPrinter.format(perEdit, .bytes)),
            Fact("versions", try store.history(of: note.id).count),
        ]
        report.targets.append(
            TargetCheck(
                name: "history under 1 KB per one-line edit of a 10 KB note", met: perEdit < Self.targetBytesPerEdit,
                detail: String(format: "%.0f bytes per edit over %d edits of a %d-byte note", perEdit, edits, size)))
    }

    private func measureMerges(rounds: Int, bench: Workbench, into report: inout ScenarioReport) throws {
        bench.progress("history: \(rounds) merges of a 100 KB note")
        let folder = try bench.makeFolder("history-merge")
        defer { bench.removeFolder(folder) }
        let cloud = folder.appendingPathComponent("cloud")
        try FileManager.default.createDirectory(at: cloud, withIntermediateDirectories: true)
        let a = try Store(folder: folder.appendingPathComponent("a"))
        let b = try Store(folder: folder.appendingPathComponent("b"))
        let syncA = SyncEngine(store: a)
        let syncB = SyncEngine(store: b)
        try syncA.enable(cloud: cloud, deviceName: "a")
        try syncB.enable(cloud: cloud, deviceName: "b")
        var text = TextGenerator(seed: 37)
        var lines = Self.lines(2500, &text)
        let note = try a.addNote(named: "Long note", body: lines.joined(), in: nil)
        try syncA.syncNow()
        try syncB.syncNow()
        var merges: [Double] = []
        var floors: [Double] = []
        for round in 0..<rounds {
            // The floor: a sequential edit on A, imported by B with no merge.
            lines[1250] = "sequential \(round)\n"
            _ = try a.edit(note.id, body: lines.joined())
            try syncA.syncNow()
            floors.append(try Stopwatch.milliseconds { try syncB.syncNow() })
            // Concurrent edits of different lines: B merges when A's arrives.
            var onA = lines
            onA[10] = "top, on A, round \(round)\n"
            var onB = lines
            onB[2490] = "bottom, on B, round \(round)\n"
            _ = try a.edit(note.id, body: onA.joined())
            _ = try b.edit(note.id, body: onB.joined())
            try syncA.syncNow()
            merges.append(try Stopwatch.milliseconds { try syncB.syncNow() })
            try syncA.syncNow()
            var merged = lines
            merged[10] = onA[10]
            merged[2490] = onB[2490]
            guard try a.item(note.id).body == merged.joined(), try b.item(note.id).body == merged.joined() else {
                throw BenchError.unexpected("the merge of round \(round) did not keep both edits on both devices")
            }
            lines = merged
        }
        let merge = Measurement(
            "B's sync now: export, import of A's concurrent version and the merge", unit: .milliseconds, samples: merges
        )
        let floor = Measurement(
            "B's sync now: import of a sequential version (no merge)", unit: .milliseconds, samples: floors)
        report.measurements += [merge, floor]
        report.ratios.append(Ratio("with merge / without", merge, over: floor))
        report.facts += [
            Fact("note size", ReportPrinter.format(Double(lines.joined().utf8.count), .bytes)),
            Fact(
                "merge time above the floor (medians)", ReportPrinter.format(merge.median - floor.median, .milliseconds)
            ),
        ]
    }
}
