import Foundation
import NoteStore
import NoteSync

/// `catch-up`: a new device joins a container whose history holds many notes, until its store
/// matches, against a new clone of a git repository of the same notes as Markdown files.
///
/// The history is device A's library of notes pushed with `notes sync enable`. Each
/// repetition attaches a fresh store with `notes sync enable` (a process, timed end to end,
/// its peak memory taken by wait4(2)) and then checks that it holds what A holds. The peer
/// clones a bare repository holding the same notes, one Markdown file each, with
/// `git clone --no-local` (a transfer, as from another machine, not hard links), and counts the
/// files checked out. Repetitions alternate which side goes first.
struct CatchUpScenario: Scenario {
    func run(on bench: Workbench) throws -> ScenarioReport {
        let sizes = bench.sizes
        var report = ScenarioReport(name: "catch-up")
        report.parameters = [
            Fact(
                "histories",
                sizes.catchUpNotes.map { ReportPrinter.grouped($0) }.joined(separator: " and ") + " notes"),
            Fact("repetitions", sizes.catchUpRepetitions),
        ]
        var joins: [Int: Measurement] = [:]
        for count in sizes.catchUpNotes {
            joins[count] = try measure(notes: count, bench: bench, report: &report)
        }
        if let largest = sizes.catchUpNotes.max(), let plain = joins[largest] {
            try measureEdited(notes: largest, plain: plain, bench: bench, report: &report)
        }
        return report
    }

    /// A history of `count` notes each edited ``BenchSizes/catchUpEdits`` times (a line added
    /// to its body each time, one save per round), pushed, then written into a baseline that
    /// new devices join from, against the join from the plain history's baseline.
    private func measureEdited(notes count: Int, plain: Measurement, bench: Workbench, report: inout ScenarioReport)
        throws
    {
        let label = "\(ReportPrinter.grouped(count)) notes edited \(bench.sizes.catchUpEdits) times"
        bench.progress("catch-up: building a history of \(label)")
        let library = NoteLibrary(notes: count, collections: bench.sizes.collections, seed: 78)
        let rig = try SyncRig(bench: bench, label: "catch-up-edited")
        let deviceA = try rig.makeDevice("edited-A")
        let store = try Store(folder: deviceA)
        try library.saveNotes(to: store, collectionIDs: try library.saveCollections(to: store))
        for round in 1...bench.sizes.catchUpEdits {
            let context = store.makeContext()
            for var note in try store.fetch(ItemRequest(kind: .note)) {
                note.body = (note.body ?? "") + "\nedit \(round)"
                try context.update(note)
            }
            try context.save()
        }
        try rig.enable(deviceA, name: "A")
        let expected = try ArrivalProbe(store: deviceA).noteSummary()
        let compact = try rig.compact(deviceA)
        report.measurements.append(
            Measurement("\(label): notes sync compact on A", unit: .seconds, samples: [compact.milliseconds / 1000]))
        var seconds: [Double] = []
        for repetition in 0..<bench.sizes.catchUpRepetitions {
            bench.progress(
                "catch-up: \(label) from the baseline, "
                    + "repetition \(repetition + 1) of \(bench.sizes.catchUpRepetitions)"
            )
            let device = try rig.makeDevice("edited-new-\(repetition)")
            let joined = try rig.joinFromBaseline(
                device, name: "new \(repetition)", holding: expected, what: "the edited history")
            seconds.append(joined.milliseconds / 1000)
            bench.removeFolder(device)
        }
        let joined = Measurement(
            "\(label): notes sync enable on a new device, from the baseline", unit: .seconds, samples: seconds)
        report.measurements.append(joined)
        report.facts.append(
            Fact(
                "\(label): the baseline",
                ReportPrinter.format(
                    Double(
                        Self.bytes(
                            of: rig.cloud.appendingPathComponent(
                                "NoteCollector/baselines"))) / 1_048_576, .mebibytes)))
        report.ratios.append(
            Ratio("\(label) / without edits, joining from the baseline (medians)", joined, over: plain))
        report.targets.append(
            TargetCheck(
                name: "\(label): joining within 1.5 times the join without edits",
                met: joined.median <= 1.5 * plain.median,
                detail:
                    "\(ReportPrinter.format(joined.median, .seconds)) "
                    + "against \(ReportPrinter.format(plain.median, .seconds)) at the median"
            ))
    }

