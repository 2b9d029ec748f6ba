import Foundation
import NoteTestSupport
import Testing

/// Checks that the hand-written man page, `man/notes.1`, and the help of the built `notes`
/// describe the same commands and options, in both directions.
///
/// The help comes from `notes --experimental-dump-help`: argument-parser's JSON tree of the
/// commands, from which `--help` is printed too.
@Suite struct ManPageTests {
    private let help: Help
    private let manPage: Page

    init() throws {
        let result = try NotesCommand.run(["--experimental-dump-help"])
        guard result.status == 0 else { throw Problem.helpFailed(result.description) }
        help = try Help.root(fromDump: Data(result.output.utf8))
        manPage = try Page(contentsOf: Page.location)
    }

    /// Options that every command has and that the man page describes once, under GLOBAL OPTIONS,
    /// and the hidden flags that print completion scripts.
    static let undocumentedPerCommand: Set<String> = [
        "help", "version", "generate-completion-script", "experimental-dump-help",
    ]

    @Test func theDumpHasTheCommands() {
        // Guards the other tests against a dump they would read as empty.
        #expect(help.subcommands.map(\.name).contains("add"))
        #expect(help.subcommands.first { $0.name == "add" }?.displayedOptions.contains("body-file") == true)
    }

    /// A line of help text that ends with a backslash was meant to go on: in a Swift string
    /// literal, one backslash joins the lines, two print one.
    @Test func noHelpLineEndsWithABackslash() {
        for command in help.commands {
            let lines = command.discussion.split(separator: "\n").filter { $0.hasSuffix("\\") }
            #expect(lines.isEmpty, "notes \(command.name) --help: \(lines)")
        }
    }

    @Test func everySubcommandHasASection() {
        for command in help.commands where command.isDisplayed {
            #expect(
                manPage.commandSections[command.name] != nil,
                "man/notes.1 has no '.SS \(command.name)' under COMMANDS for 'notes \(command.name)'")
        }
    }

    @Test func everySectionIsASubcommand() {
        let names = Set(help.commands.map(\.name))
        for name in manPage.commandSections.keys.sorted() {
            #expect(names.contains(name), "man/notes.1 has '.SS \(name)', but notes has no such command")
        }
    }

    @Test func everyOptionIsInItsCommandsSection() {
        for command in help.commands where command.isDisplayed {
            guard let section = manPage.commandSections[command.name] else { continue }
            for option in command.displayedOptions.subtracting(Self.undocumentedPerCommand).sorted() {
                if help.displayedOptions.contains(option) {
                    // A global option such as --store: named in the command's synopsis.
                    #expect(
                        section.mentionedOptions.contains(option),
                        "'.SS \(command.name)' in man/notes.1 does not mention --\(option)")
                } else {
                    #expect(
                        section.describedOptions.contains(option),
                        "'.SS \(command.name)' in man/notes.1 has no .TP entry for --\(option)")
                }
            }
        }
    }

    @Test func everyOptionInASectionExists() {
        for command in help.commands {
            guard let section = manPage.commandSections[command.name] else { continue }
            let unknown = section.mentionedOptions.subtracting(command.allOptions)
            #expect(
                unknown.isEmpty,
                """
                '.SS \(command.name)' in man/notes.1 names \(Self.listed(unknown)), \
                not in 'notes \(command.name) --help'
                """
            )
        }
    }

    @Test func globalOptionsAreTheRootCommandsOptions() throws {
        let section = try #require(manPage.sections["GLOBAL OPTIONS"], "man/notes.1 has no GLOBAL OPTIONS")
        for option in help.displayedOptions.sorted() {
            #expect(
                section.describedOptions.contains(option),
                "GLOBAL OPTIONS in man/notes.1 has no .TP entry for --\(option)")
        }
        let unknown = section.mentionedOptions.subtracting(help.allOptions)
        #expect(unknown.isEmpty, "GLOBAL OPTIONS in man/notes.1 names \(Self.listed(unknown)), not in 'notes --help'")
    }

    private static func listed(_ options: Set<String>) -> String {
        options.sorted().map { "--" + $0 }.joined(separator: ", ")
    }

    @Test func parsingFindsOptionsAndEntries() {
        let page = Page(
            text: """
                .SH COMMANDS
                .SS empty\\-trash
                .B notes empty\\-trash
                .RB [ \\-\\-store
                .IR DIR ]
                .TP
                .BI \\-\\-body\\-file " PATH"
                Read it, unlike \\-\\-body.
                .SH EXIT STATUS
                """)
        let section = page.commandSections["empty-trash"]
        #expect(section?.mentionedOptions == ["store", "body-file", "body"])
        #expect(section?.describedOptions == ["body-file"])
    }
}

extension ManPageTests {
    enum Problem: Error, CustomStringConvertible {
        case helpFailed(String)
        case badDump(String)

        var description: String {
            switch self {
            case let .helpFailed(result): return "notes --experimental-dump-help failed: \(result)"
            case let .badDump(reason): return "cannot read the help dump: \(reason)"
            }
        }
    }

