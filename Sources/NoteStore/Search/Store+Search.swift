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
        guard let match = Self.ftsQuery(for: query) else { return [] }
        let sql = """
            SELECT \(ItemFilter.columns(includingBody: false)),
                \(SnippetFunction.name)(item_fts, ?, ?) AS snippet,
                item_fts.rank AS rank
            FROM item_fts JOIN item ON item.rowid = item_fts.rowid
            WHERE item_fts MATCH ? AND item_fts.rank MATCH 'bm25(4.0, 1.0)'
                AND item.trashed IS NULL
            ORDER BY item_fts.rank
            LIMIT ?
            """
        return try read { db in
            try Row.fetchAll(db, sql: sql, arguments: [markers.0, markers.1, match, limit]).map { row in
                let snippet = (row["snippet"] as String? ?? "")
                    .split(whereSeparator: \.isNewline).joined(separator: " ")
                return SearchResult(item: Item(row: row), snippet: snippet, rank: row["rank"])
            }
        }
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
