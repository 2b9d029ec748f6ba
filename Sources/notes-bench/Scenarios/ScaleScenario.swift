import Foundation
import NoteStore

/// `scale`: how each cost grows with the store, from 10,000 to 100,000 to 1,000,000 notes, a
/// collection of about 1,000 notes for every 1,000 (so that a collection's listing is the same
/// size at every step).
///
/// At each size, device A's store is built through the store's bulk path (a save per 100,000
/// notes), attached to a container with `notes sync enable` (which pushes its notes) and
/// compacted into a baseline. Then, each a process measured end to end with its peak memory:
/// the reading commands of ``ReadingCommands`` (listing, the searches, a forgiving reference),
/// `notes sync now` with nothing to do and `notes sync status`; once each, since their time
/// grows with the store by nature, the listings of every item (`notes ls -r --json`, `notes ls
/// --orphans`); a new device joining from the baseline, checked to hold what A holds; and
/// `git clone` of the same notes as Markdown files, one per note.
struct ScaleScenario: Scenario {
    /// The targets at the largest size.
    static let growthLimit = 1.5
    static let listingBudgetMilliseconds = 100.0
    static let searchBudgetMilliseconds = 200.0
    static let joinBudgetSeconds = 10.0
    static let gitFactor = 10.0
    static let idleSyncBudgetMilliseconds = 50.0
    static let memoryBudgetMebibytes = 200.0

    /// What was measured at one size.
    private struct Step {
        let notes: Int
        var commands: [(name: String, times: Measurement, memory: Double)] = []
        var join: Measurement?
        var joinMemory: Double = 0
        var clone: Measurement?
        /// The listings of every item, run once each: their names, times and peak memory.
        var wholeListings: [(name: String, milliseconds: Double, memory: Double)] = []
    }

    func run(on bench: Workbench) throws -> ScenarioReport {
        let sizes = bench.sizes
        var report = ScenarioReport(name: "scale")
        report.parameters = [
            Fact("notes", sizes.scaleNotes.map(ReportPrinter.grouped).joined(separator: ", ")),
            Fact("notes per collection", sizes.notesPerCollection), Fact("rounds", sizes.scaleRounds),
            Fact("joins and clones", sizes.scaleJoins),
        ]
        var steps: [Step] = []
        for count in sizes.scaleNotes {
            steps.append(try measure(notes: count, bench: bench, report: &report))
        }
        summarize(steps, quick: (sizes.scaleNotes.last ?? 0) < 1_000_000, into: &report)
        return report
    }