    /// One command in argument-parser's help dump, with the long names of its options and flags.
    struct Help {
        var name: String
        let isDisplayed: Bool
        /// The long names, without `--`, of the options shown in `--help`.
        let displayedOptions: Set<String>
        /// The long names of all options, also hidden ones.
        let allOptions: Set<String>
        let subcommands: [Help]
        /// The text `--help` prints after the usage.
        let discussion: String

        /// The subcommands at every depth, named by their path below the root, such as
        /// `sync enable`.
        var commands: [Help] {
            subcommands.flatMap { command -> [Help] in
                [command]
                    + command.commands.map { nested in
                        var named = nested
                        named.name = command.name + " " + nested.name
                        return named
                    }
            }
        }

        static func root(fromDump data: Data) throws -> Help {
            guard let dump = try JSONSerialization.jsonObject(with: data) as? [String: Any],
                let command = dump["command"] as? [String: Any]
            else { throw Problem.badDump("no 'command' object at the top") }
            return try Help(command)
        }

        init(_ object: [String: Any]) throws {
            guard let name = object["commandName"] as? String else {
                throw Problem.badDump("a command without 'commandName'")
            }
            self.name = name
            isDisplayed = object["shouldDisplay"] as? Bool ?? true
            var displayed: Set<String> = []
            var all: Set<String> = []
            for argument in object["arguments"] as? [[String: Any]] ?? [] {
                let names = (argument["names"] as? [[String: Any]] ?? [])
                    .filter { $0["kind"] as? String == "long" }
                    .compactMap { $0["name"] as? String }
                all.formUnion(names)
                if argument["shouldDisplay"] as? Bool ?? true { displayed.formUnion(names) }
            }
            displayedOptions = displayed
            allOptions = all
            subcommands = try (object["subcommands"] as? [[String: Any]] ?? []).map(Help.init)
            discussion = object["discussion"] as? String ?? ""
        }
    }

    /// The parts of a roff man page that name commands and options.
    struct Page {
        /// One `.SH` or `.SS` section: its lines up to the next heading.
        struct Section {
            let lines: [String]

            /// Every `--option` written in the section, without the `--`.
            var mentionedOptions: Set<String> {
                Set(lines.flatMap(Page.options(in:)))
            }

            /// The options that head a `.TP` entry (on the line after `.TP`).
            var describedOptions: Set<String> {
                var found: Set<String> = []
                for (index, line) in lines.enumerated().dropLast() where line.hasPrefix(".TP") {
                    found.formUnion(Page.options(in: lines[index + 1]))
                }
                return found
            }
        }

        /// The top-level sections by title, such as `GLOBAL OPTIONS`.
        let sections: [String: Section]
        /// The `.SS` subsections of COMMANDS by command name.
        let commandSections: [String: Section]

        /// `man/notes.1` in the package, found from this file's place in `Tests/NotesCLITests`.
        static var location: URL {
            URL(fileURLWithPath: #filePath)
                .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
                .appendingPathComponent("man/notes.1")
        }

        init(contentsOf url: URL) throws {
            self.init(text: try String(contentsOf: url, encoding: .utf8))
        }

        init(text: String) {
            var sections: [String: Section] = [:]
            var commandSections: [String: Section] = [:]
            var title: String?
            var subtitle: String?
            var lines: [String] = []
            func close() {
                if let title { sections[title] = Section(lines: lines) }
            }
            var subsection: [String] = []
            func closeSubsection() {
                if title == "COMMANDS", let subtitle { commandSections[subtitle] = Section(lines: subsection) }
            }
            for line in text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init) {
                if let heading = Self.heading(line, macro: ".SH") {
                    closeSubsection()
                    close()
                    (title, subtitle, lines, subsection) = (heading, nil, [], [])
                    continue
                }
                if let heading = Self.heading(line, macro: ".SS") {
                    closeSubsection()
                    (subtitle, subsection) = (heading, [])
                    continue
                }
                lines.append(line)
                subsection.append(line)
            }
            closeSubsection()
            close()
            self.sections = sections
            self.commandSections = commandSections
        }

        /// The plain text of a heading line such as `.SS empty\-trash` or `.SH "EXIT STATUS"`.
        private static func heading(_ line: String, macro: String) -> String? {
            guard line.hasPrefix(macro + " ") else { return nil }
            return String(line.dropFirst(macro.count + 1))
                .replacingOccurrences(of: "\\-", with: "-")
                .trimmingCharacters(in: CharacterSet(charactersIn: "\" "))
        }

        /// The long options in a line of roff, written `\-\-name` (or `--name`), without the `--`.
        static func options(in line: String) -> [String] {
            let plain = line.replacingOccurrences(of: "\\-", with: "-")
            return plain.matches(of: #/--([a-z0-9][a-z0-9-]*)/#).map { match in
                String(match.output.1).trimmingCharacters(in: CharacterSet(charactersIn: "-"))
            }
        }
    }
}
