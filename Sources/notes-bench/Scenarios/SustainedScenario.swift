import Foundation
import NoteStore

/// `sustained`: device A saves notes without pause while both devices' watchers run, first
/// as fast as it can, then at half the rate it reached; how far behind B falls, and whether it
/// keeps up. At half the rate of the machine, B's lag stays under ``steadyLagP99`` at the p99.
///
/// One thread does both sides: it saves each note on A when its time comes (the rate's
/// schedule, or at once) and in between polls B's store, read-only, for the last note that
/// arrived. B applies A's logs in order, so when note n is there, every note before it is:
/// each note's lag is from its commit on A until it was first seen on B. B keeps up when it
/// holds every note within a second of the last save.
struct SustainedScenario: Scenario {
    /// How soon after the last save B must hold every note to be said to keep up.
    static let keepUpSeconds = 1.0
    /// The most B may lag at the p99 while A saves at half the rate it reaches flat out, in ms.
    static let steadyLagP99 = 100.0

    func run(on bench: Workbench) throws -> ScenarioReport {
        let sizes = bench.sizes
        var report = ScenarioReport(name: "sustained")
        report.parameters = [Fact("seconds per phase", sizes.sustainedSeconds)]
        let rig = try SyncRig(bench: bench, label: "sustained")
        let pair = try rig.watchedPair(collection: "Sustained")
        let (store, probe, inbox) = (pair.store, pair.probe, pair.collection)
        var text = TextGenerator(seed: 13)
        let bodies = (0..<500).map { _ in text.body(words: 20...180, marked: false) }

        let seconds = Double(sizes.sustainedSeconds)
        bench.progress("sustained: flat out for \(sizes.sustainedSeconds) s")
        let flatOut = try runPhase(
            "flat out", rate: nil, seconds: seconds, store: store, inbox: inbox, probe: probe, bodies: bodies)
        flatOut.add(to: &report)
        let half = max(1, Int(flatOut.savedPerSecond / 2))
        bench.progress("sustained: \(half) saves/s for \(sizes.sustainedSeconds) s")
        let steady = try runPhase(
            "steady", rate: half, seconds: seconds, store: store, inbox: inbox, probe: probe, bodies: bodies)
        steady.add(to: &report)
        let lag = Measurement("", unit: .milliseconds, samples: steady.lags)
        report.targets.append(
            TargetCheck(
                name: "at half the rate A saves flat out, B's lag p99 under \(Int(Self.steadyLagP99)) ms",
                met: lag.p99 < Self.steadyLagP99,
                detail:
                    "\(half) saves/s (flat out: \(Int(flatOut.savedPerSecond))/s): lag p99 "
                    + "\(ReportPrinter.format(lag.p99, .milliseconds)), p50 \(ReportPrinter.format(lag.median, .milliseconds))"
            ))
        let memory = try rig.stopWatchers()
        let stores = (a: try ArrivalProbe(store: pair.deviceA).noteSummary(), b: try probe.noteSummary())
        guard stores.a == stores.b else {
            throw BenchError.unexpected("after the sustained load A has \(stores.a) and B has \(stores.b)")
        }
        report.facts.append(Fact("notes on A and B at the end", stores.b.notes))
        report.facts.append(
            Fact(
                "watcher peak memory (A, B)",
                memory.map { ReportPrinter.format(Double($0) / 1_048_576, .mebibytes) }.joined(separator: ", ")))
        return report
    }

    /// What one phase measured.
    private struct PhaseRun {
        let phase: String
        let rate: Int?
        let savedAt: [ContinuousClock.Instant]
        let arrivedAt: [ContinuousClock.Instant]
        let saveMilliseconds: [Double]

        var count: Int { savedAt.count }
        var lags: [Double] { zip(arrivedAt, savedAt).map { ($0 - $1).milliseconds } }
        var saveSpan: Double { (savedAt[count - 1] - savedAt[0]).milliseconds / 1000 }
        var drain: Double { (arrivedAt[count - 1] - savedAt[count - 1]).milliseconds / 1000 }
        var arrivalSpan: Double { (arrivedAt[count - 1] - savedAt[0]).milliseconds / 1000 }
        var savedPerSecond: Double { Double(count) / saveSpan }

        func add(to report: inout ScenarioReport) {
            let label = rate.map { "\(phase), \($0) saves/s" } ?? phase
            let lag = Measurement("\(label): lag of B behind A", unit: .milliseconds, samples: lags)
            report.measurements.append(lag)
            report.measurements.append(
                Measurement("\(label): one save on A", unit: .milliseconds, samples: saveMilliseconds))
            let saved = savedPerSecond
            let applied = Double(count) / arrivalSpan
            report.facts.append(Fact("\(label): saves on A", count))
            report.facts.append(
                Fact("\(label): A saved", "\(ReportPrinter.format(saved, .perSecond, unit: false)) notes/s"))
            report.facts.append(
                Fact("\(label): B took in", "\(ReportPrinter.format(applied, .perSecond, unit: false)) notes/s"))
            report.facts.append(
                Fact(
                    "\(label): B held every note", "\(ReportPrinter.format(drain, .seconds)) after the last save"))
            report.targets.append(
                TargetCheck(
                    name: "\(label): B keeps up", met: drain < SustainedScenario.keepUpSeconds,
                    detail:
                        "lag p50 \(ReportPrinter.format(lag.median, .milliseconds)), "
                        + "p99 \(ReportPrinter.format(lag.p99, .milliseconds)); "
                        + "every note on B \(ReportPrinter.format(drain, .seconds)) after the last save"))
        }
    }

    /// Saves for `seconds`, on the rate's schedule or as fast as possible, polling B between
    /// saves; then polls until B has every note.
    private func runPhase(
        _ phase: String, rate: Int?, seconds: Double, store: Store, inbox: UUID, probe: ArrivalProbe, bodies: [String]
    ) throws -> PhaseRun {
        let clock = ContinuousClock()
        let prefix = "\(phase) "
        var savedAt: [ContinuousClock.Instant] = []
        var arrivedAt: [ContinuousClock.Instant] = []
        var saveMilliseconds: [Double] = []
        let start = clock.now
        let end = start + .milliseconds(Int(seconds * 1000))
        let spacing = rate.map { Duration.nanoseconds(1_000_000_000 / $0) }

        func poll() throws {
            guard try probe.changed(), let name = try probe.lastNoteName(), name.hasPrefix(prefix),
                let index = Int(name.dropFirst(prefix.count)), index >= arrivedAt.count
            else { return }
            let now = clock.now
            while arrivedAt.count <= index { arrivedAt.append(now) }
        }

        while clock.now < end {
            let due = spacing.map { start + $0 * savedAt.count } ?? clock.now
            if clock.now >= due {
                let index = savedAt.count
                let before = clock.now
                _ = try store.addNote(named: "\(prefix)\(index)", body: bodies[index % bodies.count], in: inbox)
                let after = clock.now
                savedAt.append(after)
                saveMilliseconds.append((after - before).milliseconds)
            } else {
                usleep(100)
            }
            try poll()
        }
        let deadline = clock.now + .seconds(120)
        while arrivedAt.count < savedAt.count {
            guard clock.now < deadline else {
                throw BenchError.unexpected(
                    "B had \(arrivedAt.count) of the \(savedAt.count) notes of the \(phase) phase "
                        + "120 s after the last save"
                )
            }
            usleep(100)
            try poll()
        }
        return PhaseRun(
            phase: phase, rate: rate, savedAt: savedAt, arrivedAt: Array(arrivedAt.prefix(savedAt.count)),
            saveMilliseconds: saveMilliseconds)
    }
}
