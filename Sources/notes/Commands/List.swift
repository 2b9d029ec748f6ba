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
            // With --tag or --orphans: the notes with those tags, or orphans, at any depth.
            let notes = ItemRequest(
                kind: .note, scope: parent.map { .descendants(of: $0) } ?? .everywhere,
                trash: trash ? .only : .excluded,
                tags: tags, sort: sorting, includesBodies: false)
            if !watch {
                // Written as it is read, and shown once the store's transaction is over.
                let output = SpooledOutput()
                if tags.isEmpty && !orphans {
                    try spool(store, parent: parent, sort: sorting, to: output)
                } else {
                    try spool(store, notes: notes, orphans: orphans, to: output)
                }
                let pager = pagerOptions.start()
                defer { pager?.finish() }
                return try output.write()
            }
            let render = { @Sendable () throws -> String in
                var entries: [ListingEntry]
                if tags.isEmpty && !orphans {
                    entries = try store.listing(of: parent, recursive: recursive, trash: trash, sort: sorting)
                } else {
                    entries = try store.fetch(notes).map { ListingEntry(item: $0, depth: 0) }
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
            try Watching.run(store: store, render: render)
        }

        /// A listing without `--tag` and `--orphans`, each line (or JSON object) made as its item
        /// is read: what it holds does not grow with the number of items.
        private func spool(_ store: Store, parent: UUID?, sort: ItemSort, to output: SpooledOutput) throws {
            let copies = try store.conflictCopies()
            guard json else {
                let line = lineMaker(paths: nil, copies: copies)
                return try store.forEachListed(of: parent, recursive: recursive, trash: trash, sort: sort) {
                    entry, _ in
                    try output.append(line(entry))
                }
            }
            let index = try store.collectionIndex()
            var array = JSONArrayText(compact: false)
            try store.forEachListed(of: parent, recursive: recursive, trash: trash, sort: sort, tagged: true) {
                entry, tags in
                try output.append(array.element(itemJSON(entry, index: index, tags: tags, copies: copies)), json: true)
            }
            try output.append(array.end())
        }

        /// The notes of `--tag` or `--orphans`, each with its path, made as they are read. An
        /// orphan is a note out of the trash that no link reaches and whose body links to no
        /// note (``Store/orphans()``).
        private func spool(_ store: Store, notes: ItemRequest, orphans: Bool, to output: SpooledOutput) throws {
            let linked = orphans ? try store.linkedNotes() : []
            func isListed(_ item: Item) -> Bool { !orphans || (!item.isTrashed && !linked.contains(item.id)) }
            let copies = try store.conflictCopies()
            let index = try store.collectionIndex()
            guard json else {
                let line = lineMaker(paths: index, copies: copies)
                return try store.forEachFetched(notes) { item, _ in
                    if isListed(item) { try output.append(line(ListingEntry(item: item, depth: 0))) }
                }
            }
            var array = JSONArrayText(compact: false)
            try store.forEachFetched(notes, tagged: true) { item, tags in
                guard isListed(item) else { return }
                try output.append(
                    array.element(
                        itemJSON(ListingEntry(item: item, depth: 0), index: index, tags: tags, copies: copies)),
                    json: true)
            }
            try output.append(array.end())
        }

        /// An item as JSON: its path, tags and whether it is a conflict copy.
        private func itemJSON(_ entry: ListingEntry, index: CollectionIndex, tags: [String], copies: Set<UUID>)
            -> ItemJSON
        {
            var object = ItemJSON(entry.item, path: index.path(of: entry.item), tags: tags)
            object.conflictCopy = copies.contains(entry.item.id)
            return object
        }

        /// Conflict copies are marked: `(conflict copy)` after the name, `conflictCopy` in JSON.
        /// With `--tag`, each note is listed with its path.
        private func render(_ entries: [ListingEntry], index: CollectionIndex?, copies: Set<UUID>, store: Store) throws
            -> String
        {
            if json, let index {
                let tags = try store.tags(ofItems: entries.map(\.item.id))
                var array = JSONArrayText(compact: watch)
                var text = ""
                for entry in entries {
                    text += try array.element(
                        itemJSON(entry, index: index, tags: tags[entry.item.id] ?? [], copies: copies))
                }
                // The same JSON, safe on a terminal (the text is escaped again when shown).
                return TerminalText.escapedJSON(text + array.end())
            }
            let line = lineMaker(paths: tags.isEmpty && !orphans ? nil : index, copies: copies)
            return entries.map(line).joined()
        }

        /// Makes the line of an entry: its id, its date and its name, indented by its depth, or
        /// its path when `paths` is given.
        private func lineMaker(paths: CollectionIndex?, copies: Set<UUID>) -> (ListingEntry) -> String {
            let dates = Timestamp.shortFormatter(utc: timeOptions.utc)
            // On a terminal, a name too long for its column is cut with '…' rather than wrapped
            // under the id column.
            let columns = DisplayWidth.terminalColumns()
            // Read once: each option is a property wrapper's value.
            let byCreation = sort == .created
            return { entry in
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
            }
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
