import Foundation
import NoteStore
import NoteSync

/// `devices`: a container of fifty devices, against one of two, in the same run.
///
/// Forty-eight devices are made in this process (a store and a ``SyncEngine`` each): each
/// imports what the devices before it published, then saves `deviceLogs` notes, each save
/// followed by a sync, so that it publishes that many logs. The first half are then away: they sync no more.
/// The other half sync again, and the last writes a baseline. Devices A and B (the `notes`
/// binary, as a person runs it) join with `notes sync enable` and run `notes watch`, as does a
/// pair of devices on a container of their own, whose A first saves as many notes as the fifty
/// devices hold. Then, in turn on each pair, a note saved on A
/// is timed until readable on B (as `sync-latency` does); `notes sync now` with nothing to do
/// and `notes sync status` are timed on the fifty-device A, and each watcher's peak memory is
/// kept. Last, compaction: the away devices come back (a full sync each), and every device
/// compacts twice (the first pass says in its registration what it applied, the second removes
/// what every device applied): no log may be left, and every device must hold the same notes.
/// Targets (issue 37): latency within 1.2 times the two-device figure, `sync now` and `sync
/// status` under 100 ms, the watcher's memory flat, compaction reaching every device.
struct DevicesScenario: Scenario {
    static let latencyRatio = 1.2
    static let commandTarget = 100.0
    static let memoryRatio = 1.2

