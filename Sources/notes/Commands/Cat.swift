import ArgumentParser
import Foundation
import NoteStore
import NoteTerminal

extension Notes {
    struct Cat: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "cat",
            abstract: "Print a note's body alone, for pipes.",
            discussion: """
                To a pipe or a file, the body's bytes exactly as stored. On a terminal, control \
                characters are shown escaped and a final line break is added when the body has none.
                """)

        @OptionGroup var storeOptions: StoreOptions

        @Argument(
            help: "The note whose body to print (on a terminal, left out: chosen in a picker).",
            completion: ItemCompletion.items)
        var item: String?

        @OptionGroup var pickOptions: PickOptions

        func run() throws {
            let store = try storeOptions.open(.readOnly)
            let note = try pickOptions.item(item, in: store, scope: .any, kind: .note, prompt: "cat> ")
            guard note.isNote, let body = note.body else {
                throw InputError.usage("'\(item ?? note.name)' is a collection: it has no body")
            }
            guard isatty(1) == 1 else {
                return FileHandle.standardOutput.write(Data(body.utf8))
            }
            print(body, terminator: body.isEmpty || body.hasSuffix("\n") ? "" : "\n")
        }
    }
}
