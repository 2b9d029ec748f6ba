import Foundation
import NoteStore
import SyncthingLoopback

/// `syncthing`: sync between two machines through a real file-sync engine. Two Syncthing
/// instances on loopback (``SyncthingPair``), device A with `notes watch` on host A's copy of
/// the folder, device B with its own on host B's copy.
///
/// Each round, in turn: the engine's own delivery of a plain file (written with a temporary
/// name and renamed, as logs are, on host A, then looked for on host B every millisecond), and
/// a note saved through A's store API until it is readable in B's store. What `notes` adds to
/// the engine is the difference of the medians. Syncthing waits a second (`fsWatcherDelayS`)
/// for changes to settle before it sends them, so both figures are about a second.
struct SyncthingScenario: Scenario {
    static let addedTarget = 10.0

    func run(on bench: Workbench) throws -> ScenarioReport {
        var report = ScenarioReport(name: "syncthing")
        let rounds = bench.sizes.syncthingRounds
        report.parameters = [Fact("rounds", rounds)]
        guard SyncthingPair.isAvailable else {
            throw BenchError.unexpected("syncthing is not installed (apt-get install syncthing)")
        }
        bench.progress("syncthing: starting two instances")
        let pair = try SyncthingPair(in: try bench.makeFolder("syncthing"))
        defer { pair.stop() }
        let rig = try SyncRig(bench: bench, label: "syncthing")
        let deviceA = try rig.makeDevice("host-a")
        let deviceB = try rig.makeDevice("host-b")
        try rig.enable(deviceA, name: "A", cloud: pair.clouds[0])
        guard try Self.waitFor(pair.clouds[1].appendingPathComponent("NoteCollector/container.json"), within: 30) != nil
        else {
            throw BenchError.unexpected("the container did not reach host B within 30 s")
        }
        try rig.enable(deviceB, name: "B", cloud: pair.clouds[1])
        try rig.startWatcher(deviceA, name: "A")
        try rig.startWatcher(deviceB, name: "B")
        let store = try Store(folder: deviceA)
        let probe = try ArrivalProbe(store: deviceB)
        let inbox = try store.addCollection(named: "Between machines", in: nil).id
        guard try probe.wait(within: 30, until: { try probe.has(inbox) }) != nil else {
            throw BenchError.unexpected("a collection saved on A did not reach B within 30 s")
        }

        var text = TextGenerator(seed: 13)
        var engine: [Double] = []
        var notes: [Double] = []
        bench.progress("syncthing: \(rounds) rounds of a plain file, then a note")
        for round in 0..<rounds {
            engine.append(try deliverPlainFile(round, pair: pair))
            let clock = ContinuousClock()
            let start = clock.now
            let note = try store.addNote(
                named: "Travelling \(round)", body: text.body(words: 20...180, marked: false), in: inbox)
            guard let arrived = try probe.wait(within: 30, until: { try probe.has(note.id) }) else {
                throw BenchError.unexpected("note \(round) saved on A was not readable on B within 30 s")
            }
            notes.append((arrived - start).milliseconds)
        }
        try rig.stopWatchers()

        let engineFigure = Measurement(
            "Syncthing: a plain file written on host A until it is on host B", unit: .milliseconds, samples: engine)
        let notesFigure = Measurement(
            "notes: save on A until readable on B, through Syncthing", unit: .milliseconds, samples: notes)
        report.measurements = [engineFigure, notesFigure]
        report.ratios = [Ratio("notes / Syncthing alone (medians)", notesFigure, over: engineFigure)]
        let added = notesFigure.median - engineFigure.median
        report.facts = [Fact("what notes adds to the engine (medians)", ReportPrinter.format(added, .milliseconds))]
        report.targets = [
            TargetCheck(
                name: "notes adds under \(Int(Self.addedTarget)) ms to the engine's time",
                met: added < Self.addedTarget,
                detail:
                    "\(ReportPrinter.format(added, .milliseconds)) at the median "
                    + "(\(ReportPrinter.format(notesFigure.median, .milliseconds)) "
                    + "against \(ReportPrinter.format(engineFigure.median, .milliseconds)))")
        ]
        return report
    }

    /// Writes a plain file on host A as a log is written (temporary name, then rename) and
    /// returns the milliseconds until it is on host B.
    private func deliverPlainFile(_ round: Int, pair: SyncthingPair) throws -> Double {
        let name = "plain-\(round).txt"
        let temporary = pair.clouds[0].appendingPathComponent(".tmp-\(name)")
        try Data(repeating: UInt8(ascii: "x"), count: 1024).write(to: temporary)
        let clock = ContinuousClock()
        let start = clock.now
        try FileManager.default.moveItem(at: temporary, to: pair.clouds[0].appendingPathComponent(name))
        guard let arrived = try Self.waitFor(pair.clouds[1].appendingPathComponent(name), within: 30) else {
            throw BenchError.unexpected("\(name) did not reach host B within 30 s")
        }
        return (arrived - start).milliseconds
    }

    /// Looks for a file every millisecond; returns when it was there, or nil after `seconds`.
    private static func waitFor(_ file: URL, within seconds: Double) throws -> ContinuousClock.Instant? {
        let clock = ContinuousClock()
        let deadline = clock.now + .milliseconds(Int(seconds * 1000))
        while clock.now < deadline {
            if FileManager.default.fileExists(atPath: file.path) { return clock.now }
            usleep(1000)
        }
        return nil
    }
}
