import ArgumentParser
import Foundation
import NoteStore
import NoteTerminal

extension Notes {
    struct Pick: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "pick",
            abstract: "Choose an item in a fuzzy picker and print its id, for the shell.",
            discussion: """
                The picker is fzf when it is installed, else a list of its own; it draws on the \
                terminal, so the id can be captured: notes cat "$(notes pick)". Status 1 when \
                nothing was chosen.
                """)

        @OptionGroup var storeOptions: StoreOptions

        @Argument(help: "Words to start the query with.")
        var query: [String] = []

        @Flag(help: "Offer collections only.")
        var collections = false

        @Flag(help: "Offer notes only.")
        var notes = false

        func validate() throws {
            if collections && notes { throw ValidationError("give either --collections or --notes, not both") }
        }

        func run() throws {
            let store = try storeOptions.open(.readOnly)
            let kind: ItemKind? = collections ? .collection : notes ? .note : nil
            guard
                let item = try ItemPicker.choose(
                    in: store, scope: .live, kind: kind, query: query.joined(separator: " "), prompt: "pick> ")
            else {
                throw ExitCode(1)
            }
            print(item.id.storeString)
        }
    }
}
