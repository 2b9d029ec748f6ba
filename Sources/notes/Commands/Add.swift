import ArgumentParser
import Foundation
import NoteStore

extension Notes {
    struct Add: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Add a note and print its id.",
            discussion: "Without --body or --body-file, the body is read from standard input when it is a pipe or a file.")

        @OptionGroup var storeOptions: StoreOptions

        @Argument(help: "The note's name.")
        var name: String

        @Option(name: .customLong("in"), help: ArgumentHelp("The collection to add it to.", valueName: "COLLECTION"), completion: ItemCompletion.collections)
        var collection: String?

        @OptionGroup var bodyOptions: BodyOptions

        func run() throws {
            let body = try bodyOptions.givenBody()
                ?? (TextInput.standardInputIsPiped ? TextInput.read(.standardInput, name: "standard input") : "")
            let store = try storeOptions.open()
            let parent = try collection.map { try store.resolveCollection($0) }
            let note = try store.addNote(named: name, body: body, in: parent)
            print(note.id.storeString)
        }
    }

    struct MakeCollection: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "mkcol", abstract: "Make a collection and print its id.")

        @OptionGroup var storeOptions: StoreOptions

        @Argument(help: "The collection's name.")
        var name: String

        @Option(name: .customLong("in"), help: ArgumentHelp("The collection to make it in.", valueName: "COLLECTION"), completion: ItemCompletion.collections)
        var collection: String?

        func run() throws {
            let store = try storeOptions.open()
            let parent = try collection.map { try store.resolveCollection($0) }
            let made = try store.addCollection(named: name, in: parent)
            print(made.id.storeString)
        }
    }
}

extension Store {
    /// The id of the collection a reference names, or a usage error when it names a note.
    func resolveCollection(_ reference: String, scope: ReferenceScope = .live) throws -> UUID {
        let item = try resolve(reference, scope: scope)
        guard item.isCollection else {
            throw InputError.usage("'\(reference)' is a note, not a collection")
        }
        return item.id
    }
}
