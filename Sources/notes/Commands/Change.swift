import ArgumentParser
import Foundation
import NoteStore
import NoteTerminal

extension Notes {
    struct Move: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "mv", abstract: "Move an item into a collection or to the top level.",
            discussion: "Give exactly one of --to and --top.")

        @OptionGroup var storeOptions: StoreOptions

        @Argument(
            help: "The item to move (on a terminal, left out: chosen in a picker).", completion: ItemCompletion.items)
        var item: String?

        @OptionGroup var pickOptions: PickOptions

        @Option(
            help: ArgumentHelp("The collection to move it into.", valueName: "COLLECTION"),
            completion: ItemCompletion.collections)
        var to: String?

        @Flag(help: "Move it to the top level.")
        var top = false

        func validate() throws {
            if (to == nil) == !top {
                throw ValidationError("give either --to COLLECTION or --top")
            }
        }

        func run() throws {
            let store = try storeOptions.open()
            let moved = try pickOptions.item(item, in: store, prompt: "mv> ")
            let parent = try to.map { try pickOptions.references.collection($0, in: store) }
            try store.move(moved.id, to: parent)
        }
    }

    struct Remove: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "rm", abstract: "Move an item to the trash (a collection with its contents).")

        @OptionGroup var storeOptions: StoreOptions

        @Argument(
            help: "The item to move to the trash (on a terminal, left out: chosen in a picker).",
            completion: ItemCompletion.items)
        var item: String?

        @OptionGroup var pickOptions: PickOptions

        func run() throws {
            let store = try storeOptions.open()
            try store.trash(pickOptions.item(item, in: store, prompt: "rm> ").id)
        }
    }

    struct Restore: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "restore",
            abstract: "Take an item out of the trash, with what was trashed together with it.")

        @OptionGroup var storeOptions: StoreOptions

        @Argument(help: "The item to restore.", completion: ItemCompletion.items)
        var item: String

        @OptionGroup var references: ReferenceOptions

        func run() throws {
            let store = try storeOptions.open()
            try store.restore(references.item(item, in: store, scope: .trashed, prompt: "restore> ").id)
        }
    }

    struct EmptyTrash: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "empty-trash", abstract: "Purge everything in the trash for good.",
            discussion: "Asks first when standard input is a terminal; otherwise --yes is required.")

        @OptionGroup var storeOptions: StoreOptions

        @Flag(help: "Do not ask for confirmation.")
        var yes = false

        func run() throws {
            let store = try storeOptions.open()
            let count = try store.count(ItemRequest(trash: .only))
            guard count > 0 else { return print("the trash is empty") }
            if !yes {
                guard isatty(0) == 1 else {
                    throw InputError.usage("refusing to purge \(Plural.items(count)) without --yes")
                }
                guard Confirmation.ask("purge \(Plural.items(count)) for good?") else { return }
            }
            let purged = try store.emptyTrash()
            print("purged \(Plural.items(purged))")
        }
    }
}

/// Counts in words: "1 item", "2 items".
enum Plural {
    static func items(_ count: Int) -> String {
        "\(count) item\(count == 1 ? "" : "s")"
    }

    static func days(_ count: Int) -> String {
        count == 1 ? "day" : "\(count) days"
    }
}
