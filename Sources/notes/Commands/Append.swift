import ArgumentParser
import Foundation
import NoteStore

extension Notes {
    struct Append: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "append",
            abstract: "Add text to the end of a note's body.",
            discussion: """
                The text is the words given, joined by spaces, as a line of its own; without \
                words, standard input (a pipe or a file) as it is. The body keeps what it had, with \
                a line break put before the text when it does not end with one. A change saved \
                meanwhile merges with it.
                """)

        @OptionGroup var storeOptions: StoreOptions

        @Argument(help: "The note to add to.", completion: ItemCompletion.items)
        var item: String

        @Argument(help: "The text to add.")
        var words: [String] = []

        @OptionGroup var references: ReferenceOptions

        func run() throws {
            let text: String
            if !words.isEmpty {
                text = words.joined(separator: " ") + "\n"
            } else if TextInput.standardInputIsPiped {
                text = try TextInput.read(.standardInput, name: "standard input")
            } else {
                throw ValidationError("give the text to add, as words or on standard input")
            }
            let store = try storeOptions.open()
            let note = try references.item(item, in: store)
            guard note.isNote, let body = note.body else {
                throw InputError.usage("'\(item)' is a collection: it has no body")
            }
            guard !text.isEmpty else { return }
            let separator = body.isEmpty || body.hasSuffix("\n") ? "" : "\n"
            try store.edit(note.id, expecting: note, mergingBody: body + separator + text)
        }
    }
}
