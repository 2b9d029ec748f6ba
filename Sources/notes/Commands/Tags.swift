import ArgumentParser
import Foundation
import NoteStore
import NoteTerminal

extension Notes {
    struct TagCommand: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "tag", abstract: "Add tags to a note.", usage: TagArguments.usage("tag"),
            discussion: """
                A tag has 1 to 100 characters, without white space or commas; a leading # is left out \
                (#work is the tag work). Tags are case-sensitive. A tag added on one device and removed \
                on another before they sync stays.
                """)

        @OptionGroup var storeOptions: StoreOptions
        @OptionGroup var arguments: TagArguments

        func run() throws {
            let store = try storeOptions.open()
            let target = try arguments.note(in: store, prompt: "tag> ")
            if try store.tag(target.id, with: arguments.tags).isEmpty {
                TerminalText.warn("'\(target.label)' already carries \(arguments.list)")
            }
        }
    }

    struct Untag: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "untag",
            abstract: "Remove tags from a note.", usage: TagArguments.usage("untag"))

        @OptionGroup var storeOptions: StoreOptions
        @OptionGroup var arguments: TagArguments

        func run() throws {
            let store = try storeOptions.open()
            let target = try arguments.note(in: store, prompt: "untag> ")
            if try store.untag(target.id, arguments.tags).isEmpty {
                TerminalText.warn("'\(target.label)' carries none of \(arguments.list)")
            }
        }
    }

    struct TagList: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "tags",
            abstract: "List the tags of the notes outside the trash, with how many notes carry each.")

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

/// The note and the tags of `tag` and `untag`; with `-i`, the tags alone, and the note is
/// chosen in the picker.
struct TagArguments: ParsableArguments {
    @Argument(
        help: ArgumentHelp("The note (with -i, the first tag).", valueName: "note"), completion: ItemCompletion.items)
    var first: String?

    @Argument(help: ArgumentHelp("The tags.", valueName: "TAG"))
    var rest: [String] = []

    @Flag(
        name: [.customShort("i"), .customLong("interactive")],
        help: "Choose the note in a picker (fzf when installed); every argument is a tag.")
    var interactive = false

    @OptionGroup var references: ReferenceOptions

    /// The usage line of `command`, in its two forms.
    static func usage(_ command: String) -> String {
        """
        notes \(command) [--store <DIR>] <note> <TAG> ...
        notes \(command) [--store <DIR>] -i <TAG> ...
        """
    }

    func validate() throws {
        if !interactive && first == nil { throw ValidationError("Missing expected argument '<note>'") }
        if tags.isEmpty { throw ValidationError("Missing expected argument '<TAG> ...'") }
    }

    var tags: [String] { interactive ? (first.map { [$0] } ?? []) + rest : rest }

    /// The note named, or with `-i` the one chosen in the picker.
    func note(in store: Store, prompt: String) throws -> Item {
        try ItemPicker.item(
            interactive ? nil : first, picking: interactive, in: store, scope: .any, kind: .note,
            references: references, prompt: prompt)
    }

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