    private func measure(notes count: Int, bench: Workbench, report: inout ScenarioReport) throws -> Step {
        let label = ReportPrinter.grouped(count) + " notes"
        var step = Step(notes: count)
        bench.progress("scale: \(label), generating them")
        var library = NoteLibrary(notes: count, collections: max(1, count / bench.sizes.notesPerCollection), seed: 93)
        ReadingCommands.addJapanese(to: &library)
        let rig = try SyncRig(bench: bench, label: "scale-\(count)")
        let deviceA = try rig.makeDevice("scale-A-\(count)")
        defer {
            bench.removeFolder(deviceA)
            bench.removeFolder(rig.cloud)
        }
        bench.progress("scale: \(label), saving them")
        let built = try Stopwatch.milliseconds {
            let store = try Store(folder: deviceA)
            let ids = try library.saveCollections(to: store)
            try library.saveNotes(to: store, collectionIDs: ids, batch: 100_000)
        }
        bench.progress("scale: \(label), pushing them and writing a baseline")
        let pushed = try rig.enable(deviceA, name: "A")
        let compacted = try rig.compact(deviceA)
        let expected = try ArrivalProbe(store: deviceA).noteSummary()
        report.facts += [
            Fact(
                "\(label): store built (the bulk path, a save per 100,000 notes)",
                String(format: "%.1f s", built / 1000)),
            Fact(
                "\(label): notes sync enable on A (pushing every note)",
                String(
                    format: "%.1f s, %@, %d logs", pushed.milliseconds / 1000,
                    ReportPrinter.format(pushed.peakMebibytes, .mebibytes), pushed.exportedLogs)),
            Fact(
                "\(label): notes sync compact on A",
                String(
                    format: "%.1f s, %@", compacted.milliseconds / 1000,
                    ReportPrinter.format(compacted.peakMebibytes, .mebibytes))),
            Fact(
                "\(label): database",
                ListingScenario.megabytes(deviceA.appendingPathComponent(Store.databaseFileName))),
        ]
        report.facts += try ListingScenario.indexSizes(deviceA.appendingPathComponent(Store.databaseFileName))
            .map { Fact("\(label): \($0.name)", $0.value) }

        let collection = ReadingCommands.typicalNestedCollection(library)
        let store = ["--store", deviceA.path]
        let commands =
            ReadingCommands.make(store: deviceA, library: library, collection: collection) + [
                ReadingCommands.Command(name: "notes sync now (nothing to do)", arguments: store + ["sync", "now"]) {
                    output in
                    guard output.contains("exported 0 logs, imported 0 logs") else {
                        throw BenchError.unexpected("notes sync now had something to do: \(output)")
                    }
                },
                ReadingCommands.Command(name: "notes sync status", arguments: store + ["sync", "status"]) { output in
                    guard !output.isEmpty else { throw BenchError.unexpected("notes sync status printed nothing") }
                },
            ]
        bench.progress("scale: \(label), \(bench.sizes.scaleRounds) rounds of \(commands.count) commands")
        let measured = try ReadingCommands.measure(commands, rounds: bench.sizes.scaleRounds, bench: bench)
        for (index, command) in commands.enumerated() {
            step.commands.append(
                (
                    command.name,
                    Measurement("\(label): \(command.name)", unit: .milliseconds, samples: measured.samples[index]),
                    measured.memory[index]
                ))
        }

        bench.progress("scale: \(label), listings of every item")
        let notes = try bench.notes()
        let items = count + library.collections.count
        for (name, arguments, lines) in [
            ("notes ls -r --json (every item)", store + ["ls", "-r", "--json"], nil),
            ("notes ls --orphans (every note)", store + ["ls", "--orphans"], count),
        ] {
            let run = try notes.run(arguments, capturingOutput: true, measuringMemory: true)
            let objects = run.output.split(separator: "\n").count { $0.hasPrefix("  {") }
            let printed = lines == nil ? objects : run.output.split(separator: "\n").count
            guard printed == (lines ?? items) else {
                throw BenchError.unexpected("\(name) printed \(printed) items, not \(lines ?? items)")
            }
            step.wholeListings.append((name, run.milliseconds, run.peakMebibytes))
        }

        bench.progress("scale: \(label), the git peer")
        let peer = try GitPeer(folder: try bench.makeFolder("scale-git-\(count)"), bench: bench)
        defer { bench.removeFolder(peer.folder) }
        let seeded = try peer.seed(notes: library.notes.map { (name: $0.name, body: $0.body) })
        report.facts.append(
            Fact("\(label): git add and commit of the Markdown files", String(format: "%.1f s", seeded / 1000)))
        var joins: [Double] = []
        var clones: [Double] = []
        for repetition in 0..<bench.sizes.scaleJoins {
            bench.progress(
                "scale: \(label), a new device joins, and a clone, \(repetition + 1) of \(bench.sizes.scaleJoins)")
            let device = try rig.makeDevice("scale-new-\(count)-\(repetition)")
            let joined = try rig.joinFromBaseline(device, name: "new \(repetition)", holding: expected, what: label)
            joins.append(joined.milliseconds / 1000)
            step.joinMemory = max(step.joinMemory, joined.peakMebibytes)
            bench.removeFolder(device)
            clones.append(try peer.timeClone(expecting: count) / 1000)
        }
        step.join = Measurement(
            "\(label): notes sync enable on a new device, from the baseline", unit: .seconds, samples: joins)
        step.clone = Measurement("\(label): git clone of the Markdown files", unit: .seconds, samples: clones)
        return step
    }

