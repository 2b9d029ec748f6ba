import ArgumentParser
import Foundation

/// The `notes` command: a note collector for the terminal.
@main
struct Notes: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "notes",
        abstract: "A note collector for the terminal.",
        discussion: """
            ITEM and COLLECTION are a full id, a unique id prefix of at least 4 characters, \
            or a path of names such as 'Work/Ideas/Launch plan' (write '\\/' for a '/' inside a name). \
            'notes --version' prints the version.
            """,
        subcommands: [
            Add.self, MakeCollection.self, List.self, Browse.self, Pick.self, Show.self, Cat.self, Edit.self,
            Append.self, Move.self,
            Remove.self, Restore.self, EmptyTrash.self, Search.self, TagCommand.self, Untag.self, TagList.self,
            Prop.self, History.self, Diff.self, Conflicts.self,
            Links.self, Backlinks.self, Attach.self, Attachments.self, Detach.self, AttachmentSave.self, Open.self,
            Export.self, Import.self,
            Check.self,
            Sync.self, Devices.self, Watch.self, Demo.self,
        ])

    @OptionGroup var storeOptions: StoreOptions

    /// Without a command: the short help.
    func run() throws {
        print(Self.shortHelp)
    }

    /// Whether the arguments are `--version` alone (after `--store DIR`). It is read here, not
    /// as an option of this command, since the parser would take it for every subcommand too
    /// and `notes show ITEM --version V` has one of its own.
    /// Whether `--version` follows a command other than `show` (whose `--version` is its own).
    static func misplacesVersion(_ arguments: [String]) -> Bool {
        let options = Array(arguments.prefix { $0 != "--" })
        guard options.contains("--version") else { return false }
        let rest = afterStoreOption(options)
        guard let command = rest.first, !command.hasPrefix("-") else { return false }
        return command != "show"
    }

    static func asksForVersion(_ arguments: [String]) -> Bool {
        Array(afterStoreOption(arguments)) == ["--version"]
    }

    /// Whether the arguments ask for the bash completion script (after `--store DIR`), which
    /// `notes` prints with an addition of its own (``CompletionQuoting/bashScriptAddition``).
    static func asksForBashCompletion(_ arguments: [String]) -> Bool {
        let rest = Array(afterStoreOption(arguments))
        return rest == ["--generate-completion-script", "bash"] || rest == ["--generate-completion-script=bash"]
    }

    /// The arguments after a leading `--store DIR` (or `--store=DIR`).
    private static func afterStoreOption(_ arguments: [String]) -> ArraySlice<String> {
        if arguments.first == "--store" { return arguments.dropFirst(2) }
        if arguments.first?.hasPrefix("--store=") == true { return arguments.dropFirst() }
        return arguments[...]
    }

    /// The usage and the commands, in a few lines.
    static var shortHelp: String {
        let names = configuration.subcommands.compactMap { $0.configuration.commandName ?? $0._commandName }
        return """
            usage: notes [--store DIR] <command> [<arguments>]
            commands: \(names.joined(separator: ", "))
            See 'notes --help' for what each does, and 'notes <command> --help' for its options.
            """
    }

    /// Runs the command; every failure is one line on standard error and an exit status of
    /// 64 (usage), 65 (bad input data) or 1 (anything else).
    static func main() {
        do {
            let arguments = Array(CommandLine.arguments.dropFirst())
            if asksForVersion(arguments) { return print(NotesVersion.current) }
            if asksForBashCompletion(arguments) {
                return print(completionScript(for: .bash) + CompletionQuoting.bashScriptAddition, terminator: "")
            }
            if misplacesVersion(arguments) {
                throw ValidationError("--version is an option of 'notes' alone: run 'notes --version'")
            }
            var command = try parseAsRoot()
            try command.run()
        } catch {
            exit(withFailure: error)
        }
    }

    static func exit(withFailure error: any Error) -> Never {
        let code = exitCode(for: error)
        if code == .success {
            print(fullMessage(for: error))
            Foundation.exit(0)
        }
        if let failure = error as? ExitCode {
            Foundation.exit(failure.rawValue)
        }
        let (message, status) = Failure.describe(error, parserMessage: message(for: error), code: code.rawValue)
        FileHandle.standardError.write(Data("notes: \(message)\n".utf8))
        Foundation.exit(status)
    }
}

enum NotesVersion {
    static let current = "0.1.0"
}
