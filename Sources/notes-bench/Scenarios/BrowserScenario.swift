import Foundation
import NoteStore

#if canImport(Glibc)
    import Glibc
#endif

/// `browser`: `notes browse` open on a large store, at a real pseudo-terminal (util-linux's
/// `script`), while another process saves notes, as `notes watch` does when it imports.
///
/// Measured: from the commit of each save to the moment the new note's name is in what the
/// browser wrote to the terminal; and the browser's peak resident memory. The store holds a
/// ``NoteLibrary`` (100,000 notes at full size); the browser shows All notes, the largest
/// view, and each note saved is named to sort first, so that it appears on the screen.
struct BrowserScenario: Scenario {
    /// The target of the terminal issue: a change imported shows within 100 ms.
    static let budgetMilliseconds = 100.0

    func run(on bench: Workbench) throws -> ScenarioReport {
        let sizes = bench.sizes
        var report = ScenarioReport(name: "browser")
        let saves = max(10, sizes.listingRounds)
        report.parameters = [Fact("notes", sizes.libraryNotes), Fact("saves", saves)]
        bench.progress("browser: saving \(sizes.libraryNotes) notes")
        let library = NoteLibrary(notes: sizes.libraryNotes, collections: sizes.collections)
        let folder = try bench.makeFolder("browser-store")
        defer { bench.removeFolder(folder) }
        let store = try Store(folder: folder)
        let ids = try library.saveCollections(to: store)
        try library.saveNotes(to: store, collectionIDs: ids)

        let terminal = try TerminalRun(notes: try bench.notes().executable, store: folder, scratch: try bench.makeFolder("browser-terminal"))
        defer { terminal.quit() }
        let startup = try Stopwatch.milliseconds { try terminal.waitFor("? help", within: 60) }
        bench.progress("browser: \(saves) saves by another process while it is open")
        var samples: [Double] = []
        for number in 0..<saves {
            let name = String(format: "!arrived %03d", number)
            let clock = ContinuousClock()
            _ = try store.addNote(named: name, body: "arrived while the browser was open", in: nil)
            let saved = clock.now
            try terminal.waitFor(name, within: 30)
            samples.append(saved.duration(to: clock.now).milliseconds)
        }
        let memory = terminal.peakMemoryMebibytes()
        let latency = Measurement("a save by another process to the new row on the screen", unit: .milliseconds, samples: samples)
        report.measurements = [latency]
        if let memory { report.measurements.append(Measurement("browser's peak resident memory", unit: .mebibytes, samples: [memory])) }
        report.facts = [Fact("first screen drawn", String(format: "%.0f ms", startup))]
        let met = latency.median < Self.budgetMilliseconds
        report.targets.append(TargetCheck(
            name: "a change shows within \(Int(Self.budgetMilliseconds)) ms",
            met: met,
            detail: "median \(ReportPrinter.format(latency.median, .milliseconds)), p99 \(ReportPrinter.format(latency.p99, .milliseconds))"
                + (sizes.libraryNotes < 100_000 ? " (quick sizes, not 100,000 notes)" : "")))
        return report
    }
}

/// `notes browse` on a pseudo-terminal made by `script`, whose output this process reads as
/// it comes.
private final class TerminalRun {
    private let pid: pid_t
    private let input: Int32
    private let output: Int32
    private var seen = Data()

    init(notes: URL, store: URL, scratch: URL) throws {
        var toScript: [Int32] = [-1, -1]
        var fromScript: [Int32] = [-1, -1]
        guard pipe(&toScript) == 0, pipe(&fromScript) == 0 else { throw BenchError.unexpected("cannot make pipes") }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_adddup2(&actions, toScript[0], 0)
        posix_spawn_file_actions_adddup2(&actions, fromScript[1], 1)
        posix_spawn_file_actions_addopen(&actions, 2, scratch.appendingPathComponent("stderr").path, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
        for descriptor: Int32 in [toScript[0], toScript[1], fromScript[0], fromScript[1]] {
            posix_spawn_file_actions_addclose(&actions, descriptor)
        }
        let command = "stty rows 24 cols 80; exec '\(notes.path)' --store '\(store.path)' browse"
        let arguments: [String] = ["/usr/bin/script", "--quiet", "--return", "--command", command, "/dev/null"]
        let variables: [String] = ["PATH=/usr/bin:/bin", "TERM=xterm-256color", "LANG=C.UTF-8", "HOME=\(scratch.path)"]
        let argv: [UnsafeMutablePointer<CChar>?] = arguments.map { strdup($0) } + [nil]
        let envp: [UnsafeMutablePointer<CChar>?] = variables.map { strdup($0) } + [nil]
        defer {
            argv.forEach { free($0) }
            envp.forEach { free($0) }
        }
        var pid: pid_t = 0
        guard posix_spawn(&pid, "/usr/bin/script", &actions, nil, argv, envp) == 0 else {
            throw BenchError.unexpected("cannot start script")
        }
        close(toScript[0])
        close(fromScript[1])
        self.pid = pid
        input = toScript[1]
        output = fromScript[0]
    }

    /// Reads the terminal's output until it holds `text` (after what was matched before).
    func waitFor(_ text: String, within seconds: Double) throws {
        let wanted = Data(text.utf8)
        let deadline = ContinuousClock.now + .milliseconds(Int(seconds * 1000))
        var buffer = [UInt8](repeating: 0, count: 65536)
        while seen.range(of: wanted) == nil {
            guard ContinuousClock.now < deadline else { throw BenchError.unexpected("the browser never showed '\(text)'") }
            var descriptor = pollfd(fd: output, events: Int16(POLLIN), revents: 0)
            guard poll(&descriptor, 1, 1000) > 0 else { continue }
            let count = read(output, &buffer, buffer.count)
            guard count > 0 else { throw BenchError.unexpected("the browser ended before showing '\(text)'") }
            seen.append(contentsOf: buffer[0..<count])
        }
        seen = Data(seen[seen.range(of: wanted)!.upperBound...])
    }

    /// The peak resident memory of the `notes` process under `script`, from /proc.
    func peakMemoryMebibytes() -> Double? {
        guard let children = try? String(contentsOfFile: "/proc/\(pid)/task/\(pid)/children", encoding: .utf8),
            let child = children.split(separator: " ").first,
            let status = try? String(contentsOfFile: "/proc/\(child)/status", encoding: .utf8),
            let line = status.split(separator: "\n").first(where: { $0.hasPrefix("VmHWM:") }),
            let kilobytes = Double(line.split(separator: " ").dropFirst().first ?? "")
        else { return nil }
        return kilobytes / 1024
    }

    func quit() {
        var key: UInt8 = UInt8(ascii: "q")
        _ = write(input, &key, 1)
        close(input)
        var status: Int32 = 0
        waitpid(pid, &status, 0)
        close(output)
    }
}
