import Foundation
import NoteStore

/// `local-save`: one note saved at a time, as `notes add` saves it.
///
/// Measured in the same run, interleaved so that a noisy neighbour hits both sides alike:
/// - `Store.addNote`, each call its own transaction, against a raw SQLite transaction that
///   inserts one row of the same shape into the same schema (the floor any save pays), both
///   with `synchronous = FULL` (a sync of the WAL at every commit: durable) and with `NORMAL`
///   (no sync at commit), since a store's figure is only comparable with the floor of the
///   durability it actually has;
/// - `notes add` as a separate process, end to end, against `notes --version` (the floor of
///   starting the program at all).
struct LocalSaveScenario: Scenario {
    func run(on bench: Workbench) throws -> ScenarioReport {
        let sizes = bench.sizes
        var report = ScenarioReport(name: "local-save")
        report.parameters = [Fact("saves", sizes.saves), Fact("notes add runs", sizes.addRuns)]
        var text = TextGenerator(seed: 7)
        let bodies = (0..<max(sizes.saves, sizes.addRuns)).map { _ in text.body(words: 20...180, marked: false) }

        let storeFolder = try bench.makeFolder("local-save-store")
        let saves = try measureSaves(bodies: Array(bodies.prefix(sizes.saves)), storeFolder: storeFolder, bench: bench)
        report.measurements += saves
        report.ratios.append(Ratio("Store.addNote / raw 1-row transaction, FULL (medians)", saves[0], over: saves[1]))
        report.ratios.append(Ratio("Store.addNote / raw 1-row transaction, NORMAL (medians)", saves[0], over: saves[2]))

        bench.progress("local-save: notes add, \(sizes.addRuns) runs")
        let (add, version) = try measureProcesses(bodies: bodies, storeFolder: storeFolder, bench: bench)
        report.measurements += [add, version]
        report.ratios.append(Ratio("notes add / notes --version (medians)", add, over: version))
        report.facts.append(
            Fact("notes add above the start-up floor", ReportPrinter.format(add.median - version.median, .milliseconds))
        )
        bench.removeFolder(storeFolder)
        return report
    }

    /// Saves one note at a time through the store and, in turn, through raw SQLite with and
    /// without a sync at every commit.
    private func measureSaves(bodies: [String], storeFolder: URL, bench: Workbench) throws -> [Measurement] {
        let store = try Store(folder: storeFolder)
        // As in a store that syncs: each save records its outbox rows.
        try store.startRecordingChanges()
        let inbox = try store.addCollection(named: "Inbox", in: nil).id
        let durableFolder = try bench.makeFolder("local-save-raw-full")
        let normalFolder = try bench.makeFolder("local-save-raw-normal")
        defer {
            bench.removeFolder(durableFolder)
            bench.removeFolder(normalFolder)
        }
        let durable = try RawSaver(folder: durableFolder, synchronous: .full)
        let normal = try RawSaver(folder: normalFolder, synchronous: .normal)

        var samples: [[Double]] = [[], [], []]
        for (index, body) in bodies.enumerated() {
            let name = "Note \(index + 1)"
            samples[0].append(try Stopwatch.milliseconds { _ = try store.addNote(named: name, body: body, in: inbox) })
            samples[1].append(try durable.save(name: name, body: body))
            samples[2].append(try normal.save(name: name, body: body))
        }
        return [
            Measurement("Store.addNote (one save)", unit: .milliseconds, samples: samples[0]),
            Measurement("raw SQLite: 1-row transaction, synchronous FULL", unit: .milliseconds, samples: samples[1]),
            Measurement("raw SQLite: 1-row transaction, synchronous NORMAL", unit: .milliseconds, samples: samples[2]),
        ]
    }

    /// Runs `notes add` and `notes --version` in turn, each a separate process.
    private func measureProcesses(bodies: [String], storeFolder: URL, bench: Workbench) throws -> (
        Measurement, Measurement
    ) {
        let notes = try bench.notes()
        let store = ["--store", storeFolder.path]
        func add(_ index: Int) -> [String] {
            store + ["add", "Added \(index)", "--in", "Inbox", "--body", bodies[index % bodies.count]]
        }
        // A first run of each, untimed, to warm the page cache and check the output.
        let printed = try notes.run(add(0), capturingOutput: true).output
        guard UUID(uuidString: printed.trimmingCharacters(in: .whitespacesAndNewlines)) != nil else {
            throw BenchError.unexpected("notes add printed '\(printed.prefix(80))', not the new note's id")
        }
        try notes.run(["--version"])

        var addSamples: [Double] = []
        var versionSamples: [Double] = []
        for index in 1...bench.sizes.addRuns {
            versionSamples.append(try notes.run(["--version"]).milliseconds)
            addSamples.append(try notes.run(add(index)).milliseconds)
        }
        return (
            Measurement("notes add (process, end to end)", unit: .milliseconds, samples: addSamples),
            Measurement("notes --version (start-up floor)", unit: .milliseconds, samples: versionSamples)
        )
    }
}
