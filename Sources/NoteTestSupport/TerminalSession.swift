import Foundation

/// A real terminal with an interactive shell in it (bash unless told), driven as a person
/// drives one: tmux runs the shell on a pseudo-terminal of the given size; keys are typed with
/// `send-keys` and the screen is read with `capture-pane`.
///
/// The shell does job control as a login shell does, so a command typed here runs in the
/// terminal's foreground process group, and the programs it starts (vim, nano, less) see a
/// terminal exactly as they do for a person. Each session has its own tmux server (a socket
/// in its own folder) and ends it when released.
public final class TerminalSession: Sendable {
    private let socket: String
    private let folder: TemporaryFolder

    /// An interactive shell, started without its start-up files and with the prompt `$ `.
    public enum Shell: String, Sendable, CaseIterable, CustomStringConvertible {
        case bash, zsh, fish

        /// The command line that starts it (`PS1` comes from the environment).
        var command: [String] {
            switch self {
            case .bash: ["bash", "--norc", "--noprofile"]
            case .zsh: ["zsh", "-f"]
            // No greeting, and no suggestion from history drawn after the cursor.
            case .fish:
                [
                    "fish", "--no-config", "--init-command",
                    "function fish_prompt; printf '$ '; end; set -g fish_greeting; "
                        + "set -g fish_autosuggestion_enabled 0",
                ]
            }
        }

        public var description: String { rawValue }
    }

