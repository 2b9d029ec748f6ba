import ArgumentParser
import Foundation
import NoteInterchange
import NoteStore
import NoteSync
import NoteTerminal
import NoteText
import NoteWatch

/// A failure of the command line itself: bad input that is not the store's to judge.
enum InputError: Error, CustomStringConvertible {
    /// A file given as input could not be used.
    case file(path: String, reason: String)
    /// Text given as input could not be used.
    case data(String)
    /// The command was used in a way that cannot work.
    case usage(String)
    /// A file could not be written.
    case output(path: String, reason: String)
    /// `check` found problems (already printed).
    case checkFailed(Int)
    /// What was asked for conflicts with a change made elsewhere meanwhile.
    case conflict(String)
    /// Something could not be opened in another application.
    case cannotOpen(String)

    var description: String {
        switch self {
        case let .file(path, reason): return "cannot read '\(path)': \(reason)"
        case let .data(message), let .usage(message), let .conflict(message), let .cannotOpen(message): return message
        case let .output(path, reason): return "cannot write '\(path)': \(reason)"
        case let .checkFailed(count): return "the store has \(count) problem\(count == 1 ? "" : "s")"
        }
    }
}

/// Turns any error into one line and an exit status.
enum Failure {
    static let usage: Int32 = 64
    static let badData: Int32 = 65
    static let other: Int32 = 1

    /// The message on one line: line breaks, control and bidirectional formatting
    /// characters in names, paths and references are shown escaped (``TerminalText``).
    static func describe(_ error: any Error, parserMessage: String, code: Int32) -> (String, Int32) {
        let (message, status) = classify(error, parserMessage: parserMessage, code: code)
        return (TerminalText.escaped(message, keepingLayout: false), status)
    }

    private static func classify(_ error: any Error, parserMessage: String, code: Int32) -> (String, Int32) {
        switch error {
        case let error as StoreError:
            return (error.description, status(of: error))
        case let error as DemoError:
            return (error.description, other)
        case let error as WatchError:
            return (error.description, other)
        case let error as TerminalError:
            switch error {
            case .noEditor, .notATerminal: return (error.description, usage)
            case .editorFailed: return (error.description, badData)
            case .cannotRun, .workingFile: return (error.description, other)
            }
        case let error as SyncError:
            if case .invalidName = error { return (error.description, usage) }
            if case .wrongPassphrase = error { return (error.description, badData) }
            return (error.description, other)
        case let error as InterchangeError:
            if case .notAnExport = error { return (error.description, badData) }
            if case .notEmpty = error { return (error.description, usage) }
            return (error.description, other)
        case let error as InputError:
            switch error {
            case .usage: return (error.description, usage)
            case .output, .checkFailed, .conflict, .cannotOpen: return (error.description, other)
            case .file, .data: return (error.description, badData)
            }
        default:
            if code == usage, let unknown = unknownCommand() { return (unknown, usage) }
            let line = parserMessage.split(whereSeparator: \.isNewline).first.map(String.init) ?? "failed"
            let trimmed = line.hasPrefix("Error: ") ? String(line.dropFirst(7)) : line
            return (lowercasedFirst(trimmed) + hint(code), code == 0 ? other : code)
        }
    }

    private static func status(of error: StoreError) -> Int32 {
        switch error {
        case .unknownReference, .ambiguousReference, .unknownAttachment, .ambiguousAttachment, .unknownVersion,
            .invalidQuery:
            return usage
        case .validation, .invalidOperation, .cannotAttach, .invalidTag, .invalidProperty: return badData
        case .blob, .damagedRow, .changedElsewhere: return other
        case .notFound: return usage
        case .cannotOpen, .newerModel, .database: return other
        }
    }

    /// When the first word that is not an option names no command: says so, with the closest
    /// command when one is near (`notes lst`: did you mean 'ls'?).
    private static func unknownCommand() -> String? {
        let names = commandNames
        var arguments = CommandLine.arguments.dropFirst()
        while let first = arguments.first, first.hasPrefix("-") {
            arguments = arguments.dropFirst(first == "--store" ? 2 : 1)
        }
        guard let word = arguments.first, !names.contains(word) else { return nil }
        let scored = names.map { (name: $0, distance: EditDistance.between(word, $0)) }
        let best = scored.min { $0.distance != $1.distance ? $0.distance < $1.distance : $0.name < $1.name }
        let threshold = max(1, min(2, word.count / 2))
        if let best, best.distance <= threshold || best.name.hasPrefix(word) {
            return "unknown command '\(word)': did you mean '\(best.name)'? (see 'notes --help')"
        }
        return "unknown command '\(word)' (see 'notes --help')"
    }

    private static var commandNames: [String] {
        Notes.configuration.subcommands.compactMap { $0.configuration.commandName ?? $0._commandName }
    }

    /// Points to the help of the subcommand that was used, when there was one.
    private static func hint(_ code: Int32) -> String {
        guard code == usage else { return "" }
        // The command used, with its subcommand when it has some (`sync enable`).
        var path: [String] = []
        var commands: [any ParsableCommand.Type] = Notes.configuration.subcommands
        for word in CommandLine.arguments.dropFirst() {
            guard let command = commands.first(where: { ($0.configuration.commandName ?? $0._commandName) == word })
            else { continue }
            path.append(word)
            commands = command.configuration.subcommands
            if commands.isEmpty { break }
        }
        return " (see 'notes \(path.map { $0 + " " }.joined())--help')"
    }

    private static func lowercasedFirst(_ text: String) -> String {
        guard let first = text.first else { return text }
        return first.lowercased() + text.dropFirst()
    }
}
