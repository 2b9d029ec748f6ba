import ArgumentParser
import Foundation
import NoteStore

extension Notes {
    struct Search: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Full-text search of names and bodies, best matches first.",
            discussion: """
                Every word must occur, ignoring case and accents; a word ending in * matches as a prefix. \
                tag:NAME keeps the notes that carry the tag NAME; a query of tags only lists those notes, \
                most recently modified first.
                """)

        @OptionGroup var storeOptions: StoreOptions

        @Argument(help: "The words to look for, and tag:NAME terms.")
        var query: String

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
            let (words, tags) = Store.searchTerms(query)
            guard !tags.isEmpty || words.contains(where: { $0.isLetter || $0.isNumber }) else {
                throw ValidationError("the query has no word to look for")
            }
        }

        func run() throws {
            let store = try storeOptions.open(.readOnly)
            let highlight = !json && colorOptions.styles()
            // Styled matches are marked with placeholders first, so that the snippet's own text
            // is escaped (TerminalText) and the styles are not.
            let results = try store.search(query, limit: limit, markers: highlight ? Self.placeholders : ("**", "**"))
            let index = try store.collectionIndex()
            let pager = pagerOptions.start()
            defer { pager?.finish() }
            if json {
                let tags = try store.tags(ofItems: results.map(\.item.id))
                return try JSONOutput.print(results.map { result in
                    var object = ItemJSON(result.item, path: index.path(of: result.item), tags: tags[result.item.id] ?? [])
                    object.snippet = result.snippet
                    object.rank = result.rank
                    return object
                })
            }
            for result in results {
                print("\(result.item.id.storeString.prefix(8))  \(index.path(of: result.item))")
                var snippet = TerminalText.escaped(result.snippet, keepingLayout: false)
                if highlight {
                    snippet = snippet.replacingOccurrences(of: Self.placeholders.0, with: "\u{1B}[1m")
                        .replacingOccurrences(of: Self.placeholders.1, with: "\u{1B}[0m")
                }
                Swift.print("          \(snippet)")
            }
        }
    }
}
