import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// One thing to choose from: an item's id and the line that shows it (its path and tags).
public struct PickerCandidate: Sendable, Equatable {
    public let id: UUID
    public let line: String

    public init(id: UUID, line: String) {
        self.id = id
        self.line = line
    }
}

/// A fuzzy choice among items at the terminal: fzf when it is on `PATH`, the browser's own
/// list otherwise. Both draw on `/dev/tty`, so that standard output stays free for what the
/// command prints (`notes cat "$(notes pick)"`).
public enum Picker {
    /// The candidate chosen, or nil when the person cancelled (Escape, Ctrl-C) or none matched.
    public static func choose(
        from candidates: [PickerCandidate], query: String, prompt: String,
        environment: [String: String] = ProcessInfo.processInfo.environment
    ) throws -> PickerCandidate? {
        guard TerminalDevice.isAvailable else { throw TerminalError.notATerminal("the picker") }
        if let fzf = ExternalEditor.executable("fzf", path: environment["PATH"]) {
            return try withFzf(fzf, candidates: candidates, query: query, prompt: prompt)
        }
        return try ListPicker(candidates: candidates, query: query, prompt: prompt).run()
    }

    /// fzf reads the lines on its standard input and writes the chosen one on its standard
    /// output; it draws on /dev/tty. Exit status 1: nothing matched; 130: cancelled.
    static func withFzf(_ fzf: String, candidates: [PickerCandidate], query: String, prompt: String) throws
        -> PickerCandidate?
    {
        var input: [Int32] = [-1, -1]
        var output: [Int32] = [-1, -1]
        guard pipe(&input) == 0, pipe(&output) == 0 else {
            throw TerminalError.cannotRun(program: fzf, reason: ForegroundProcess.errnoText())
        }
        for descriptor in [input[1], output[0]] { _ = fcntl(descriptor, F_SETFD, FD_CLOEXEC) }
        let process = ForegroundProcess(
            executable: fzf,
            arguments: [
                "--query", query, "--prompt", prompt, "--delimiter", "\t", "--with-nth", "2..", "--height", "50%",
                "--reverse", "--no-multi",
            ],
            standardInput: input[0], standardOutput: output[1])
        let pid: pid_t
        do {
            pid = try process.spawn()
        } catch {
            [input[0], input[1], output[0], output[1]].forEach { close($0) }
            throw error
        }
        close(input[0])
        close(output[1])
        // fzf may end before it read every line (a choice made early): a write then fails, quietly.
        let previous = signal(SIGPIPE, SIG_IGN)
        let text = candidates.map { "\($0.id.uuidString)\t\($0.line.replacingOccurrences(of: "\t", with: " "))\n" }
            .joined()
        text.utf8CString.withUnsafeBufferPointer { buffer in
            var offset = 0
            let count = buffer.count - 1
            while offset < count {
                let written = write(input[1], buffer.baseAddress! + offset, count - offset)
                if written <= 0 { break }
                offset += written
            }
        }
        close(input[1])
        signal(SIGPIPE, previous)
        var chosen = Data()
        var buffer = [UInt8](repeating: 0, count: 4096)
        while true {
            let count = read(output[0], &buffer, buffer.count)
            if count <= 0 { break }
            chosen.append(contentsOf: buffer[0..<count])
        }
        close(output[0])
        let outcome = process.wait(for: pid)
        ForegroundProcess.deliver(outcome.deferredSignal)
        guard outcome.succeeded, let line = String(data: chosen, encoding: .utf8),
            let id = line.split(separator: "\t").first.flatMap({ UUID(uuidString: String($0)) })
        else { return nil }
        return candidates.first { $0.id == id }
    }
}
