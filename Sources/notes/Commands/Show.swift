import ArgumentParser
import Foundation
import NoteStore
import NoteTerminal
import NoteSync

extension Notes {
    struct Show: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "show",
            abstract: "Show an item: its name, path and dates, and a note's attachments and body.")

        @OptionGroup var storeOptions: StoreOptions

        @Argument(
            help: "The item to show (on a terminal, left out: chosen in a picker).", completion: ItemCompletion.items)
        var item: String?

        @OptionGroup var pickOptions: PickOptions

        @Option(
            help: ArgumentHelp(
                "Show this version of its body (or name) instead, an id from 'notes history'.", valueName: "VERSION"))
        var version: String?

        @Flag(help: "Print a JSON object.")
        var json = false

        @OptionGroup var timeOptions: TimeOptions

        @OptionGroup var pagerOptions: PagerOptions

        func run() throws {
            let store = try storeOptions.open(.readOnly)
            let shown = try pickOptions.item(item, in: store, scope: .any, json: json, prompt: "show> ")
            let pager = pagerOptions.start()
            defer { pager?.finish() }
            if let version { return try showVersion(version, of: shown, store: store) }
            let path = try store.path(of: shown)
            let attachments = shown.isNote ? try store.attachments(of: shown.id) : []
            let tags = try store.tags(of: shown.id)
            let properties = shown.isNote ? try store.properties(of: shown.id) : []
            let linkedFrom = shown.isNote ? try Backlink.all(to: shown.id, in: store) : []
            if json {
                var object = ItemJSON(shown, path: path, tags: tags, includeBody: shown.isNote)
                if shown.isNote {
                    object.attachments = AttachmentJSON.list(attachments, in: store)
                    object.linkedFrom = linkedFrom
                    object.properties = PropertyJSON.list(properties)
                }
                return try JSONOutput.print(object)
            }
            var lines = [
                "name:     \(shown.name)",
                "kind:     \(shown.kind.rawValue)",
                "path:     \(path)",
                "id:       \(shown.id.storeString)",
                "created:  \(ISODate.text(shown.created, in: timeOptions.zone))",
                "modified: \(ISODate.text(shown.modified, in: timeOptions.zone))",
            ]
            if let trashed = shown.trashed { lines.append("trashed:  \(ISODate.text(trashed, in: timeOptions.zone))") }
            if !tags.isEmpty { lines.append("tags:     \(tags.joined(separator: ", "))") }
            if !properties.isEmpty {
                lines.append("properties:")
                lines += properties.map { "  \($0.key): \(PropertyText.text($0.value))" }
            }
            if shown.isCollection {
                let trash: ItemRequest.Trash = shown.isTrashed ? .included : .excluded
                let contents = try store.count(ItemRequest(scope: .children(of: shown.id), trash: trash))
                lines.append("contains: \(Plural.items(contents))")
            }
            if !attachments.isEmpty {
                lines.append("attachments:")
                lines += AttachmentJSON.list(attachments, in: store).map { "  " + $0.line }
            }
            print(lines.joined(separator: "\n"))
            if let body = shown.body, !body.isEmpty {
                print("")
                print(body, terminator: body.hasSuffix("\n") ? "" : "\n")
            }
            // Last, what links to it: the lines of other notes, as 'notes backlinks' prints them.
            if !linkedFrom.isEmpty {
                print("")
                print("linked from:")
                for backlink in linkedFrom { print("  \(backlink.path):\(backlink.line): \(backlink.text)") }
            }
        }

        private func showVersion(_ reference: String, of shown: Item, store: Store) throws {
            let history = try ItemHistory(store: store, item: shown)
            let entry = try history.entry(reference)
            let text = try history.text(of: entry)
            if json {
                return try JSONOutput.print(VersionJSON(entry: HistoryJSON(entry), text: text))
            }
            let device = entry.kind == .merge ? "(merged)" : try DeviceNames(store: store, needed: [entry]).name(entry)
            print(
                [
                    "version:  \(entry.id) (\(entry.kind.rawValue) of the \(entry.property.rawValue)"
                        + "\(entry.isCurrent ? ", current" : ""))",
                    "item:     \(shown.name)",
                    "device:   \(device)",
                    "saved:    \(ISODate.text(entry.time, in: timeOptions.zone))",
                ].joined(separator: "\n"))
            if !text.isEmpty {
                print("")
                print(text, terminator: text.hasSuffix("\n") ? "" : "\n")
            }
        }
    }
}

/// A version and its text, in JSON.
struct VersionJSON: Encodable {
    let entry: HistoryJSON
    let text: String

    func encode(to encoder: any Encoder) throws {
        try entry.encode(to: encoder)
        var container = encoder.container(keyedBy: Key.self)
        try container.encode(text, forKey: .text)
    }

    enum Key: String, CodingKey { case text }
}
