import Foundation

/// What can go wrong at the terminal: a program that cannot be found, started or finish.
public enum TerminalError: Error, CustomStringConvertible, Sendable {
    /// The program at `program` could not be started: `reason` is the system's word for why.
    case cannotRun(program: String, reason: String)
    /// No editor could be found; the message says what to set.
    case noEditor(String)
    /// The editor ended without success: `command` came from `source` (`VISUAL`, `EDITOR`
    /// or the fallback's name).
    case editorFailed(command: String, source: String, termination: ForegroundProcess.Termination)
    /// A working file of the editor could not be written or read.
    case workingFile(path: String, reason: String)
    /// A full-screen view (`what`: the browser, the picker) was asked for without a terminal.
    case notATerminal(String)

    public var description: String {
        switch self {
        case let .cannotRun(program, reason): "cannot run '\(program)': \(reason)"
        case let .noEditor(message): message
        case let .editorFailed(command, source, termination):
            "the editor '\(command)' (from \(source)) \(termination)"
        case let .workingFile(path, reason): "cannot use the editor's file '\(path)': \(reason)"
        case let .notATerminal(what): "\(what) needs a terminal: there is none to draw on"
        }
    }
}

extension ForegroundProcess.Termination: CustomStringConvertible {
    public var description: String {
        switch self {
        case let .exited(status): "failed (status \(status))"
        case let .signalled(signal): "was killed (signal \(signal))"
        }
    }
}