    /// Returns the joins from the baseline.
    private func measure(notes count: Int, bench: Workbench, report: inout ScenarioReport) throws -> Measurement {
        let label = ReportPrinter.grouped(count)
        bench.progress("catch-up: building a history of \(label) notes")
        let library = NoteLibrary(notes: count, collections: bench.sizes.collections, seed: 77)
        let rig = try SyncRig(bench: bench, label: "catch-up-\(count)")
        let deviceA = try rig.makeDevice("A")
        let store = try Store(folder: deviceA)
        try library.saveNotes(to: store, collectionIDs: try library.saveCollections(to: store))
        let pushed = try rig.enable(deviceA, name: "A")
        let expected = try ArrivalProbe(store: deviceA).noteSummary()
        let peer = try GitPeer(folder: try bench.makeFolder("catch-up-git-\(count)"), bench: bench)
        try peer.seed(notes: library.notes.map { (name: $0.name, body: $0.body) })
        let logs = try FileManager.default.subpathsOfDirectory(atPath: rig.cloud.path).filter { $0.hasSuffix(".log") }
        report.facts.append(
            Fact(
                "\(label) notes: the history",
                "\(ReportPrinter.grouped(pushed.exportedLogs)) logs, "
                    + ReportPrinter.format(Double(Self.bytes(of: rig.cloud)) / 1_048_576, .mebibytes)
                    + " in \(logs.count) log files"))

        // First by the logs alone, then from a baseline that A writes.
        let replayed = try joinRepeatedly(
            label: label, rig: rig, expected: expected, peer: peer, count: count, bench: bench)
        bench.progress("catch-up: \(label) notes, A writes a baseline")
        let compact = try rig.compact(deviceA)
        report.measurements.append(
            Measurement(
                "\(label) notes: notes sync compact on A", unit: .seconds, samples: [compact.milliseconds / 1000]))
        report.facts.append(
            Fact(
                "\(label) notes: the baseline",
                ReportPrinter.format(
                    Double(
                        Self.bytes(
                            of: rig.cloud.appendingPathComponent(
                                "NoteCollector/baselines"))) / 1_048_576, .mebibytes)
                    + " (the store holding the notes: "
                    + ReportPrinter.format(Double(Self.bytes(of: deviceA)) / 1_048_576, .mebibytes) + ")"))
        let fromBaseline = try joinRepeatedly(
            label: label, rig: rig, expected: expected, peer: peer, count: count, bench: bench, fromBaseline: true)
        let replay = Measurement(
            "\(label) notes: notes sync enable on a new device, by the logs", unit: .seconds, samples: replayed.notes)
        let joined = Measurement(
            "\(label) notes: notes sync enable on a new device, from the baseline", unit: .seconds,
            samples: fromBaseline.notes)
        let cloned = Measurement(
            "\(label) notes: git clone of the Markdown files", unit: .seconds, samples: replayed.git + fromBaseline.git)
        report.measurements += [
            replay,
            Measurement(
                "\(label) notes: peak memory of notes sync enable by the logs", unit: .mebibytes,
                samples: replayed.memory),
            joined,
            Measurement(
                "\(label) notes: peak memory of notes sync enable from the baseline", unit: .mebibytes,
                samples: fromBaseline.memory),
            cloned,
        ]
        report.ratios.append(Ratio("\(label) notes: git / notes by the logs (medians)", cloned, over: replay))
        report.ratios.append(Ratio("\(label) notes: git / notes from the baseline (medians)", cloned, over: joined))
        report.facts.append(
            Fact(
                "\(label) notes: the new device took in",
                "\(ReportPrinter.format(Double(count) / replay.median, .perSecond, unit: false)) notes/s by the logs, "
                    + "\(ReportPrinter.format(Double(count) / joined.median, .perSecond, unit: false)) "
                    + "notes/s from the baseline"
            ))
        report.targets.append(
            TargetCheck(
                name: "\(label) notes: a new device joins from the baseline in under a second", met: joined.median < 1,
                detail: "\(ReportPrinter.format(joined.median, .seconds)) at the median"))
        report.targets.append(
            TargetCheck(
                name: "\(label) notes: joining from the baseline at least 10 times faster than git clone",
                met: cloned.median >= 10 * joined.median,
                detail:
                    "git clone \(ReportPrinter.format(cloned.median, .seconds)), "
                    + "notes \(ReportPrinter.format(joined.median, .seconds)) at the median"
            ))

        // Compacted: the new devices have said what they applied, so A's logs go; the
        // container against a store that holds the same notes (a device joined from it).
        bench.progress("catch-up: \(label) notes, A compacts")
        try rig.compact(deviceA)
        let holder = try rig.makeDevice("holder")
        try rig.enable(holder, name: "holder")
        let container = Double(Self.bytes(of: rig.cloud.appendingPathComponent(CloudContainer.defaultName)))
        let held = Double(Self.bytes(of: holder))
        report.facts.append(
            Fact(
                "\(label) notes: the container after compaction",
                ReportPrinter.format(container / 1_048_576, .mebibytes) + " (a store holding the notes: "
                    + ReportPrinter.format(held / 1_048_576, .mebibytes) + ")"))
        report.targets.append(
            TargetCheck(
                name: "\(label) notes: the container after compaction at most 1.5 times a store holding the notes",
                met: container <= 1.5 * held,
                detail: String(format: "%.2f times", container / held)))
        bench.removeFolder(holder)
        return joined
    }

