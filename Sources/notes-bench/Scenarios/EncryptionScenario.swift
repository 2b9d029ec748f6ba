import Foundation
import NoteStore
import NoteSync

/// `encryption`: what an encrypted container costs, against a plain one in the same run.
///
/// - The key's derivation: scrypt with the parameters a new container gets, as a device
///   unwraps the container key once (never per sync), timed in this process.
/// - Sync latency: two pairs of devices with their `notes watch`, one on a plain container and
///   one on an encrypted one; each round saves a note on A of one pair and polls B until it is
///   readable, then the same on the other pair, so that both meet the same machine.
/// - Import: the same notes (an insert, then a new body, for each) exported into a plain and
///   an encrypted container; each repetition attaches a fresh store to each with
///   `notes sync enable`, a process timed end to end, alternating which goes first. The
///   joining device is given the container key beforehand (its derivation is the figure
///   above), so that the import is what is compared.
struct EncryptionScenario: Scenario {
    /// Encrypted figures within this factor of the plain ones.
    static let targetFactor = 1.15
    /// The key's derivation, in seconds: long enough to slow a guess, short enough to wait for.
    static let derivationTarget = 0.2...1.0

    func run(on bench: Workbench) throws -> ScenarioReport {
        let sizes = bench.sizes
        var report = ScenarioReport(name: "encryption")
        report.parameters = [
            Fact("saves on each container", sizes.encryptionSaves), Fact("notes imported", sizes.encryptionNotes),
            Fact("repetitions", sizes.encryptionRepetitions),
        ]
        // A power of 2: 2^17 for a new container, 2^10 in a quick run.
        let cost = sizes.scryptCost ?? EncryptionSettings.defaultCost
        let derivation = try deriveKeys(repetitions: sizes.encryptionRepetitions, cost: cost, bench: bench)
        let (plainLatency, sealedLatency) = try latencies(bench: bench)
        let (plainImport, sealedImport) = try imports(bench: bench)
        report.measurements = [derivation, plainLatency, sealedLatency, plainImport, sealedImport]
        let latencyRatio = Ratio("encrypted / plain sync latency (medians)", sealedLatency, over: plainLatency)
        let importRatio = Ratio(
            "plain / encrypted import rate", plainImport, over: sealedImport,
            paired: (plainImport.samples, sealedImport.samples))
        report.ratios = [latencyRatio, importRatio]
        report.targets = [
            TargetCheck(
                name: "sync latency within \(Self.targetFactor)× the plain container's",
                met: latencyRatio.value <= Self.targetFactor,
                detail: "median \(ReportPrinter.format(sealedLatency.median, .milliseconds)) against "
                    + "\(ReportPrinter.format(plainLatency.median, .milliseconds)): "
                    + String(format: "%.2f×", latencyRatio.value)),
            TargetCheck(
                name: "import within \(Self.targetFactor)× the plain container's time",
                met: importRatio.value <= Self.targetFactor,
                detail: "\(ReportPrinter.format(sealedImport.median, .rowsPerSecond)) against "
                    + "\(ReportPrinter.format(plainImport.median, .rowsPerSecond)): "
                    + String(format: "%.2f×", importRatio.value)),
            TargetCheck(
                name: "key derivation 0.2 to 1 s, once per device",
                met: Self.derivationTarget.contains(derivation.median / 1000),
                detail:
                    "median \(ReportPrinter.format(derivation.median, .milliseconds)) (scrypt n = 2^\(cost.trailingZeroBitCount), r = 8, p = 1)"
            ),
        ]
        return report
    }

    /// scrypt of a passphrase with a new container's parameters, as unwrapping takes it.
    private func deriveKeys(repetitions: Int, cost: Int, bench: Workbench) throws -> Measurement {
        bench.progress("encryption: deriving the key \(repetitions) times")
        let key = ContainerKey.random()
        let container = UUID()
        let settings = EncryptionSettings.new(for: key, container: container, cost: cost)
        let file = try KeyFile.wrapping(key, container: container, passphrase: "a passphrase", settings: settings)
        var samples: [Double] = []
        for _ in 0..<repetitions {
            let (unwrapped, milliseconds) = Stopwatch.time {
                file.unwrap(passphrase: "a passphrase", settings: settings)
            }
            guard unwrapped == key else { throw BenchError.unexpected("the wrapped key did not unwrap") }
            samples.append(milliseconds)
        }
        return Measurement("scrypt: unwrapping the container key", unit: .milliseconds, samples: samples)
    }