    func run(on bench: Workbench) throws -> ScenarioReport {
        let sizes = bench.sizes
        var report = ScenarioReport(name: "devices")
        let others = sizes.manyDevices - 2
        report.parameters = [
            Fact("devices", sizes.manyDevices), Fact("logs of each device made in process", sizes.deviceLogs),
            Fact("saves timed on each pair", sizes.deviceSaves),
        ]
        let rig = try SyncRig(bench: bench, label: "devices")
        let start = ContinuousClock.now
        bench.progress("devices: \(others) devices publish \(sizes.deviceLogs) logs each")
        var devices: [(store: Store, engine: SyncEngine)] = []
        for index in 0..<others {
            let store = try Store(folder: try rig.makeDevice("D\(index)"))
            let engine = SyncEngine(store: store, hooks: .none)
            try engine.enable(cloud: rig.cloud, deviceName: "D\(index)")
            devices.append((store, engine))
        }
        var text = TextGenerator(seed: 23)
        for (index, device) in devices.enumerated() {
            let collection = try device.store.addCollection(named: "From D\(index)", in: nil).id
            // What the devices before it published, then a log a save.
            try device.engine.syncNow()
            for save in 0..<sizes.deviceLogs {
                _ = try device.store.addNote(
                    named: "D\(index) \(save)", body: text.body(words: 20...120, marked: false), in: collection)
                try device.engine.syncNow(importing: .nextLogs)
            }
        }
        let away = others / 2
        for device in devices[away...] { try device.engine.syncNow() }
        _ = try devices[others - 1].engine.compact()
        let made = (ContinuousClock.now - start).milliseconds
        let logs = Self.logCount(in: rig)
        report.facts.append(Fact("the container made (in this process)", ReportPrinter.format(made, .milliseconds)))
        report.facts.append(Fact("logs in it", logs))

        bench.progress("devices: A and B join the \(sizes.manyDevices)-device container; a pair of its own")
        let many = try rig.watchedPair(collection: "Fifty", label: "50")
        let pairRig = try SyncRig(bench: bench, label: "devices-pair")
        // As many notes as the fifty devices hold, so that the two pairs differ in devices only.
        let two = try pairRig.watchedPair(collection: "Two", label: "2") { folder in
            let store = try Store(folder: folder)
            let context = store.makeContext()
            var copies = TextGenerator(seed: 23)
            for index in 0..<(others * (sizes.deviceLogs + 1)) {
                _ = context.insertNote(named: "Copy \(index)", body: copies.body(words: 20...120, marked: false))
            }
            try context.save()
        }

        bench.progress("devices: \(sizes.deviceSaves) saves on each pair, in turn")
        var manySamples: [Double] = []
        var twoSamples: [Double] = []
        var pause = SeededGenerator(seed: 9)
        let warmUp = 10
        for round in 0..<(warmUp + sizes.deviceSaves) {
            let body = text.body(words: 20...180, marked: false)
            let (onMany, _) = try many.saveAndWait(name: "Fifty \(round)", body: body)
            usleep(UInt32(2000 + pause.next() % 8000))
            let (onTwo, _) = try two.saveAndWait(name: "Two \(round)", body: body)
            usleep(UInt32(2000 + pause.next() % 8000))
            if round >= warmUp {
                manySamples.append(onMany)
                twoSamples.append(onTwo)
            }
        }
        var syncNow: [Double] = []
        var status: [Double] = []
        for _ in 0..<20 {
            let run = try rig.syncNow(many.deviceA)
            guard run.exportedLogs == 0, run.importedLogs == 0 else {
                throw BenchError.unexpected("sync now on A had something to do: \(run.process.output)")
            }
            syncNow.append(run.milliseconds)
            status.append(try rig.status(many.deviceA).milliseconds)
        }
        let manyMemory = try rig.stopWatchers()
        let twoMemory = try pairRig.stopWatchers()

        bench.progress("devices: the away devices come back, and every device compacts twice")
        for device in devices[..<away] { try device.engine.syncNow() }
        let compaction = ContinuousClock.now
        for _ in 0..<2 {
            for device in devices { _ = try device.engine.compact() }
            try rig.compact(many.deviceA)
            try rig.compact(many.deviceB)
        }
        let compacted = (ContinuousClock.now - compaction).milliseconds
        let left = Self.logCount(in: rig)
        let expected = try ArrivalProbe(store: many.deviceA).noteSummary()
        var differing = 0
        for device in devices where try ArrivalProbe(store: device.store.folder).noteSummary() != expected {
            differing += 1
        }
        if try ArrivalProbe(store: many.deviceB).noteSummary() != expected { differing += 1 }

        let manyLatency = Measurement(
            "\(sizes.manyDevices) devices: save on A until readable on B", unit: .milliseconds, samples: manySamples)
        let twoLatency = Measurement(
            "2 devices: save on A until readable on B", unit: .milliseconds, samples: twoSamples)
        let syncNowFigure = Measurement(
            "\(sizes.manyDevices) devices: notes sync now with nothing to do", unit: .milliseconds, samples: syncNow)
        let statusFigure = Measurement(
            "\(sizes.manyDevices) devices: notes sync status", unit: .milliseconds, samples: status)
        report.measurements = [manyLatency, twoLatency, syncNowFigure, statusFigure]
        let watcherMany = Double(manyMemory.max() ?? 0)
        let watcherTwo = Double(twoMemory.max() ?? 0)
        report.facts += [
            Fact(
                "peak memory of the watchers, \(sizes.manyDevices) devices / 2 devices",
                String(format: "%.1f MiB / %.1f MiB", watcherMany / 1_048_576, watcherTwo / 1_048_576)),
            Fact("every device compacting twice", ReportPrinter.format(compacted, .milliseconds)),
            Fact("logs left after", left),
        ]
        let latencyRatio = manyLatency.median / twoLatency.median
        report.ratios.append(Ratio("latency: \(sizes.manyDevices) devices / 2 devices", manyLatency, over: twoLatency))
        report.targets += [
            TargetCheck(
                name: "latency within \(Self.latencyRatio)× the two-device figure",
                met: latencyRatio <= Self.latencyRatio,
                detail: String(
                    format: "%.2f× (%.2f ms against %.2f ms at the median)", latencyRatio, manyLatency.median,
                    twoLatency.median)),
            TargetCheck(
                name: "notes sync now with nothing to do under \(Int(Self.commandTarget)) ms",
                met: syncNowFigure.median < Self.commandTarget,
                detail: String(format: "median %.1f ms", syncNowFigure.median)),
            TargetCheck(
                name: "notes sync status under \(Int(Self.commandTarget)) ms",
                met: statusFigure.median < Self.commandTarget,
                detail: String(format: "median %.1f ms", statusFigure.median)),
            TargetCheck(
                name: "the watcher's memory flat (within \(Self.memoryRatio)× the two-device one)",
                met: watcherMany <= Self.memoryRatio * watcherTwo,
                detail: String(format: "%.2f×", watcherMany / max(1, watcherTwo))),
            TargetCheck(
                name: "compaction reaches every device (no log left, every device the same notes)",
                met: left == 0 && differing == 0,
                detail: "\(left) logs left, \(differing) devices differ"),
        ]
        return report
    }

    /// How many logs the container of the rig holds.
    static func logCount(in rig: SyncRig) -> Int {
        let logs = rig.cloud.appendingPathComponent("NoteCollector/logs")
        guard let walker = FileManager.default.enumerator(atPath: logs.path) else { return 0 }
        return walker.compactMap { $0 as? String }.filter { $0.hasSuffix(".log") }.count
    }
}
