import ArgumentParser
import Foundation

/// `notes-bench`: measures the note store and the `notes` command against the performance
/// targets of ARCHITECTURE.md.
///
/// Every comparison is a ratio of figures measured in the same run, and every figure is the
/// median of several repetitions with its spread, because the machines are shared and noisy.
@main
struct NotesBench: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "notes-bench",
        abstract: "Benchmarks of the note store and the notes command.",
        discussion: "Scenarios: " + ScenarioName.allCases.map(\.rawValue).joined(separator: ", ")
            + ". Progress goes to standard error, the report to standard output: in text, each"
            + " scenario's part as soon as it ends (with --json, that part goes to standard error,"
            + " and the JSON at the end).")

    @Flag(help: "Run with small sizes (about a minute), to check that the benchmark works.")
    var quick = false

    @Flag(help: "Print the report as JSON.")
    var json = false

    @Option(help: ArgumentHelp("The notes binary to run (default: notes beside this program).", valueName: "PATH"))
    var notesBinary: String?

    @Option(
        name: .customLong("scenario"), parsing: .upToNextOption,
        help: ArgumentHelp("The scenarios to run (default: all).", valueName: "NAME"))
    var scenarios: [ScenarioName] = []

    @Option(
        help: ArgumentHelp(
            "The notes in the store of the browser scenario (default: 100,000; 1,000 with --quick).", valueName: "COUNT"
        ))
    var browserNotes: Int?

    @Option(
        help: ArgumentHelp("Write the latency distribution chart of sync-latency to this SVG file.", valueName: "PATH"))
    var chart: String?

    static func main() {
        MemoryProbe.runIfAsked()
        main(nil)
    }

    func run() throws {
        let binary = notesBinary.map { URL(fileURLWithPath: $0) } ?? Self.besideThisProgram("notes")
        guard FileManager.default.isExecutableFile(atPath: binary.path) else {
            throw BenchError.missingBinary(binary.path)
        }
        var sizes = quick ? BenchSizes.quick : .full
        if let browserNotes { sizes.browserNotes = browserNotes }
        let bench = try Workbench(sizes: sizes, notesBinary: binary)
        var report = Report(
            quick: quick, command: CommandLine.arguments.joined(separator: " "),
            started: Date().ISO8601Format(), machine: .current())
        let chosen = ScenarioName.allCases.filter { scenarios.isEmpty || scenarios.contains($0) }
        // Each scenario's part is written as it ends: a run stopped from outside keeps what
        // it measured.
        if !json { Self.write(ReportPrinter.heading(report), to: .standardOutput) }
        for name in chosen {
            bench.progress("\(name.rawValue): running")
            let (result, milliseconds) = try Stopwatch.time { try name.scenario.run(on: bench) }
            bench.progress("\(name.rawValue): done in \(String(format: "%.1f", milliseconds / 1000)) s")
            report.scenarios.append(result)
            Self.write("\n" + ReportPrinter.text(result), to: json ? .standardError : .standardOutput)
        }
        if let chart, let picture = report.scenarios.lazy.compactMap(\.chart).first {
            try Data(picture.svg().utf8).write(to: URL(fileURLWithPath: chart))
            bench.progress("chart written to \(chart)")
        }
        if json { Self.write(try ReportPrinter.json(report), to: .standardOutput) }
    }

    /// Writes `text` to `handle` at once (no buffer stands between).
    private static func write(_ text: String, to handle: FileHandle) {
        handle.write(Data(text.utf8))
    }

    /// A file in the folder of this executable.
    private static func besideThisProgram(_ name: String) -> URL {
        let executable =
            (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe"))
            ?? CommandLine.arguments[0]
        return URL(fileURLWithPath: executable).deletingLastPathComponent().appendingPathComponent(name)
    }
}