    /// The latency of a save on each container, rounds alternating between them.
    private func latencies(bench: Workbench) throws -> (plain: Measurement, sealed: Measurement) {
        let plainRig = try SyncRig(bench: bench, label: "encryption-plain")
        let sealedRig = try SyncRig(bench: bench, label: "encryption-sealed", passphrase: "a passphrase")
        let plain = try plainRig.watchedPair(collection: "Plain", label: "-plain")
        let sealed = try sealedRig.watchedPair(collection: "Sealed", label: "-sealed")
        var text = TextGenerator(seed: 17)
        var pause = SeededGenerator(seed: 7)
        var samples: (plain: [Double], sealed: [Double]) = ([], [])
        let warmUp = 10
        bench.progress("encryption: \(bench.sizes.encryptionSaves) saves on each container")
        for round in 0..<(warmUp + bench.sizes.encryptionSaves) {
            let body = text.body(words: 20...180, marked: false)
            let first = try plain.saveAndWait(name: "Plain \(round)", body: body).total
            let second = try sealed.saveAndWait(name: "Sealed \(round)", body: body).total
            if round >= warmUp {
                samples.plain.append(first)
                samples.sealed.append(second)
            }
            usleep(UInt32(2000 + pause.next() % 8000))
        }
        try plainRig.stopWatchers()
        try sealedRig.stopWatchers()
        return (
            Measurement("plain container: save on A until readable on B", unit: .milliseconds, samples: samples.plain),
            Measurement(
                "encrypted container: save on A until readable on B", unit: .milliseconds, samples: samples.sealed)
        )
    }

    /// Import rates (changes per second) from each container, repetitions alternating which
    /// goes first.
    private func imports(bench: Workbench) throws -> (plain: Measurement, sealed: Measurement) {
        let count = bench.sizes.encryptionNotes
        let plainRig = try SyncRig(bench: bench, label: "encryption-import-plain")
        let sealedRig = try SyncRig(bench: bench, label: "encryption-import-sealed", passphrase: "a passphrase")
        bench.progress(
            "encryption: saving \(ReportPrinter.grouped(count)) notes, then a new body for each, for each container")
        var changes = 0
        var sources: [URL] = []
        for (rig, label) in [(plainRig, "plain"), (sealedRig, "sealed")] {
            let source = try rig.makeDevice("import-\(label)")
            try rig.enable(source, name: "A \(label)")
            changes = try writeNotes(count, to: source, collections: bench.sizes.collections)
            try rig.syncNow(source)
            sources.append(source)
        }
        let expected = try ArrivalProbe(store: sources[0]).noteSummary()
        var rates: (plain: [Double], sealed: [Double]) = ([], [])
        for repetition in 0..<bench.sizes.encryptionRepetitions {
            bench.progress("encryption: import, repetition \(repetition + 1) of \(bench.sizes.encryptionRepetitions)")
            let order =
                repetition % 2 == 0 ? [(plainRig, false), (sealedRig, true)] : [(sealedRig, true), (plainRig, false)]
            for (rig, sealed) in order {
                let device = try rig.makeDevice("import-\(sealed ? "sealed" : "plain")-\(repetition)")
                if sealed {
                    // The key the source device holds: what a joining device holds after its one derivation.
                    for name in try FileManager.default.contentsOfDirectory(atPath: sources[1].path)
                    where name.hasSuffix(".key") {
                        try FileManager.default.copyItem(
                            at: sources[1].appendingPathComponent(name), to: device.appendingPathComponent(name))
                    }
                }
                let run = try rig.enable(device, name: "B \(repetition)")
                let found = try ArrivalProbe(store: device).noteSummary()
                guard found.notes == expected.notes else {
                    throw BenchError.unexpected("after importing, B holds \(found), not \(expected) as A does")
                }
                let rate = Double(changes) / (run.milliseconds / 1000)
                if sealed { rates.sealed.append(rate) } else { rates.plain.append(rate) }
                bench.removeFolder(device)
            }
        }
        return (
            Measurement(
                "plain container: notes sync enable, import of the logs", unit: .rowsPerSecond, samples: rates.plain),
            Measurement(
                "encrypted container: notes sync enable, import of the logs", unit: .rowsPerSecond,
                samples: rates.sealed)
        )
    }

    /// Saves `count` notes into the store, then a new body for each; returns the changes made.
    private func writeNotes(_ count: Int, to folder: URL, collections: Int) throws -> Int {
        let library = NoteLibrary(notes: count, collections: collections, seed: 91)
        let store = try Store(folder: folder)
        let notes = try library.saveAll(to: store)
        try NoteLibrary.rewriteBodies(of: notes, in: store)
        return 2 * count + library.collections.count
    }
}
