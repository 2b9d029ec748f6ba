import ArgumentParser
import Foundation
import NoteStore
import NoteTerminal

extension Notes {
    struct TagCommand: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "tag", abstract: "Add tags to a note.",
            discussion: """
                A tag has 1 to 100 characters, without white space or commas; a leading # is left out \\
                (#work is the tag work). Tags are case-sensitive. A tag added on one device and removed \\
                on another before they sync stays.
                """)

        @OptionGroup var storeOptions: StoreOptions
        @OptionGroup var arguments: TagArguments

        func run() throws {
            let store = try storeOptions.open()
            let target = try store.resolve(arguments.note, scope: .any)
            if try store.tag(target.id, with: arguments.tags).isEmpty {
                TerminalText.warn("'\(target.label)' already carries \(arguments.list)")
            }
        }
    }

    struct Untag: ParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Remove tags from a note.")

        @OptionGroup var storeOptions: StoreOptions
        @OptionGroup var arguments: TagArguments

        func run() throws {
            let store = try storeOptions.open()
            let target = try store.resolve(arguments.note, scope: .any)
            if try store.untag(target.id, arguments.tags).isEmpty {
                TerminalText.warn("'\(target.label)' carries none of \(arguments.list)")
            }
        }
    }

    struct TagList: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "tags", abstract: "List the tags of the notes outside the trash, with how many notes carry each.")

        @OptionGroup var storeOptions: StoreOptions

        @Flag(help: "Count the notes in the trash too.")
        var trash = false

        @Flag(help: "Print a JSON array.")
        var json = false

        func run() throws {
            let store = try storeOptions.open(.readOnly)
            let counts = try store.tagCounts(includingTrash: trash)
            if json { return try JSONOutput.print(counts.map { TagJSON(tag: $0.tag, notes: $0.notes) }) }
            let width = counts.map { String($0.notes).count }.max() ?? 1
            for count in counts {
                let number = String(count.notes)
                print(String(repeating: " ", count: width - number.count) + number + "  " + count.tag)
            }
        }
    }
}

/// The note and the tags of `tag` and `untag`.
struct TagArguments: ParsableArguments {
    @Argument(help: "The note.", completion: ItemCompletion.items)
    var note: String

    @Argument(help: ArgumentHelp("The tags.", valueName: "TAG"))
    var tags: [String]

    /// The tags as normalized, each once, for messages.
    var list: String {
        var seen: [String] = []
        for tag in tags.map(Tag.normalized) where !seen.contains(tag) { seen.append(tag) }
        return seen.joined(separator: ", ")
    }
}

/// A tag in `tags --json`.
struct TagJSON: Encodable {
    let tag: String
    let notes: Int
}
