import Foundation
import NoteTestSupport
import Testing

/// The benchmark program still runs and reports figures: its quick run, once, with every
/// scenario (watchers, git peer and chart included). Its figures are not checked against
/// targets here: speed is the benchmark's business, not the tests'.
@Suite struct BenchmarkSmokeTests {
    @Test func quickRunOfEveryScenarioReportsJSONWithPositiveMediansAndAChart() throws {
        let bench = NotesCommand.productsFolder.appendingPathComponent("notes-bench")
        try #require(
            FileManager.default.isExecutableFile(atPath: bench.path), "no notes-bench beside notes at \(bench.path)")
        let scratch = TemporaryFolder("notes-bench-smoke")
        let output = scratch.appending("report.json")
        let chart = scratch.appending("latency.svg")
        _ = FileManager.default.createFile(atPath: output.path, contents: nil)
        let handle = try FileHandle(forWritingTo: output)
        defer { try? handle.close() }

        let process = Process()
        process.executableURL = bench
        process.arguments = [
            "--quick", "--json", "--chart", chart.path, "--notes-binary", NotesCommand.binary.path,
        ]
        var environment = ProcessInfo.processInfo.environment
        environment["TMPDIR"] = scratch.path
        process.environment = environment
        process.standardInput = FileHandle.nullDevice
        process.standardOutput = handle
        process.standardError = FileHandle.nullDevice
        try process.run()
        let finished = eventually(within: 400, pollingEvery: 0.05) { !process.isRunning }
        if !finished { process.terminate() }
        process.waitUntilExit()
        try #require(finished, "notes-bench did not finish within 400 s")
        try #require(process.terminationStatus == 0, "notes-bench exited with status \(process.terminationStatus)")

        let report = try JSONSerialization.jsonObject(with: Data(contentsOf: output)) as? [String: Any]
        let scenarios = report?["scenarios"] as? [[String: Any]] ?? []
        #expect(
            scenarios.map { $0["name"] as? String } == [
                "local-save", "listing", "browser", "insert", "import", "sync-latency", "sustained", "catch-up", "idle",
                "history", "syncthing",
                "interchange", "encryption", "big-note", "big-file", "links", "scale", "devices",
            ])
        for scenario in scenarios {
            let measurements = scenario["measurements"] as? [[String: Any]] ?? []
            #expect(!measurements.isEmpty, "\(scenario["name"] ?? "a scenario") measured nothing")
            for measurement in measurements {
                let median = measurement["median"] as? Double ?? -1
                // A watcher at rest may well wake never and use no CPU at all in a quick run.
                let atRest =
                    (measurement["name"] as? String)?.hasSuffix("at rest") == true
                    || (measurement["name"] as? String)?.contains("at rest,") == true
                #expect(
                    atRest ? median >= 0 : median > 0, "\(measurement["name"] ?? "a measurement") has median \(median)")
            }
            #expect(
                !(scenario["targets"] as? [[String: Any]] ?? []).isEmpty || scenario["name"] as? String == "local-save")
        }
        let svg = try String(contentsOf: chart, encoding: .utf8)
        #expect(svg.hasPrefix("<svg") || svg.hasPrefix("<?xml"))
        #expect(svg.contains("notes (notes watch on A and B)"))
    }
}