    /// Starts `shell` with the prompt `$ `, `PATH` holding the built `notes` first, `HOME`
    /// (and the working folder) in a folder of its own, and `environment` on top.
    public init(width: Int = 80, height: Int = 24, environment: [String: String] = [:], shell: Shell = .bash) throws {
        folder = TemporaryFolder("notes-terminal")
        socket = folder.appending("tmux.socket").path
        let home = folder.appending("home")
        try FileManager.default.createDirectory(at: home, withIntermediateDirectories: true)
        var env = [
            "HOME": home.path, "TERM": "xterm-256color", "PS1": "$ ", "LANG": "C.UTF-8",
            "PATH": "\(NotesCommand.binary.deletingLastPathComponent().path):/usr/local/bin:/usr/bin:/bin",
        ]
        for (key, value) in environment { env[key] = value }
        let shell =
            ["env", "-i"] + env.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }
            + shell.command
        try startServer(
            ["-f", "/dev/null", "new-session", "-d", "-c", home.path, "-x", "\(width)", "-y", "\(height)", "--"] + shell
        )
        guard eventually(within: 10, { (try? screen())?.contains("$") ?? false }) else {
            throw TerminalSessionError("the shell in the terminal did not start: \((try? screen()) ?? "")")
        }
    }

    deinit {
        _ = try? tmux(["kill-server"])
    }

    /// Types `text` as it is, character by character.
    public func type(_ text: String) throws {
        try tmux(["send-keys", "-l", "--", text])
    }

    /// Presses keys by tmux's names: `Enter`, `Escape`, `C-c`, `Up`, `Tab`.
    public func press(_ keys: String...) throws {
        try tmux(["send-keys", "--"] + keys)
    }

    /// Types a command line and presses Enter.
    public func run(_ command: String) throws {
        try type(command)
        try press("Enter")
    }

    /// The screen as text, one line a row, without trailing blanks.
    public func screen() throws -> String {
        try tmux(["capture-pane", "-p"])
    }

    /// Waits until the screen satisfies `condition` and returns it; throws with the screen as
    /// it last was when `timeout` passes first.
    @discardableResult
    public func waitForScreen(
        within timeout: TimeInterval = 15, _ what: String, _ condition: (String) -> Bool
    ) throws -> String {
        var last = ""
        if eventually(
            within: timeout,
            {
                last = (try? screen()) ?? ""
                return condition(last)
            })
        {
            return last
        }
        throw TerminalSessionError("the screen never showed \(what); it shows:\n\(last)")
    }

    /// Waits until the screen shows `text`.
    @discardableResult
    public func waitForScreen(containing text: String, within timeout: TimeInterval = 15) throws -> String {
        try waitForScreen(within: timeout, "'\(text)'") { $0.contains(text) }
    }

    /// Changes the terminal's size, as a person resizing the window does (SIGWINCH).
    public func resize(width: Int, height: Int) throws {
        try tmux(["resize-window", "-x", "\(width)", "-y", "\(height)"])
    }

    /// Waits until the shell shows its prompt again, alone on the last line that is not blank:
    /// the command typed last has ended. Only after something else was on the screen (a
    /// program's own screen): right after typing, the screen may not show the typing yet.
    @discardableResult
    public func waitForPrompt(within timeout: TimeInterval = 15) throws -> String {
        try waitForScreen(within: timeout, "the shell's prompt") { screen in
            screen.split(separator: "\n").last { !$0.trimmingCharacters(in: .whitespaces).isEmpty } == "$"
        }
    }

    /// Waits until a program has put the terminal in raw mode (no line editing, no signals
    /// from keys), as a full-screen program does once it is ready for keys.
    public func waitForRawMode(within timeout: TimeInterval = 15) throws {
        let tty = try device()
        var modes = ""
        if eventually(
            within: timeout,
            {
                modes = (try? Self.output(of: "/bin/stty", ["-F", tty, "-a"])) ?? ""
                return modes.contains("-icanon") && modes.contains("-isig")
            })
        {
            return
        }
        throw TerminalSessionError("the terminal never went into raw mode: \(modes)")
    }

    /// The pseudo-terminal's device, such as `/dev/pts/3`.
    public func device() throws -> String {
        try tmux(["display-message", "-p", "#{pane_tty}"]).trimmingCharacters(in: .whitespacesAndNewlines)
    }

    /// The process ids of the processes named `name` on this terminal.
    public func processes(named name: String) throws -> [Int32] {
        let tty = try device().replacingOccurrences(of: "/dev/", with: "")
        let listing = try Self.output(of: "/bin/ps", ["-o", "pid=,comm=", "-t", tty])
        return listing.split(separator: "\n").compactMap { line in
            let fields = line.split(separator: " ", omittingEmptySubsequences: true)
            guard fields.count == 2, fields[1] == name else { return nil }
            return Int32(fields[0])
        }
    }

    @discardableResult
    private func tmux(_ arguments: [String]) throws -> String {
        try Self.output(of: "/usr/bin/tmux", ["-S", socket] + arguments)
    }

    /// Starts the tmux server, which stays in the background. Not with Foundation's `Process`:
    /// the server would inherit the socket by which `Process` learns that its child ended, and
    /// waiting for the command that started it would never end.
    private func startServer(_ arguments: [String]) throws {
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        for descriptor: Int32 in 0...2 {
            posix_spawn_file_actions_addopen(
                &actions, descriptor, "/dev/null", descriptor == 0 ? O_RDONLY : O_WRONLY, 0)
        }
        // A terminal as a person has it: no signal blocked or ignored (the test runner blocks some).
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        var all = sigset_t()
        sigfillset(&all)
        sigdelset(&all, SIGKILL)
        sigdelset(&all, SIGSTOP)
        var none = sigset_t()
        sigemptyset(&none)
        posix_spawnattr_setsigdefault(&attributes, &all)
        posix_spawnattr_setsigmask(&attributes, &none)
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGDEF | POSIX_SPAWN_SETSIGMASK))
        let argv = (["tmux", "-S", socket] + arguments).map { strdup($0) } + [nil]
        defer { argv.forEach { free($0) } }
        var pid: pid_t = 0
        guard posix_spawn(&pid, "/usr/bin/tmux", &actions, &attributes, argv, environ) == 0 else {
            throw TerminalSessionError("cannot start tmux")
        }
        var status: Int32 = 0
        while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
        guard status == 0 else { throw TerminalSessionError("tmux new-session failed (status \(status))") }
    }

    private static func output(of program: String, _ arguments: [String]) throws -> String {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: program)
        process.arguments = arguments
        let pipe = Pipe()
        process.standardOutput = pipe
        process.standardError = FileHandle.nullDevice
        process.standardInput = FileHandle.nullDevice
        try process.run()
        let data = pipe.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        guard process.terminationStatus == 0 else {
            throw TerminalSessionError(
                "\(program) \(arguments.joined(separator: " ")) failed (status \(process.terminationStatus))")
        }
        return String(decoding: data, as: UTF8.self)
    }
}

/// A terminal session that did not do what a test expected of it.
public struct TerminalSessionError: Error, CustomStringConvertible {
    public let description: String
    init(_ description: String) { self.description = description }
}

/// Columns a line of a captured screen takes, counting CJK as two (for width assertions).
public enum DisplayColumns {
    public static func of(_ line: String) -> Int {
        line.unicodeScalars.reduce(0) { total, scalar in
            let value = scalar.value
            let wide =
                (0x1100...0x115F).contains(value) || (0x2E80...0xA4CF).contains(value)
                || (0xAC00...0xD7A3).contains(value) || (0xF900...0xFAFF).contains(value)
                || (0xFF00...0xFF60).contains(value)
                || (0x1F300...0x1FAFF).contains(value)
            return total + (wide ? 2 : 1)
        }
    }
}
