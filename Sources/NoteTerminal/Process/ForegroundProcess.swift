import CTerminal
import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// A program run in this process's own process group, so that it has the terminal as this
/// process has it: the editor or the pager that a person uses, started from `notes`.
///
/// A shell makes each command it runs the terminal's foreground process group; a child in
/// that group reads the keyboard, gets the terminal's signals (Ctrl-C, Ctrl-Z, a resize) and,
/// when it ends, leaves the terminal to `notes` again. Foundation's `Process` starts its child
/// in a new process group instead, which the terminal stops (SIGTTIN) at its first read: that
/// is why the child is spawned here with posix_spawn(3), as system(3) and git do.
public struct ForegroundProcess: Sendable {
    /// The program's path.
    public var executable: String
    /// Its arguments, after the program's name.
    public var arguments: [String]
    /// Its environment; nil for this process's own.
    public var environment: [String: String]?
    /// A file descriptor to be its standard input; nil for this process's own.
    public var standardInput: Int32?
    /// A file descriptor to be its standard output; nil for this process's own.
    public var standardOutput: Int32?

    public init(
        executable: String, arguments: [String], environment: [String: String]? = nil,
        standardInput: Int32? = nil, standardOutput: Int32? = nil
    ) {
        self.executable = executable
        self.arguments = arguments
        self.environment = environment
        self.standardInput = standardInput
        self.standardOutput = standardOutput
    }

    /// How the program ended.
    public enum Termination: Equatable, Sendable {
        case exited(Int32)
        case signalled(Int32)
    }

    /// How a run ended, and a signal that came to this process meanwhile.
    public struct Outcome: Sendable {
        public let termination: Termination
        /// SIGTERM or SIGHUP when one came while the program ran, else 0. The caller cleans
        /// up, then calls ``ForegroundProcess/deliver(_:)``.
        public let deferredSignal: Int32

        public var succeeded: Bool { termination == .exited(0) }
    }

    /// Ends this process by a signal that came while a program ran, with the signal's default
    /// action, as if it came now; does nothing for 0.
    public static func deliver(_ deferredSignal: Int32) {
        guard deferredSignal != 0 else { return }
        signal(deferredSignal, SIG_DFL)
        raise(deferredSignal)
    }

    /// Runs the program and waits for it.
    ///
    /// Meanwhile this process ignores SIGINT and SIGQUIT, which the terminal sends to the
    /// whole group and which are the program's to handle, and holds SIGTERM and SIGHUP until
    /// the program ends (see ``Outcome/deferredSignal``): a hang-up of the terminal reaches
    /// the program by itself, and what it wrote is not lost with this process. The program
    /// starts with the default action for every signal and none blocked. When it ends, the
    /// terminal's modes are put back as they were, should it have left them changed (killed
    /// in raw mode).
    public func run() throws(TerminalError) -> Outcome {
        let modes = TerminalModes.saved()
        guard notes_begin_foreground_child() == 0 else {
            throw .cannotRun(program: executable, reason: Self.errnoText())
        }
        let pid: pid_t
        do {
            pid = try spawn()
        } catch {
            _ = notes_end_foreground_child()
            throw error
        }
        return finish(pid, modes: modes)
    }

    /// Waits for a child started with ``spawn()``, while SIGINT and SIGQUIT are its own.
    func wait(for pid: pid_t) -> Outcome {
        let modes = TerminalModes.saved()
        guard notes_begin_foreground_child() == 0 else {
            return Outcome(termination: Self.wait(for: pid), deferredSignal: 0)
        }
        return finish(pid, modes: modes)
    }

    private func finish(_ pid: pid_t, modes: TerminalModes?) -> Outcome {
        let termination = Self.wait(for: pid)
        let deferred = notes_end_foreground_child()
        modes?.restore()
        return Outcome(termination: termination, deferredSignal: deferred)
    }

    /// Waits for the child `pid` to end.
    static func wait(for pid: pid_t) -> Termination {
        var status: Int32 = 0
        while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
        return status & 0x7f == 0 ? .exited((status >> 8) & 0xff) : .signalled(status & 0x7f)
    }

    /// Starts the program without waiting for it, with every signal at its default action.
    func spawn() throws(TerminalError) -> pid_t {
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        for (descriptor, target) in [(standardInput, STDIN_FILENO), (standardOutput, STDOUT_FILENO)] {
            guard let descriptor else { continue }
            posix_spawn_file_actions_adddup2(&actions, descriptor, target)
        }
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        var defaults = sigset_t()
        sigfillset(&defaults)
        sigdelset(&defaults, SIGKILL)
        sigdelset(&defaults, SIGSTOP)
        var none = sigset_t()
        sigemptyset(&none)
        posix_spawnattr_setsigdefault(&attributes, &defaults)
        posix_spawnattr_setsigmask(&attributes, &none)
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGDEF | POSIX_SPAWN_SETSIGMASK))

        let argv = ([executable] + arguments).map { strdup($0) } + [nil]
        defer { argv.forEach { free($0) } }
        let envp = environment.map { $0.map { strdup("\($0.key)=\($0.value)") } + [nil] }
        defer { envp?.forEach { free($0) } }
        var pid: pid_t = 0
        let result =
            if let envp {
                posix_spawn(&pid, executable, &actions, &attributes, argv, envp)
            } else {
                posix_spawn(&pid, executable, &actions, &attributes, argv, environ)
            }
        guard result == 0 else { throw .cannotRun(program: executable, reason: Self.errnoText(result)) }
        return pid
    }

    static func errnoText(_ code: Int32 = errno) -> String {
        String(cString: strerror(code)).lowercased()
    }
}