    /// New devices join the container, one per repetition, alternating with git clones of the
    /// peer; returns the seconds of each and the peak memory of notes.
    private func joinRepeatedly(
        label: String, rig: SyncRig, expected: NoteSummary, peer: GitPeer, count: Int, bench: Workbench,
        fromBaseline: Bool = false
    ) throws -> (notes: [Double], memory: [Double], git: [Double]) {
        var notesSeconds: [Double] = []
        var memory: [Double] = []
        var gitSeconds: [Double] = []
        let way = fromBaseline ? "from the baseline" : "by the logs"
        for repetition in 0..<bench.sizes.catchUpRepetitions {
            bench.progress(
                "catch-up: \(label) notes \(way), repetition \(repetition + 1) of \(bench.sizes.catchUpRepetitions)")
            let notesFirst = repetition % 2 == 0
            if !notesFirst { gitSeconds.append(try peer.timeClone(expecting: count) / 1000) }
            let device = try rig.makeDevice("new-\(repetition)")
            let joined = try rig.enable(device, name: "new \(repetition)")
            guard joined.process.output.contains("started from the baseline") == fromBaseline else {
                throw BenchError.unexpected("the new device did not join \(way): \(joined.process.output)")
            }
            let found = try ArrivalProbe(store: device).noteSummary()
            guard found == expected else {
                throw BenchError.unexpected(
                    "the new device holds \(found) after joining \(way), not \(expected) as A does")
            }
            notesSeconds.append(joined.milliseconds / 1000)
            memory.append(joined.peakMebibytes)
            bench.removeFolder(device)
            if notesFirst { gitSeconds.append(try peer.timeClone(expecting: count) / 1000) }
        }
        return (notesSeconds, memory, gitSeconds)
    }

    /// The bytes of every file under `folder`.
    static func bytes(of folder: URL) -> Int {
        let files = FileManager.default.enumerator(at: folder, includingPropertiesForKeys: [.fileSizeKey])
        var total = 0
        while let file = files?.nextObject() as? URL {
            total += (try? file.resourceValues(forKeys: [.fileSizeKey]).fileSize) ?? 0
        }
        return total
    }
}
