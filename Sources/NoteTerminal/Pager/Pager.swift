import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// Output longer than the screen shown through the person's pager, as git shows its own.
///
/// Only when standard output is a terminal, never to a pipe or a file. The pager is
/// `$NOTES_PAGER`, else `$PAGER`, else `less`; `NOTES_PAGER` set empty (or `cat`) turns it off.
/// `LESS` defaults to `FRX`: less quits when the text fits on one screen (`F`), passes colours
/// through (`R`), and leaves the text on the screen when it ends (`X`). The pager runs in the
/// terminal's foreground group, reading this process's standard output through a pipe.
public final class Pager {
    private let process: ForegroundProcess
    private let pid: pid_t
    private let savedOutput: Int32

    /// Starts the pager and sends standard output to it, or returns nil when there is to be
    /// none: not a terminal, turned off, or a pager that cannot be started (the output then
    /// goes to the terminal as it would without one).
    public static func start(environment: [String: String] = ProcessInfo.processInfo.environment) -> Pager? {
        guard isatty(STDOUT_FILENO) == 1, let command = command(environment: environment) else { return nil }
        var ends: [Int32] = [0, 0]
        guard pipe(&ends) == 0 else { return nil }
        var childEnvironment = environment
        if childEnvironment["LESS"] == nil { childEnvironment["LESS"] = "FRX" }
        let process = ForegroundProcess(
            executable: "/bin/sh", arguments: ["-c", command], environment: childEnvironment, standardInput: ends[0])
        fflush(nil)
        let saved = dup(STDOUT_FILENO)
        // The pager must not hold the pipe's writing end, or it would never see the end.
        _ = fcntl(ends[1], F_SETFD, FD_CLOEXEC)
        _ = fcntl(saved, F_SETFD, FD_CLOEXEC)
        guard saved >= 0, let pid = try? process.spawn() else {
            close(ends[0])
            close(ends[1])
            if saved >= 0 { close(saved) }
            return nil
        }
        close(ends[0])
        dup2(ends[1], STDOUT_FILENO)
        close(ends[1])
        return Pager(process: process, pid: pid, savedOutput: saved)
    }

    /// The pager's shell command, or nil when paging is off or its program is not found.
    static func command(environment: [String: String]) -> String? {
        let command = (environment["NOTES_PAGER"] ?? environment["PAGER"] ?? "less").trimmingCharacters(
            in: .whitespaces)
        guard !command.isEmpty, command != "cat" else { return nil }
        // A pager that is not there would take the output with it: print without one.
        let program = command.split(separator: " ").first.map(String.init) ?? command
        return ExternalEditor.executable(program, path: environment["PATH"]) == nil ? nil : command
    }

    private init(process: ForegroundProcess, pid: pid_t, savedOutput: Int32) {
        self.process = process
        self.pid = pid
        self.savedOutput = savedOutput
    }

    /// Ends the output and waits until the person leaves the pager; standard output is the
    /// terminal again. Ctrl-C and Ctrl-\ are the pager's meanwhile.
    public func finish() {
        fflush(nil)
        dup2(savedOutput, STDOUT_FILENO)
        close(savedOutput)
        ForegroundProcess.deliver(process.wait(for: pid).deferredSignal)
    }
}
