import Foundation
import NoteStore

/// `links`: links between notes at scale (docs/links.md).
///
/// A store of `linkNotes` notes in 100 collections, each body linking to five other notes by
/// name (500,000 links at full size), and `hubBacklinks` of them also to one note, the hub, is
/// built through the store's bulk path and synced to a second device. Timed, each `notes` run a
/// process: `notes backlinks` of a note with a few backlinks, and of the hub, against `notes
/// --version`; then the rename of the hub (`notes edit --name`, which rewrites the links in
/// every body that links to it, in one save), its export, and its import on the other device.
/// Target (issue 34): `backlinks` under 30 ms at the median at 100,000 notes.
struct LinksScenario: Scenario {
    static let budgetMilliseconds = 30.0

    func run(on bench: Workbench) throws -> ScenarioReport {
        let sizes = bench.sizes
        var report = ScenarioReport(name: "links")
        report.parameters = [
            Fact("notes", sizes.linkNotes), Fact("links", sizes.linkNotes * 5 + sizes.hubBacklinks),
            Fact("notes linking to the hub", sizes.hubBacklinks), Fact("rounds", sizes.linkRounds),
        ]
        let folder = try bench.makeFolder("links")
        defer { bench.removeFolder(folder) }
        let a = folder.appendingPathComponent("a"), b = folder.appendingPathComponent("b")
        let cloud = folder.appendingPathComponent("cloud")
        try FileManager.default.createDirectory(at: cloud, withIntermediateDirectories: true)

        bench.progress("links: \(sizes.linkNotes) notes with five links each")
        let buildMilliseconds = try Stopwatch.milliseconds {
            try Self.build(a, notes: sizes.linkNotes, hub: sizes.hubBacklinks)
        }
        let notes = try bench.notes()
        @discardableResult
        func run(_ store: URL, _ arguments: [String], capturing: Bool = false) throws -> ProcessRunner.Run {
            try notes.run(["--store", store.path] + arguments, capturingOutput: capturing)
        }
        bench.progress("links: syncing them to a second device")
        try run(a, ["sync", "enable", "--cloud", cloud.path, "--device-name", "a"])
        try run(b, ["sync", "enable", "--cloud", cloud.path, "--device-name", "b"])

        let typical = Self.name(sizes.linkNotes / 2)
        let hubCount = try run(a, ["backlinks", "Hub"], capturing: true).output.split(separator: "\n").count
        guard hubCount == sizes.hubBacklinks else {
            throw BenchError.unexpected("the hub has \(hubCount) backlinks, not \(sizes.hubBacklinks)")
        }
        bench.progress("links: \(sizes.linkRounds) rounds of backlinks")
        var floor: [Double] = [], few: [Double] = [], many: [Double] = []
        for _ in 0..<sizes.linkRounds {
            floor.append(try run(a, ["--version"]).milliseconds)
            few.append(try run(a, ["backlinks", "C\(sizes.linkNotes / 2 % 100)/\(typical)"]).milliseconds)
            many.append(try run(a, ["backlinks", "Hub"]).milliseconds)
        }
        bench.progress("links: renaming the hub")
        let rename = try run(a, ["edit", "Hub", "--name", "Hub renamed"]).milliseconds
        let export = try run(a, ["sync", "now"]).milliseconds
        let imported = try run(b, ["sync", "now"]).milliseconds
        let rewritten = try run(b, ["search", "links:\"Hub renamed\"", "--limit", "100000"], capturing: true).output
        guard
            try run(b, ["backlinks", "Hub renamed"], capturing: true).output.split(separator: "\n").count
                == sizes.hubBacklinks,
            !rewritten.isEmpty
        else { throw BenchError.unexpected("the other device does not have the rewritten links") }

        let version = Measurement("notes --version", unit: .milliseconds, samples: floor)
        let typicalBacklinks = Measurement(
            "notes backlinks of a note with a few backlinks", unit: .milliseconds, samples: few)
        let hubBacklinks = Measurement(
            "notes backlinks of the hub (\(sizes.hubBacklinks) backlinks)", unit: .milliseconds, samples: many)
        report.measurements = [version, typicalBacklinks, hubBacklinks]
        report.ratios = [Ratio("backlinks (a few) / --version (medians)", typicalBacklinks, over: version)]
        report.facts = [
            Fact("store built with its link index (one save)", String(format: "%.1f s", buildMilliseconds / 1000)),
            Fact(
                "rename of the hub, rewriting \(sizes.hubBacklinks) bodies (notes edit --name)",
                ReportPrinter.format(rename, .milliseconds)),
            Fact("its export (A's notes sync now)", ReportPrinter.format(export, .milliseconds)),
            Fact("its import (B's notes sync now)", ReportPrinter.format(imported, .milliseconds)),
        ]
        report.targets = [
            TargetCheck(
                name: "notes backlinks under \(Int(Self.budgetMilliseconds)) ms",
                met: typicalBacklinks.median < Self.budgetMilliseconds,
                detail: String(
                    format: "median %.1f ms with a few backlinks, %.1f ms with %d", typicalBacklinks.median,
                    hubBacklinks.median, sizes.hubBacklinks))
        ]
        return report
    }

    static func name(_ index: Int) -> String { String(format: "Note %06d", index) }

    /// The store: 100 collections `C0` to `C99`; note `i` in collection `i % 100`, linking to
    /// five notes spread over the store, and the first `hub` notes to the hub too.
    static func build(_ folder: URL, notes count: Int, hub: Int) throws {
        let store = try Store(folder: folder)
        let context = store.makeContext()
        let collections = (0..<100).map { context.insertCollection(named: "C\($0)").id }
        _ = context.insertNote(named: "Hub", body: "the note many link to\n", in: nil)
        var state: UInt64 = 0x9E37_79B9_7F4A_7C15
        for index in 0..<count {
            var body = "Note \(index) links to"
            for _ in 0..<5 {
                state = state &* 6364136223846793005 &+ 1442695040888963407
                body += " [[\(name(Int((state >> 33) % UInt64(count))))]]"
            }
            if index < hub { body += "\nand to [[Hub]]" }
            _ = context.insertNote(named: name(index), body: body + "\n", in: collections[index % 100])
        }
        try context.save()
    }
}
