import Foundation
import GRDB

extension Store {
    /// Full-text search over names and bodies, best matches first, trashed items left out.
    ///
    /// Every word of `query` must occur (in any order, ignoring case and diacritics); a word
    /// ending in `*` matches as a prefix. Names weigh more than bodies in the ranking
    /// (SQLite FTS5 bm25, https://sqlite.org/fts5.html#the_bm25_function).
    ///
    /// The time does not grow with the number of matches in a note: FTS5 orders the rows by
    /// rank itself (https://sqlite.org/fts5.html#sorting_by_auxiliary_function_results), so
    /// that the snippet is made for the returned rows only, by ``SnippetFunction``.
    public func search(
        _ query: String, limit: Int = 50, markers: (String, String) = ("**", "**")
    ) throws -> [SearchResult] {
        let (words, tags) = Self.searchTerms(query)
        let tagClauses = tags.map { tag -> SQL in
            " AND EXISTS (SELECT 1 FROM tag WHERE tag.name = \(tag) AND tag.item = item.id)"
        }.joined()
        guard let match = Self.ftsQuery(for: words) else {
            guard !tags.isEmpty else { return [] }
            return try notesTagged(tags, limit: limit)
        }
        let request = SQLRequest<Row>(literal: """
            SELECT \(sql: ItemFilter.columns(includingBody: false)),
                \(sql: SnippetFunction.name)(item_fts, \(markers.0), \(markers.1)) AS snippet,
                item_fts.rank AS rank
            FROM item_fts JOIN item ON item.rowid = item_fts.rowid
            WHERE item_fts MATCH \(match) AND item_fts.rank MATCH 'bm25(4.0, 1.0)'
                AND item.trashed IS NULL\(literal: tagClauses)
            ORDER BY item_fts.rank
            LIMIT \(limit)
            """)
        return try read { db in
            try Row.fetchCursor(db, request).map { row in
                let snippet = (row["snippet"] as String? ?? "")
                    .split(whereSeparator: \.isNewline).joined(separator: " ")
                return SearchResult(item: try Item(row: row), snippet: snippet, rank: row["rank"])
            }.reduce(into: []) { $0.append($1) }
        }
    }

    /// A query of tags only: the notes outside the trash that carry them all, most recently
    /// modified first, each with the start of its body as snippet.
    private func notesTagged(_ tags: [String], limit: Int) throws -> [SearchResult] {
        let request = ItemRequest(kind: .note, tags: tags, sort: ItemSort(.modified, ascending: false), limit: limit)
        return try read { db in
            try Item.fetchAll(db, SQLRequest(literal: ItemFilter.sql(for: request))).map { item in
                let start = (item.body ?? "").prefix(200).split(whereSeparator: \.isNewline).joined(separator: " ")
                var listed = item
                listed.body = nil
                return SearchResult(item: listed, snippet: String(start.prefix(120)), rank: 0)
            }
        }
    }

    /// The words of a query and its `tag:NAME` terms (a leading `#` of NAME left out).
    public static func searchTerms(_ query: String) -> (words: String, tags: [String]) {
        var words: [Substring] = []
        var tags: [String] = []
        for word in query.split(whereSeparator: \.isWhitespace) {
            if word.lowercased().hasPrefix("tag:"), word.count > 4 {
                tags.append(Tag.normalized(String(word.dropFirst(4))))
            } else {
                words.append(word)
            }
        }
        return (words.joined(separator: " "), tags)
    }

    /// The FTS5 query for words typed by a person: each word quoted, so that no input is a
    /// syntax error; nil when there is no word.
    static func ftsQuery(for query: String) -> String? {
        let words = query.split(whereSeparator: \.isWhitespace).compactMap { word -> String? in
            var word = String(word)
            let isPrefix = word.hasSuffix("*")
            word = word.trimmingCharacters(in: CharacterSet(charactersIn: "*\""))
            guard word.contains(where: { $0.isLetter || $0.isNumber }) else { return nil }
            return "\"" + word.replacingOccurrences(of: "\"", with: "\"\"") + "\"" + (isPrefix ? "*" : "")
        }
        return words.isEmpty ? nil : words.joined(separator: " ")
    }
}
