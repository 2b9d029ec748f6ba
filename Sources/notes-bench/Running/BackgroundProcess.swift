import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// A program left running while a scenario measures, such as `notes watch`: started with
/// posix_spawn(3), its standard error kept in a file, and stopped with SIGTERM.
///
/// It runs under a ``MemoryProbe``, which passes SIGTERM on and, once it has ended, reports
/// its peak resident memory.
final class BackgroundProcess {
    let pid: pid_t
    let label: String
    /// Where its standard error goes.
    let errorFile: URL
    private let probeReport: String
    private var reaped = false

    /// Starts `executable` with `arguments`; standard input and output are /dev/null.
    init(_ executable: URL, _ arguments: [String], label: String, errorFile: URL) throws {
        self.label = label
        self.errorFile = errorFile
        probeReport = errorFile.path + ".probe"
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 2, errorFile.path, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
        let program = ProcessRunner.thisProgram.path
        let argv = ([program] + MemoryProbe.arguments(report: probeReport, executable: executable, arguments)).map {
            strdup($0)
        }
        let envp = ProcessRunner.inheritedEnvironment.map { strdup("\($0.key)=\($0.value)") }
        defer {
            argv.forEach { free($0) }
            envp.forEach { free($0) }
        }
        var pid: pid_t = 0
        let spawned = ProcessRunner.withCleanSignals {
            posix_spawn(&pid, program, &actions, $0, argv + [nil], envp + [nil])
        }
        guard spawned == 0 else {
            throw BenchError.process(label, "cannot start: " + String(cString: strerror(spawned)))
        }
        self.pid = pid
    }

    deinit {
        if !reaped { _ = try? stop() }
    }

    /// What it wrote to standard error so far.
    var errorOutput: String {
        (try? String(contentsOf: errorFile, encoding: .utf8)) ?? ""
    }

    /// Waits until its standard error holds `text`; throws when it exits first or the time is up.
    func waitForError(containing text: String, within seconds: Double) throws {
        let deadline = ContinuousClock.now + .milliseconds(Int(seconds * 1000))
        while ContinuousClock.now < deadline {
            if errorOutput.contains(text) { return }
            var status: Int32 = 0
            if waitpid(pid, &status, WNOHANG) == pid {
                reaped = true
                throw BenchError.process(
                    label,
                    "exited with status \(ProcessRunner.exitCode(status)) before saying '\(text)': \(errorOutput)")
            }
            usleep(1000)
        }
        throw BenchError.process(label, "did not say '\(text)' within \(seconds) s: \(errorOutput)")
    }

    /// Sends SIGTERM and reaps it; returns its peak resident memory in bytes.
    @discardableResult
    func stop() throws -> Int {
        guard !reaped else { return 0 }
        kill(pid, SIGTERM)
        var status: Int32 = 0
        while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
        reaped = true
        let code = ProcessRunner.exitCode(status)
        guard code == 0 else {
            throw BenchError.process(label, "exit status \(code) on SIGTERM: \(errorOutput)")
        }
        guard let finding = MemoryProbe.Finding(reportFile: probeReport) else {
            throw BenchError.unexpected("the memory probe of \(label) left no report")
        }
        return finding.peakMemoryBytes
    }
}
