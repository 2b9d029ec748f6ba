import Foundation
import NoteStore

/// `big-note`: one-line edits of a 10 MB note, and a new device after many of them.
///
/// Device A (the `notes` binary, as a person runs it) adds a note of about 10 MB (195,000
/// numbered lines), syncs, and device B takes it in. Then, `bigNoteEdits` times, one line of the
/// note changes: timed, A's `notes edit --body-file` (the save) and A's `notes sync now` (the
/// export of its log), whose log's bytes are counted; for the first ten edits, B's `notes sync
/// now` (the import). Last, the container's size, and a new device C joining it
/// (`notes sync enable`, by the logs: no baseline), timed with its peak memory; C's body must be
/// A's. Targets (issue 37): a save under 0.5 s, logs that grow with the edit (under 64 KB for
/// a one-line edit), an import under 0.5 s, the cloud under 50 MB and the join under 5 s.
struct BigNoteScenario: Scenario {
    func run(on bench: Workbench) throws -> ScenarioReport {
        var report = ScenarioReport(name: "big-note")
        let edits = bench.sizes.bigNoteEdits
        let lineCount = bench.sizes.bigNoteLines
        report.parameters = [Fact("lines of the note", lineCount), Fact("one-line edits", edits)]
        let folder = try bench.makeFolder("big-note")
        defer { bench.removeFolder(folder) }
        let cloud = folder.appendingPathComponent("cloud")
        try FileManager.default.createDirectory(at: cloud, withIntermediateDirectories: true)
        let notes = try bench.notes()
        @discardableResult
        func run(_ store: String, _ arguments: [String], memory: Bool = false) throws -> ProcessRunner.Run {
            try notes.run(["--store", folder.appendingPathComponent(store).path] + arguments, measuringMemory: memory)
        }
        let enable = ["sync", "enable", "--cloud", cloud.path, "--device-name"]
        try run("a", enable + ["a"])
        try run("b", enable + ["b"])

        var lines = (0..<lineCount).map { "\($0): a line of a long note, about fifty bytes long\n" }
        let file = folder.appendingPathComponent("body.txt")
        try Data(lines.joined().utf8).write(to: file)
        let size = lines.reduce(0) { $0 + $1.utf8.count }
        bench.progress(
            "big-note: a note of \(ReportPrinter.format(Double(size), .bytes)), then \(edits) one-line edits")
        try run("a", ["add", "Big", "--body-file", file.path])
        try run("a", ["sync", "now"])
        try run("b", ["sync", "now"])
        let logs = cloud.appendingPathComponent("NoteCollector/logs")
        var saves: [Double] = []
        var exports: [Double] = []
        var imports: [Double] = []
        var logBytes: [Double] = []
        var random = SystemRandomNumberGenerator()
        for edit in 0..<edits {
            lines[Int.random(in: 0..<lineCount, using: &random)] = "edit \(edit), one line changed\n"
            try Data(lines.joined().utf8).write(to: file)
            let before = Self.files(in: logs)
            saves.append(try run("a", ["edit", "Big", "--body-file", file.path]).milliseconds)
            exports.append(try run("a", ["sync", "now"]).milliseconds)
            logBytes += Self.files(in: logs).filter { before[$0.key] == nil }.map { Double($0.value) }
            if edit < 10 { imports.append(try run("b", ["sync", "now"]).milliseconds) }
        }
        let cloudBytes = Self.files(in: cloud).values.reduce(0, +)
        bench.progress("big-note: a new device joins after \(edits) edits")
        let join = try run("c", enable + ["c"], memory: true)
        let body = try Store(folder: folder.appendingPathComponent("c")).fetch(ItemRequest(includesBodies: true)).first?
            .body
        guard body == lines.joined() else {
            throw BenchError.unexpected("the new device does not hold the edited note")
        }

        let save = Measurement(
            "notes edit --body-file (one line of the note changed)", unit: .milliseconds, samples: saves)
        let export = Measurement("A's notes sync now (the export of the edit)", unit: .milliseconds, samples: exports)
        let importing = Measurement(
            "B's notes sync now (the import of the edit)", unit: .milliseconds, samples: imports)
        let bytes = Measurement("log bytes per edit", unit: .bytes, samples: logBytes)
        report.measurements += [save, export, importing, bytes]
        report.facts += [
            Fact("note size", ReportPrinter.format(Double(size), .bytes)),
            Fact("container after \(edits) edits", ReportPrinter.format(Double(cloudBytes), .bytes)),
            Fact("a new device joins (notes sync enable)", ReportPrinter.format(join.milliseconds, .milliseconds)),
            Fact("its peak memory", ReportPrinter.format(Double(join.peakMemoryBytes ?? 0), .bytes)),
        ]
        report.targets += [
            TargetCheck(
                name: "a one-line edit saves in under 0.5 s", met: save.median < 500,
                detail: String(format: "median %.0f ms", save.median)),
            TargetCheck(
                name: "its log grows with the edit (under 64 KB)", met: bytes.percentile(100) < 65_536,
                detail: String(format: "at most %.0f bytes", bytes.percentile(100))),
            TargetCheck(
                name: "another device imports it in under 0.5 s", met: importing.median < 500,
                detail: String(format: "median %.0f ms", importing.median)),
            TargetCheck(
                name: "the cloud stays under 50 MB", met: cloudBytes < 50 << 20,
                detail: ReportPrinter.format(Double(cloudBytes), .bytes)),
            TargetCheck(
                name: "a new device joins in under 5 s", met: join.milliseconds < 5_000,
                detail: String(format: "%.0f ms", join.milliseconds)),
        ]
        return report
    }

    /// The regular files under `folder`, by path, with their sizes.
    static func files(in folder: URL) -> [String: Int] {
        var sizes: [String: Int] = [:]
        guard
            let walker = FileManager.default.enumerator(
                at: folder, includingPropertiesForKeys: [.fileSizeKey, .isRegularFileKey])
        else { return [:] }
        for case let url as URL in walker {
            guard let values = try? url.resourceValues(forKeys: [.fileSizeKey, .isRegularFileKey]),
                values.isRegularFile == true
            else { continue }
            sizes[url.path] = values.fileSize ?? 0
        }
        return sizes
    }
}
