import ArgumentParser
import Foundation
import NoteStore

extension Notes {
    struct Show: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Show an item: its name, path and dates, and a note's attachments and body.")

        @OptionGroup var storeOptions: StoreOptions

        @Argument(help: "The item to show.", completion: ItemCompletion.items)
        var item: String

        @Flag(help: "Print a JSON object.")
        var json = false

        @OptionGroup var timeOptions: TimeOptions

        func run() throws {
            let store = try storeOptions.open(.readOnly)
            let shown = try store.resolve(item, scope: .any)
            let path = try store.path(of: shown)
            let attachments = shown.isNote ? try store.attachments(of: shown.id) : []
            if json {
                var object = ItemJSON(shown, path: path, includeBody: shown.isNote)
                if shown.isNote { object.attachments = attachments.map(AttachmentJSON.init) }
                return try JSONOutput.print(object)
            }
            var lines = [
                "name:     \(shown.name)",
                "kind:     \(shown.kind.rawValue)",
                "path:     \(path)",
                "id:       \(shown.id.storeString)",
                "created:  \(Timestamp.full(shown.created, in: timeOptions.zone))",
                "modified: \(Timestamp.full(shown.modified, in: timeOptions.zone))",
            ]
            if let trashed = shown.trashed { lines.append("trashed:  \(Timestamp.full(trashed, in: timeOptions.zone))") }
            if shown.isCollection {
                let trash: ItemRequest.Trash = shown.isTrashed ? .included : .excluded
                let contents = try store.count(ItemRequest(scope: .children(of: shown.id), trash: trash))
                lines.append("contains: \(Plural.items(contents))")
            }
            if !attachments.isEmpty {
                lines.append("attachments:")
                lines += attachments.map { "  " + AttachmentJSON.line($0) }
            }
            print(lines.joined(separator: "\n"))
            if let body = shown.body, !body.isEmpty {
                print("")
                print(body, terminator: body.hasSuffix("\n") ? "" : "\n")
            }
        }
    }
}
