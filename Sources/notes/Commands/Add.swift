import ArgumentParser
import Foundation
import NoteStore
import NoteTerminal

extension Notes {
    struct Add: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "add",
            abstract: "Add a note and print its id.",
            discussion: """
                Without --body or --body-file, the body is read from standard input when it is a \
                pipe or a file; on a terminal, $VISUAL or $EDITOR opens on an empty body, as \
                'git commit' does, and an empty body adds nothing.
                """)

        @OptionGroup var storeOptions: StoreOptions

        @Argument(help: "The note's name.")
        var name: String

        @Option(
            name: .customLong("in"), help: ArgumentHelp("The collection to add it to.", valueName: "COLLECTION"),
            completion: ItemCompletion.collections)
        var collection: String?

        @OptionGroup var bodyOptions: BodyOptions

        @OptionGroup var references: ReferenceOptions

        func run() throws {
            let store = try storeOptions.open()
            let parent = try collection.map { try references.collection($0, in: store) }
            if let body = try bodyOptions.givenBody()
                ?? (TextInput.standardInputIsPiped ? TextInput.read(.standardInput, name: "standard input") : nil)
                ?? (isatty(0) == 1 ? nil : "")
            {
                return print(try store.addNote(named: name, body: body, in: parent).id.storeString)
            }
            // On a terminal with no body given: the person's editor, as 'git commit' opens it.
            let edited = try ExternalEditor.find().edit("", title: name, workspace: store.editorWorkspace) {
                try TextInput.read(path: $0.path)
            }
            defer { ForegroundProcess.deliver(edited.deferredSignal) }
            guard !edited.text.allSatisfy(\.isWhitespace) else {
                TerminalText.warn("no note added: the body was left empty")
                throw ExitCode(1)
            }
            print(try store.addNote(named: name, body: edited.text, in: parent).id.storeString)
        }
    }

    struct MakeCollection: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "mkcol", abstract: "Make a collection and print its id.")

        @OptionGroup var storeOptions: StoreOptions

        @Argument(help: "The collection's name.")
        var name: String

        @Option(
            name: .customLong("in"), help: ArgumentHelp("The collection to make it in.", valueName: "COLLECTION"),
            completion: ItemCompletion.collections)
        var collection: String?

        @OptionGroup var references: ReferenceOptions

        func run() throws {
            let store = try storeOptions.open()
            let parent = try collection.map { try references.collection($0, in: store) }
            let made = try store.addCollection(named: name, in: parent)
            print(made.id.storeString)
        }
    }
}

extension Store {
    /// The store's private folder for the editor's copies of texts (mode 0700).
    var editorWorkspace: URL { folder.appendingPathComponent(".editing") }
}