    private func summarize(_ steps: [Step], quick: Bool, into report: inout ScenarioReport) {
        for step in steps {
            report.measurements += step.commands.map(\.times)
            report.measurements += [step.join, step.clone].compactMap { $0 }
            let heaviest = step.commands.max { $0.memory < $1.memory }
            report.measurements += [
                Measurement(
                    "\(ReportPrinter.grouped(step.notes)) notes: peak memory of the heaviest command "
                        + "(\(heaviest?.name ?? "-"))",
                    unit: .mebibytes, samples: [heaviest?.memory ?? 0]),
                Measurement(
                    "\(ReportPrinter.grouped(step.notes)) notes: peak memory of joining", unit: .mebibytes,
                    samples: [step.joinMemory]),
            ]
            for listing in step.wholeListings {
                report.measurements += [
                    Measurement(
                        "\(ReportPrinter.grouped(step.notes)) notes: \(listing.name), once", unit: .milliseconds,
                        samples: [listing.milliseconds]),
                    Measurement(
                        "\(ReportPrinter.grouped(step.notes)) notes: \(listing.name), peak memory", unit: .mebibytes,
                        samples: [listing.memory]),
                ]
            }
        }
        // How each cost grows from one size to the next.
        for (smaller, larger) in zip(steps, steps.dropFirst()) {
            for (small, large) in zip(smaller.commands, larger.commands) where small.name != "notes --version" {
                report.ratios.append(
                    Ratio(
                        "\(large.name): \(ReportPrinter.grouped(larger.notes)) "
                            + "/ \(ReportPrinter.grouped(smaller.notes)) notes",
                        large.times, over: small.times))
            }
            if let small = smaller.join, let large = larger.join {
                report.ratios.append(
                    Ratio(
                        "joining: \(ReportPrinter.grouped(larger.notes)) "
                            + "/ \(ReportPrinter.grouped(smaller.notes)) notes",
                        large, over: small))
            }
        }
        guard let largest = steps.last else { return }
        let note = quick ? " (quick sizes, not the target's 1,000,000 notes)" : ""
        let size = ReportPrinter.grouped(largest.notes) + " notes"
        func command(_ name: String, in step: Step?) -> Measurement? { step?.commands.first { $0.name == name }?.times }
        let previous = steps.count > 1 ? steps[steps.count - 2] : nil
        for name in ["notes ls <collection>", "notes search <word>"] {
            guard let large = command(name, in: largest) else { continue }
            let budget = Self.listingBudgetMilliseconds
            var detail = "median \(ReportPrinter.format(large.median, .milliseconds))"
            var met = large.median < budget
            if let small = command(name, in: previous) {
                let growth = large.median / small.median
                met = met && growth <= Self.growthLimit
                detail += String(format: ", %.2f× its median at %@", growth, ReportPrinter.grouped(previous!.notes))
            }
            report.targets.append(
                TargetCheck(
                    name:
                        "\(size): \(name) within \(Self.growthLimit)× its time at the size before, "
                        + "and under \(Int(budget)) ms",
                    met: met, detail: detail + note))
        }
        for (name, times, _) in largest.commands where name.hasPrefix("notes search") || name.contains("(forgiving)") {
            report.targets.append(
                TargetCheck(
                    name: "\(size): \(name) under \(Int(Self.searchBudgetMilliseconds)) ms",
                    met: times.median < Self.searchBudgetMilliseconds,
                    detail: "median \(ReportPrinter.format(times.median, .milliseconds))" + note))
        }
        if let join = largest.join, let clone = largest.clone {
            report.targets.append(
                TargetCheck(
                    name:
                        "\(size): a new device joins from the baseline in under \(Int(Self.joinBudgetSeconds)) s, "
                        + "at least \(Int(Self.gitFactor)) times faster than git clone",
                    met: join.median < Self.joinBudgetSeconds && clone.median >= Self.gitFactor * join.median,
                    detail:
                        "notes \(ReportPrinter.format(join.median, .seconds)), "
                        + "git clone \(ReportPrinter.format(clone.median, .seconds))"
                        + String(format: " (%.1f×)", clone.median / join.median) + note))
        }
        if let idle = command("notes sync now (nothing to do)", in: largest) {
            report.targets.append(
                TargetCheck(
                    name: "\(size): notes sync now with nothing to do under \(Int(Self.idleSyncBudgetMilliseconds)) ms",
                    met: idle.median < Self.idleSyncBudgetMilliseconds,
                    detail: "median \(ReportPrinter.format(idle.median, .milliseconds))" + note))
        }
        let peaks =
            largest.commands.map { ($0.name, $0.memory) } + [("joining", largest.joinMemory)]
            + largest.wholeListings.map { ($0.name, $0.memory) }
        let heaviest = peaks.max { $0.1 < $1.1 }
        report.targets.append(
            TargetCheck(
                name: "\(size): peak memory of every command under \(Int(Self.memoryBudgetMebibytes)) MB",
                met: peaks.allSatisfy { $0.1 * 1.048_576 < Self.memoryBudgetMebibytes },
                detail: "largest: \(heaviest?.0 ?? "-"), \(ReportPrinter.format(heaviest?.1 ?? 0, .mebibytes))" + note))
    }
}
