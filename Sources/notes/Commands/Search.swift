import ArgumentParser
import Foundation
import NoteStore
import NoteTerminal

extension Notes {
    struct Search: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "search",
            abstract: "Full-text search of names and bodies, best matches first.",
            discussion: """
                Every word must occur, ignoring case and accents; a word ending in * matches as a prefix; \
                "a phrase" must occur as it is; OR keeps what either side finds; -word (or NOT word) leaves out \
                what holds the word; parentheses group. Several arguments are one query. Chinese, Japanese, Thai \
                and other text without spaces is found anywhere, as is a word starting with * (part of a word) \
                and one with symbols (c++); ß and ss are the same. Filters keep the items with a property, and \
                are left out and grouped as words are: tag:NAME, in:COLLECTION, name:TEXT, links:NOTE, \
                has:attachment, has:image, is:trashed (the trash is searched only then), is:conflict, and \
                created: or modified: with >, <, >= or <= and a day (2026-01-31) or an age (7d, 2w, 3m, 1y). \
                Names rank above bodies, then recent notes; the snippet is the best-matching line. A query of \
                filters only lists those notes, most recently modified first. prop:KEY keeps the notes with a \
                property, prop:KEY=VALUE those whose value is VALUE (or a list holding it). --stem looks for \
                each English word by its stem (synced finds sync and syncing). --save NAME keeps the query under \
                a name, on every device that syncs; --run NAME runs it again (with more words, if given), \
                --saved lists the saved searches and --forget NAME forgets one.
                """)

        @OptionGroup var storeOptions: StoreOptions

        // -word is a word left out, not an option: what is not an option of the command is a
        // word of the query.
        @Argument(
            parsing: .allUnrecognized, help: "The words to look for, and filters such as tag:NAME or modified:>7d.")
        var words: [String] = []

        /// The arguments as one query.
        var query: String { words.joined(separator: " ") }

        @Flag(help: "Look for each English word by its stem, as a prefix: synced finds sync and syncing.")
        var stem = false

        @Option(
            help: ArgumentHelp(
                "Save the query under this name (synced to every device), then run it.", valueName: "NAME"))
        var save: String?

        @Option(
            name: .customLong("run"),
            help: ArgumentHelp(
                "Run the search saved under this name, with the words given added to it.", valueName: "NAME"))
        var savedName: String?

        @Flag(help: "List the saved searches.")
        var saved = false

        @Option(help: ArgumentHelp("Forget the search saved under this name.", valueName: "NAME"))
        var forget: String?

        @Option(help: ArgumentHelp("The most results to print.", valueName: "N"))
        var limit = 20

        @Flag(help: "Print a JSON array.")
        var json = false

        @OptionGroup var colorOptions: ColorOptions

        @OptionGroup var pagerOptions: PagerOptions

        /// Interlinear annotation marks (U+FFF9, U+FFFB), which no note uses for text, around
        /// matches until they become styles.
        static let placeholders = ("\u{FFF9}", "\u{FFFB}")

        func validate() throws {
            guard limit > 0 else { throw ValidationError("--limit must be at least 1") }
            // A word of the query may start with one '-'; '--' starts only options.
            if let unknown = words.first(where: { $0.hasPrefix("--") && $0.count > 2 }) {
                throw ValidationError("unknown option '\(unknown)'")
            }
            if saved || forget != nil {
                guard words.isEmpty, save == nil, savedName == nil, !(saved && forget != nil) else {
                    throw ValidationError(
                        "\(saved ? "--saved" : "--forget") takes no query "
                            + "and no other of --save, --run, --saved, --forget"
                    )
                }
                return
            }
            if save != nil && savedName != nil { throw ValidationError("--save and --run cannot go together") }
            guard savedName != nil || Store.queryHasTerms(query) else {
                throw ValidationError("the query has no word to look for")
            }
        }

        func run() throws {
            let changes = save != nil || forget != nil
            let store = try storeOptions.open(changes ? .readWrite : .readOnly)
            if saved {
                let searches = try store.savedSearches()
                if json {
                    return try JSONOutput.print(searches.map { SavedSearchJSON(name: $0.name, query: $0.query) })
                }
                for search in searches { print("\(search.name): \(search.query)") }
                return
            }
            if let forget {
                guard try store.forgetSearch(forget) else { throw InputError.data("no search is saved as '\(forget)'") }
                return
            }
            var query = self.query
            if let savedName {
                guard let saved = try store.savedSearch(savedName) else {
                    throw InputError.data("no search is saved as '\(savedName)'")
                }
                query = words.isEmpty ? saved : "(\(saved)) \(query)"
            }
            if let save { try store.saveSearch(save, query: query) }
            let highlight = !json && colorOptions.styles()
            // Styled matches are marked with placeholders first, so that the snippet's own text
            // is escaped (TerminalText) and the styles are not.
            // Without styles, matches are marked with guillemets, which Markdown gives no meaning.
            let markers = json ? ("**", "**") : highlight ? Self.placeholders : ("«", "»")
            let results = try store.search(query, limit: limit, markers: markers, stemming: stem)
            let columns = DisplayWidth.terminalColumns()
            let index = try store.collectionIndex()
            let pager = pagerOptions.start()
            defer { pager?.finish() }
            if json {
                let tags = try store.tags(ofItems: results.map(\.item.id))
                return try JSONOutput.print(
                    results.map { result in
                        var object = ItemJSON(
                            result.item, path: index.path(of: result.item), tags: tags[result.item.id] ?? [])
                        object.snippet = result.snippet
                        object.rank = result.rank
                        return object
                    })
            }
            for result in results {
                let heading = "\(result.item.id.storeString.prefix(8))  \(index.path(of: result.item))"
                print(
                    columns.map { DisplayWidth.truncated(TerminalText.escaped(heading, keepingLayout: false), to: $0) }
                        ?? heading)
                // One line: line breaks, tabs and table pipes fold into single spaces.
                let folded = result.snippet.split(whereSeparator: { $0.isWhitespace || $0 == "|" }).joined(
                    separator: " ")
                var snippet = TerminalText.escaped(folded, keepingLayout: false)
                if let columns {
                    snippet = DisplayWidth.truncated(snippet, to: columns - 10)
                    // A match cut in two still ends its style.
                    if snippet.contains(Self.placeholders.0), !snippet.hasSuffix(Self.placeholders.1) {
                        snippet += Self.placeholders.1
                    }
                }
                if highlight {
                    snippet = snippet.replacingOccurrences(of: Self.placeholders.0, with: "\u{1B}[1m")
                        .replacingOccurrences(of: Self.placeholders.1, with: "\u{1B}[0m")
                }
                Swift.print("          \(snippet)")
            }
        }
    }
}

/// A saved search in `search --saved --json`.
struct SavedSearchJSON: Encodable {
    let name: String
    let query: String
}
