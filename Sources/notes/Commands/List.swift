import ArgumentParser
import Dispatch
import Foundation
import NoteStore
import NoteTerminal

extension Notes {
    struct List: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "ls", abstract: "List the contents of a collection, or of the top level.")

        @OptionGroup var storeOptions: StoreOptions

        @Argument(help: "The collection to list (default: the top level).", completion: ItemCompletion.collections)
        var collection: String?

        @Flag(name: [.customShort("r"), .long], help: "List the contents of collections too, at any depth.")
        var recursive = false

        @Flag(help: "List what is in the trash.")
        var trash = false

        @Option(
            help: ArgumentHelp(
                "The order: name (A to Z), created or modified (newest first).", valueName: "ORDER"))
        var sort: ItemSort.Key = .name

        @Option(
            name: .customLong("tag"),
            help: ArgumentHelp(
                "List the notes that carry TAG, in every collection (or at any depth in COLLECTION), with their paths; "
                    + "repeat to require several tags.",
                valueName: "TAG"))
        var tags: [String] = []

        @Flag(
            help: """
                List the notes that no link reaches and whose bodies link to no note, \
                in every collection (or at any depth in COLLECTION), with their paths.
                """
        )
        var orphans = false

        @Flag(help: "Print a JSON array.")
        var json = false

        @OptionGroup var references: ReferenceOptions

        @Flag(help: "Keep the listing on screen and refresh it when the store changes, also by another process.")
        var watch = false

        @OptionGroup var timeOptions: TimeOptions

        @OptionGroup var pagerOptions: PagerOptions

        func run() throws {
            let store = try storeOptions.open(.readOnly)
            let parent = try collection.map {
                try references.collection($0, in: store, scope: trash ? .any : .live, json: json)
            }
            let sorting = ItemSort(sort, ascending: sort == .name)
            let tags = self.tags.map(Tag.normalized)
            let orphans = self.orphans
            let render = { @Sendable () throws -> String in
                var entries: [ListingEntry]
                if tags.isEmpty && !orphans {
                    entries = try store.listing(of: parent, recursive: recursive, trash: trash, sort: sorting)
                } else {
                    let request = ItemRequest(
                        kind: .note, scope: parent.map { .descendants(of: $0) } ?? .everywhere,
                        trash: trash ? .only : .excluded,
                        tags: tags, sort: sorting, includesBodies: false)
                    entries = try store.fetch(request).map { ListingEntry(item: $0, depth: 0) }
                }
                if orphans {
                    let found = try store.orphans()
                    entries = entries.filter { found.contains($0.item.id) }
                }
                // Paths are printed in JSON, with --tag and with --orphans; an indented listing
                // reads no collection but those it lists.
                let index = json || !tags.isEmpty || orphans ? try store.collectionIndex() : nil
                return try self.render(entries, index: index, copies: store.conflictCopies(), store: store)
            }
            guard watch else {
                let text = try render()
                let pager = pagerOptions.start()
                defer { pager?.finish() }
                return print(text, terminator: "")
            }
            try Watching.run(store: store, render: render)
        }

        /// Conflict copies are marked: `(conflict copy)` after the name, `conflictCopy` in JSON.
        /// With `--tag`, each note is listed with its path.
        private func render(_ entries: [ListingEntry], index: CollectionIndex?, copies: Set<UUID>, store: Store) throws
            -> String
        {
            let dates = Timestamp.shortFormatter(utc: timeOptions.utc)
            if json, let index {
                if entries.isEmpty { return "[]\n" }
                let tags = try store.tags(ofItems: entries.map(\.item.id))
                let encoder = JSONEncoder()
                encoder.outputFormatting =
                    watch
                    ? [.sortedKeys, .withoutEscapingSlashes] : [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
                // The array as the encoder writes one, each object encoded on its own: the
                // encoder holds the values of all it encodes at once, several times the text.
                var bytes = Array((watch ? "[" : "[\n").utf8)
                for (position, entry) in entries.enumerated() {
                    var object = ItemJSON(entry.item, path: index.path(of: entry.item), tags: tags[entry.item.id] ?? [])
                    object.conflictCopy = copies.contains(entry.item.id)
                    if position > 0 { bytes.append(contentsOf: (watch ? "," : ",\n").utf8) }
                    let encoded = try encoder.encode(object)
                    guard !watch else {
                        bytes.append(contentsOf: encoded)
                        continue
                    }
                    // Indented as an element of the array: every line that is not empty.
                    var startsLine = true
                    for byte in encoded {
                        if startsLine && byte != UInt8(ascii: "\n") { bytes.append(contentsOf: [0x20, 0x20]) }
                        bytes.append(byte)
                        startsLine = byte == UInt8(ascii: "\n")
                    }
                }
                bytes.append(contentsOf: (watch ? "]\n" : "\n]\n").utf8)
                return String(decoding: bytes, as: UTF8.self)
            }
            // On a terminal, a name too long for its column is cut with '…' rather than wrapped
            // under the id column.
            let columns = DisplayWidth.terminalColumns()
            // Read once: each option is a property wrapper's value.
            let paths = tags.isEmpty && !orphans ? nil : index
            let byCreation = sort == .created
            return entries.map { entry in
                let item = entry.item
                let name =
                    paths?.path(of: item)
                    ?? String(repeating: "  ", count: entry.depth) + item.name + (item.isCollection ? "/" : "")
                let date = dates.string(from: byCreation ? item.created : item.modified)
                let mark = copies.contains(item.id) ? "  (conflict copy)" : ""
                let line = "\(item.id.storeString.prefix(8))  \(date)  \(name)\(mark)"
                return
                    (columns.map { DisplayWidth.truncated(TerminalText.escaped(line, keepingLayout: false), to: $0) }
                    ?? line) + "\n"
            }.joined()
        }
    }
}

extension ItemSort.Key: ExpressibleByArgument {}

/// Keeps a rendering on screen and renders it again after every commit to the store.
enum Watching {
    static func run(store: Store, render: @escaping @Sendable () throws -> String) throws -> Never {
        // A dumb terminal cannot redraw in place: each listing is printed in turn.
        let isTerminal = isatty(1) == 1 && !Terminal.isDumb()
        let show = { @Sendable (text: String) in
            // On a terminal, redraw in place; otherwise print each listing in turn.
            let safe = TerminalText.escaped(text, keepingLayout: true)
            let output = isTerminal ? "\u{1B}[H\u{1B}[2J" + safe : safe
            FileHandle.standardOutput.write(Data(output.utf8))
        }
        // Stop cleanly on a signal from the very start, before anything is shown.
        signal(SIGPIPE, SIG_IGN)
        for number in [SIGINT, SIGTERM] {
            signal(number, SIG_IGN)
            let source = DispatchSource.makeSignalSource(signal: number, queue: .main)
            source.setEventHandler { exit(0) }
            source.resume()
            retained.append(source)
        }
        show(try render())
        let observation = try store.observeCommits {
            if let text = try? render() { show(text) }
        }
        retainedObservation = observation
        dispatchMain()
    }

    // Unsafe: set on the main thread before `dispatchMain()`, never read: they only keep alive.
    nonisolated(unsafe) private static var retained: [any DispatchSourceSignal] = []
    nonisolated(unsafe) private static var retainedObservation: StoreObservation?
}
