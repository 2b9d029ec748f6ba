import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// Runs a program as the child of a small process, to learn its peak resident memory.
///
/// Linux carries a process's peak resident memory (`ru_maxrss`) across execve(2), from the
/// memory it had before: a program that this benchmark started directly would report the
/// benchmark's own peak, hundreds of megabytes of generated notes, as its own. So the program
/// is started by `notes-bench --probe-memory REPORT PROGRAM ARGUMENTS...`, a fresh and small
/// process that spawns it, passes SIGTERM on to it, waits for it, writes its peak memory (KiB)
/// and the milliseconds from its spawn to its exit into REPORT, and exits with its status.
/// Its own few megabytes are the floor of what it can report.
enum MemoryProbe {
    static let flag = "--probe-memory"

    /// What the probe found about one run.
    struct Finding {
        let peakMemoryBytes: Int
        let milliseconds: Double

        init?(reportFile: String) {
            guard let text = try? String(contentsOfFile: reportFile, encoding: .utf8) else { return nil }
            let fields = text.split(separator: " ")
            guard fields.count == 2, let kibibytes = Int(fields[0]), let milliseconds = Double(fields[1]) else {
                return nil
            }
            peakMemoryBytes = kibibytes * 1024
            self.milliseconds = milliseconds
        }
    }

    /// The arguments that run `executable` with `arguments` under the probe.
    static func arguments(report: String, executable: URL, _ arguments: [String]) -> [String] {
        [flag, report, executable.path] + arguments
    }

    /// Becomes the probe when this process was started as one; returns otherwise.
    static func runIfAsked() {
        let arguments = CommandLine.arguments
        guard arguments.count >= 4, arguments[1] == flag else { return }
        exit(probe(report: arguments[2], program: Array(arguments[3...])))
    }

    // Unsafe: set once before the signal handlers that read it are installed; a handler
    // cannot take a lock.
    nonisolated(unsafe) private static var child: pid_t = 0

    private static func probe(report: String, program: [String]) -> Int32 {
        let argv = program.map { strdup($0) }
        defer { argv.forEach { free($0) } }
        var pid: pid_t = 0
        let clock = ContinuousClock()
        let start = clock.now
        let spawned = ProcessRunner.withCleanSignals { posix_spawn(&pid, program[0], nil, $0, argv + [nil], environ) }
        guard spawned == 0 else {
            FileHandle.standardError.write(
                Data("notes-bench: cannot start \(program[0]): \(String(cString: strerror(spawned)))\n".utf8))
            return 127
        }
        child = pid
        signal(SIGTERM) { _ in kill(MemoryProbe.child, SIGTERM) }
        signal(SIGINT) { _ in kill(MemoryProbe.child, SIGINT) }
        var passedOn = sigset_t()
        sigemptyset(&passedOn)
        sigaddset(&passedOn, SIGTERM)
        sigaddset(&passedOn, SIGINT)
        sigprocmask(SIG_UNBLOCK, &passedOn, nil)
        var status: Int32 = 0
        var usage = rusage()
        while wait4(pid, &status, 0, &usage) < 0 && errno == EINTR {}
        let milliseconds = (clock.now - start).milliseconds
        let text = "\(usage.ru_maxrss) \(String(format: "%.3f", milliseconds))"
        guard (try? text.write(toFile: report, atomically: true, encoding: .utf8)) != nil else { return 125 }
        return ProcessRunner.exitCode(status)
    }
}
