import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// The person's editor, run in the terminal's foreground on a private copy of a text.
///
/// Found as `$VISUAL`, then `$EDITOR` (each a shell command, such as `code --wait`), then
/// Debian's `editor` alternative, then `vi`; these two only when standard input is a terminal,
/// since they need one.
public struct ExternalEditor: Sendable {
    /// The shell command that runs the editor.
    public let command: String
    /// Where it came from, for messages: `VISUAL`, `EDITOR` or the fallback's name.
    public let source: String

    public static func find(
        environment: [String: String] = ProcessInfo.processInfo.environment, onTerminal: Bool = isatty(0) == 1
    ) throws(TerminalError) -> ExternalEditor {
        for variable in ["VISUAL", "EDITOR"] {
            guard let command = environment[variable]?.trimmingCharacters(in: .whitespaces), !command.isEmpty else {
                continue
            }
            let program = command.split(separator: " ").first.map(String.init) ?? command
            guard Self.executable(program, path: environment["PATH"]) != nil else {
                throw .noEditor(
                    "cannot run the editor '\(program)' (from \(variable)): not found; "
                        + "set \(variable) to an editor, or give --body or --body-file"
                )
            }
            return ExternalEditor(command: command, source: variable)
        }
        guard onTerminal else {
            throw .noEditor(
                "no editor: set VISUAL or EDITOR ('editor' and 'vi' need a terminal), or give --body or --body-file")
        }
        for fallback in ["editor", "vi"] where Self.executable(fallback, path: environment["PATH"]) != nil {
            return ExternalEditor(command: fallback, source: fallback)
        }
        throw .noEditor(
            "no editor: set VISUAL or EDITOR (neither 'editor' nor 'vi' was found), or give --body or --body-file")
    }

    /// The path of `program`: itself when it holds a slash, else the first match on `PATH`.
    static func executable(_ program: String, path: String?) -> String? {
        if program.contains("/") { return FileManager.default.isExecutableFile(atPath: program) ? program : nil }
        for folder in (path ?? "/usr/local/bin:/usr/bin:/bin").split(separator: ":") {
            let candidate = "\(folder)/\(program)"
            if FileManager.default.isExecutableFile(atPath: candidate) { return candidate }
        }
        return nil
    }

    /// What the editor ended with.
    public struct Edited<Text> {
        /// What `read` made of the file.
        public let text: Text
        /// SIGTERM or SIGHUP when one came to this process while the editor ran (a hang-up
        /// of the terminal, a shutdown), else 0: the caller saves the text, then calls
        /// ``ForegroundProcess/deliver(_:)``.
        public let deferredSignal: Int32
    }

    /// Opens the editor on `text` in a file named after `title`, inside a new folder of
    /// `workspace` (a private folder of the store, mode 0700, never a shared temporary
    /// folder), and returns what `read` makes of the file once the editor has ended well.
    ///
    /// When a SIGTERM or SIGHUP came meanwhile, the file is read whenever it changed, even
    /// if the editor then failed: what was written is kept. The folder is removed whatever
    /// happens; no copy of the text is left behind.
    public func edit<Text>(
        _ text: String, title: String, workspace: URL, read: (URL) throws -> Text
    ) throws -> Edited<Text> {
        let folder = try WorkingFolder(in: workspace)
        defer { folder.remove() }
        let file = folder.url.appendingPathComponent(Self.fileName(for: title))
        let original = Data(text.utf8)
        try folder.write(original, to: file)
        let process = ForegroundProcess(executable: "/bin/sh", arguments: ["-c", shellCommand, "sh", file.path])
        let outcome = try process.run()
        let interrupted = outcome.deferredSignal != 0
        if outcome.succeeded || (interrupted && FileManager.default.contents(atPath: file.path) != original) {
            return Edited(text: try read(file), deferredSignal: outcome.deferredSignal)
        }
        if interrupted {
            folder.remove()
            ForegroundProcess.deliver(outcome.deferredSignal)
        }
        throw TerminalError.editorFailed(command: command, source: source, termination: outcome.termination)
    }

    /// The command with the file as its last argument, for `sh -c`. A plain command (a
    /// program and its options) replaces the shell, so that the editor is the process that
    /// `notes` waits for and a Ctrl-C as it starts cannot end the shell and orphan it.
    var shellCommand: String {
        let plain =
            command.allSatisfy { !";&|()<>`\n".contains($0) }
            && !(command.split(separator: " ").first?.contains("=") ?? false)
        return (plain ? "exec " : "") + "\(command) \"$1\""
    }

    /// `Soup.md` for a note named `Soup`: what the editor shows in its title and status line.
    static func fileName(for title: String) -> String {
        let cleaned = title.map { $0 == "/" || $0.isNewline || $0 == "\0" ? "-" : $0 }
        let name = String(String(cleaned).prefix(100)).trimmingCharacters(in: .whitespaces)
        return (name.isEmpty || name.hasPrefix(".") ? "note" : name) + ".md"
    }
}
