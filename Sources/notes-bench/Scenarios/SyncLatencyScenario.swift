import Foundation
import NoteStore

/// `sync-latency`: a note saved on device A until it is readable in device B's store, with a
/// `notes watch` running for each device in its own process, as a person would run them.
///
/// Each round, in turn, each of the three first in its turn, so that a noisy neighbour, and
/// what the one before left behind, hits all three alike:
/// - one save through A's store API, then B's store looked into (read-only, on B's commit
///   signal, ``ArrivalProbe``) until the note is there: the time from the start of the save;
/// - the floor: a rename in a watched folder until inotify reports it, plus one durable
///   SQLite commit (``SyncFloor``);
/// - the peer: the note as a Markdown file committed and pushed on A, pulled on B (``GitPeer``),
///   started at once, as if B's pull were triggered the moment A pushed: the best a git
///   setup can do.
///
/// A pause of 2–10 ms follows each round, as between a person's saves, so that each save
/// meets watchers at rest.
struct SyncLatencyScenario: Scenario {
    static let p50Target = 5.0
    static let p99Target = 25.0

    func run(on bench: Workbench) throws -> ScenarioReport {
        let sizes = bench.sizes
        var report = ScenarioReport(name: "sync-latency")
        report.parameters = [Fact("saves", sizes.syncSaves), Fact("peer rounds", sizes.peerSaves)]

        let rig = try SyncRig(bench: bench, label: "latency")
        let pair = try rig.watchedPair(collection: "Latency")
        let floor = try SyncFloor(bench: bench)
        let peer = try GitPeer(folder: try bench.makeFolder("latency-git"), bench: bench)
        let peerA = try peer.device("A")
        let peerB = try peer.device("B")

        var text = TextGenerator(seed: 11)
        var pause = SeededGenerator(seed: 5)
        var samples = Samples()
        let warmUp = 20
        bench.progress("sync-latency: \(sizes.syncSaves) saves, \(warmUp) more first to warm up")
        for round in 0..<(warmUp + sizes.syncSaves) {
            let body = text.body(words: 20...180, marked: false)
            let name = "Latency \(round)"
            let kept = round >= warmUp
            // Each of the three goes first in turn: what one leaves behind (git's hundreds of
            // new files, written back and committed to the file system's journal while the
            // next one syncs) falls on each alike.
            for step in 0..<3 {
                switch (round + step) % 3 {
                case 0:
                    let (total, afterCommit) = try pair.saveAndWait(name: name, body: body)
                    if kept {
                        samples.sync.append(total)
                        samples.afterCommit.append(afterCommit)
                    }
                case 1:
                    let rename = try floor.renameToEvent()
                    let commit = try floor.durableCommit(body: body)
                    if kept {
                        samples.floor.append(rename + commit)
                        samples.rename.append(rename)
                        samples.commit.append(commit)
                    }
                default:
                    guard round < warmUp + sizes.peerSaves else { break }
                    let file = "latency-\(round)"
                    let pushed = try peerA.save(file: file, name: name, body: body)
                    let pulled = try peerB.pull()
                    guard peerB.has(file: file) else {
                        throw BenchError.unexpected("git pull on B did not bring \(file).md")
                    }
                    if kept { samples.peer.append(pushed + pulled) }
                }
            }
            usleep(UInt32(2000 + pause.next() % 8000))
        }
        let memory = try rig.stopWatchers()

        let sync = Measurement("notes: save on A until readable on B", unit: .milliseconds, samples: samples.sync)
        let afterCommit = Measurement(
            "notes: save committed on A until readable on B", unit: .milliseconds, samples: samples.afterCommit)
        let floorFigure = Measurement(
            "floor: rename until inotify event + durable commit", unit: .milliseconds, samples: samples.floor)
        let peerFigure = Measurement("git: commit and push on A, pull on B", unit: .milliseconds, samples: samples.peer)
        report.measurements = [
            sync, afterCommit, floorFigure,
            Measurement("floor: rename until inotify event", unit: .milliseconds, samples: samples.rename),
            Measurement("floor: durable commit of a note row", unit: .milliseconds, samples: samples.commit),
            peerFigure,
        ]
        report.ratios = [
            Ratio("notes / floor (medians)", sync, over: floorFigure),
            Ratio("git / notes (medians)", peerFigure, over: sync),
        ]
        report.facts = [
            Fact(
                "watcher peak memory",
                memory.map { ReportPrinter.format(Double($0) / 1_048_576, .mebibytes) }.joined(separator: ", "))
        ]
        report.targets = [
            TargetCheck(
                name: "p50 under \(Int(Self.p50Target)) ms", met: sync.median < Self.p50Target,
                detail: "median \(ReportPrinter.format(sync.median, .milliseconds)) over \(sync.count) saves"),
            TargetCheck(
                name: "p99 under \(Int(Self.p99Target)) ms", met: sync.p99 < Self.p99Target,
                detail:
                    "p99 \(ReportPrinter.format(sync.p99, .milliseconds)), "
                    + "maximum \(ReportPrinter.format(sync.max, .milliseconds))"
            ),
        ]
        report.chart = LatencyChart(
            title: "A save on device A until readable on device B (\(sync.count) saves)",
            series: [
                .init(label: "floor: rename → inotify + durable commit", samples: samples.floor),
                .init(label: "notes (notes watch on A and B)", samples: samples.sync),
                .init(label: "git (commit + push on A, pull on B)", samples: samples.peer),
            ],
            markers: [(Self.p50Target, "p50 target"), (Self.p99Target, "p99 target")])
        return report
    }

    private struct Samples {
        var sync: [Double] = []
        var afterCommit: [Double] = []
        var floor: [Double] = []
        var rename: [Double] = []
        var commit: [Double] = []
        var peer: [Double] = []
    }
}
