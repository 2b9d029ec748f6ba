import Foundation
import NoteStore

#if canImport(Glibc)
    import Glibc
#endif

/// `browser`: `notes browse` open on a large store, in a terminal of tmux, while another
/// process saves notes, as `notes watch` does when it imports.
///
/// Measured: from the commit of each save to the moment the new note's name is on the
/// screen; and the browser's peak resident memory. The store holds a ``NoteLibrary`` (100,000
/// notes at full size, 1,000 with `--quick`, or as many as `--browser-notes` says); the browser
/// shows All notes, the largest view, and each note saved is named to sort first, so that it
/// appears on the screen.
struct BrowserScenario: Scenario {
    /// The target of the terminal issue: a change imported shows within 100 ms.
    static let budgetMilliseconds = 100.0

    func run(on bench: Workbench) throws -> ScenarioReport {
        let sizes = bench.sizes
        var report = ScenarioReport(name: "browser")
        let noteCount = sizes.browserNotes
        let saves = sizes.browserSaves
        report.parameters = [Fact("notes", noteCount), Fact("saves", saves)]
        bench.progress("browser: saving \(noteCount) notes")
        let library = NoteLibrary(notes: noteCount, collections: sizes.collections)
        let folder = try bench.makeFolder("browser-store")
        defer { bench.removeFolder(folder) }
        let store = try Store(folder: folder)
        let ids = try library.saveCollections(to: store)
        try library.saveNotes(to: store, collectionIDs: ids)

        let terminal = try TerminalRun(
            notes: try bench.notes().executable, store: folder, scratch: try bench.makeFolder("browser-terminal"))
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
        let latency = Measurement(
            "a save by another process to the new row on the screen", unit: .milliseconds, samples: samples)
        report.measurements = [latency]
        if let memory {
            report.measurements.append(
                Measurement("browser's peak resident memory", unit: .mebibytes, samples: [memory]))
        }
        report.facts = [Fact("first screen drawn", String(format: "%.0f ms", startup))]
        let met = latency.median < Self.budgetMilliseconds
        report.targets.append(
            TargetCheck(
                name: "a change shows within \(Int(Self.budgetMilliseconds)) ms",
                met: met,
                detail:
                    "median \(ReportPrinter.format(latency.median, .milliseconds)), "
                    + "p99 \(ReportPrinter.format(latency.p99, .milliseconds))"
                    + (noteCount < 100_000 ? " (\(noteCount) notes, not 100,000)" : "")))
        return report
    }
}

/// `notes browse` in a terminal of tmux (80 by 24), whose screen this process reads with
/// `capture-pane`: ncurses sends the terminal only the cells that changed, so the screen,
/// not the bytes written, says when a name is shown. A capture takes a few milliseconds,
/// which bounds the resolution of the figure.
private final class TerminalRun {
    private let socket: String
    private let pid: pid_t?

    init(notes: URL, store: URL, scratch: URL) throws {
        socket = scratch.appendingPathComponent("tmux.socket").path
        let command =
            "exec env -i PATH=/usr/bin:/bin TERM=xterm-256color LANG=C.UTF-8 HOME='\(scratch.path)' "
            + "'\(notes.path)' --store '\(store.path)' browse"
        try Self.tmux(
            socket, ["-f", "/dev/null", "new-session", "-d", "-x", "80", "-y", "24", command], capturing: false)
        pid = Int32(
            try Self.tmux(socket, ["display-message", "-p", "#{pane_pid}"]).trimmingCharacters(
                in: .whitespacesAndNewlines))
    }

    /// Waits until the screen shows `text`.
    func waitFor(_ text: String, within seconds: Double) throws {
        let deadline = ContinuousClock.now + .milliseconds(Int(seconds * 1000))
        while ContinuousClock.now < deadline {
            if try Self.tmux(socket, ["capture-pane", "-p"]).contains(text) { return }
        }
        throw BenchError.unexpected("the browser never showed '\(text)'")
    }

    /// The peak resident memory of the browser, from /proc.
    func peakMemoryMebibytes() -> Double? {
        guard let pid, let status = try? String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8),
            let line = status.split(separator: "\n").first(where: { $0.hasPrefix("VmHWM:") }),
            let kilobytes = Double(line.split(separator: " ").dropFirst().first ?? "")
        else { return nil }
        return kilobytes / 1024
    }

    func quit() {
        _ = try? Self.tmux(socket, ["send-keys", "q"])
        _ = try? Self.tmux(socket, ["kill-server"])
    }

    /// Runs tmux on the socket and returns what it printed; posix_spawn, so that the server
    /// it may start holds no pipe of this process (its output is /dev/null then).
    @discardableResult
    private static func tmux(_ socket: String, _ arguments: [String], capturing: Bool = true) throws -> String {
        var ends: [Int32] = [-1, -1]
        if capturing { guard pipe(&ends) == 0 else { throw BenchError.unexpected("cannot make a pipe") } }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        if capturing {
            posix_spawn_file_actions_adddup2(&actions, ends[1], 1)
            posix_spawn_file_actions_addclose(&actions, ends[0])
            posix_spawn_file_actions_addclose(&actions, ends[1])
        } else {
            posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0)
        }
        posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0)
        let all: [String] = ["tmux", "-S", socket] + arguments
        let argv: [UnsafeMutablePointer<CChar>?] = all.map { strdup($0) } + [nil]
        defer { argv.forEach { free($0) } }
        var pid: pid_t = 0
        guard posix_spawn(&pid, "/usr/bin/tmux", &actions, nil, argv, environ) == 0 else {
            throw BenchError.unexpected("cannot start tmux")
        }
        var output = Data()
        if capturing {
            close(ends[1])
            var buffer = [UInt8](repeating: 0, count: 8192)
            while true {
                let count = read(ends[0], &buffer, buffer.count)
                if count <= 0 { break }
                output.append(contentsOf: buffer[0..<count])
            }
            close(ends[0])
        }
        var status: Int32 = 0
        waitpid(pid, &status, 0)
        guard status == 0 else { throw BenchError.unexpected("tmux \(arguments.first ?? "") failed") }
        return String(decoding: output, as: UTF8.self)
    }
}
