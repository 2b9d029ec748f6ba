import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// Runs a program as a separate process and measures it end to end: from the spawn to the
/// exit reaped, as a person at a shell would feel it.
///
/// Uses posix_spawn(3) and wait4(2) directly, so that no thread or pipe of Foundation's
/// `Process` adds to the figure. Standard input is /dev/null; standard output goes to
/// /dev/null unless captured; standard error goes to a file, to report a failure.
struct ProcessRunner {
    /// What one run did.
    struct Run {
        let milliseconds: Double
        let status: Int32
        /// Standard output, when captured.
        let output: String
        /// The process's peak resident memory in bytes, when measured (``MemoryProbe``).
        let peakMemoryBytes: Int?

        /// The peak resident memory in MiB; 0 when not measured.
        var peakMebibytes: Double { Double(peakMemoryBytes ?? 0) / 1_048_576 }
    }

    let executable: URL
    /// Where the runner keeps the files that capture output.
    let scratch: URL
    /// Variables set for the program on top of this process's environment.
    var environment: [String: String] = [:]

    /// Runs the program once; throws when it cannot start or does not exit with status 0.
    @discardableResult
    ///
    /// With `measuringMemory`, the program runs under a ``MemoryProbe``, which also times it.
    func run(_ arguments: [String], capturingOutput: Bool = false, measuringMemory: Bool = false) throws -> Run {
        let probeReport = scratch.appendingPathComponent("probe-report").path
        let program = measuringMemory ? ProcessRunner.thisProgram : executable
        let programArguments =
            measuringMemory ? MemoryProbe.arguments(report: probeReport, executable: executable, arguments) : arguments
        let outPath = capturingOutput ? scratch.appendingPathComponent("stdout").path : "/dev/null"
        let errPath = scratch.appendingPathComponent("stderr").path
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 1, outPath, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
        posix_spawn_file_actions_addopen(&actions, 2, errPath, O_WRONLY | O_CREAT | O_TRUNC, 0o600)

        let argv = ([program.path] + programArguments).map { strdup($0) }
        let envp = Self.inheritedEnvironment.merging(environment) { $1 }.map { strdup("\($0.key)=\($0.value)") }
        defer {
            argv.forEach { free($0) }
            envp.forEach { free($0) }
        }
        var pid: pid_t = 0
        var status: Int32 = 0
        var usage = rusage()
        let clock = ContinuousClock()
        let start = clock.now
        let spawned = Self.withCleanSignals {
            posix_spawn(&pid, program.path, &actions, $0, argv + [nil], envp + [nil])
        }
        guard spawned == 0 else {
            throw BenchError.process(
                executable.lastPathComponent, "cannot start: " + String(cString: strerror(spawned)))
        }
        while wait4(pid, &status, 0, &usage) < 0 && errno == EINTR {}
        let elapsed = (clock.now - start).milliseconds

        let code = Self.exitCode(status)
        guard code == 0 else {
            let message = (try? String(contentsOfFile: errPath, encoding: .utf8)) ?? ""
            throw BenchError.process(
                ([executable.lastPathComponent] + arguments).joined(separator: " "),
                "exit status \(code): " + message.trimmingCharacters(in: .whitespacesAndNewlines))
        }
        let output = capturingOutput ? (try? String(contentsOfFile: outPath, encoding: .utf8)) ?? "" : ""
        guard measuringMemory else {
            return Run(milliseconds: elapsed, status: code, output: output, peakMemoryBytes: nil)
        }
        guard let finding = MemoryProbe.Finding(reportFile: probeReport) else {
            throw BenchError.unexpected("the memory probe of \(executable.lastPathComponent) left no report")
        }
        return Run(
            milliseconds: finding.milliseconds, status: code, output: output, peakMemoryBytes: finding.peakMemoryBytes)
    }

    /// The exit status from a wait status, or 128 + the signal that ended the process.
    static func exitCode(_ status: Int32) -> Int32 {
        let signal = status & 0x7f
        return signal == 0 ? (status >> 8) & 0xff : 128 + signal
    }

    /// This very program, which serves as the memory probe.
    static let thisProgram = URL(
        fileURLWithPath: (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe"))
            ?? CommandLine.arguments[0])

    /// This process's environment, less `NOTES_STORE`: every run names its store.
    static let inheritedEnvironment: [String: String] = ProcessInfo.processInfo.environment
        .filter { $0.key != "NOTES_STORE" }
}

extension ProcessRunner {
    /// Runs `body` with spawn attributes that give the program no blocked signals and the
    /// default action for SIGTERM, SIGINT and SIGPIPE, whatever this thread blocks or ignores:
    /// a watcher must end on SIGTERM even when the benchmark runs under a test runner.
    static func withCleanSignals<T>(_ body: (UnsafePointer<posix_spawnattr_t>) -> T) -> T {
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        var none = sigset_t()
        sigemptyset(&none)
        posix_spawnattr_setsigmask(&attributes, &none)
        var defaults = sigset_t()
        sigemptyset(&defaults)
        for signal in [SIGTERM, SIGINT, SIGPIPE] { sigaddset(&defaults, signal) }
        posix_spawnattr_setsigdefault(&attributes, &defaults)
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF))
        return body(&attributes)
    }
}
