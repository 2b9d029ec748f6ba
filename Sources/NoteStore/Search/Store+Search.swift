import Foundation
import GRDB

extension Store {
    /// Full-text search over names and bodies, best matches first, trashed items left out.
    ///
    /// Every word of `query` must occur (in any order, ignoring case and diacritics); a word
    /// ending in `*` matches as a prefix; `"a phrase"`, `OR`, `-word` or `NOT word`, and
    /// parentheses are read as search engines read them (``SearchQuery``), and a query that
    /// does not read throws ``StoreError/invalidQuery(_:)``. Names weigh more than
    /// bodies in the ranking (SQLite FTS5 bm25, https://sqlite.org/fts5.html#the_bm25_function).
    ///
    /// The time does not grow with the number of matches in a note: FTS5 orders the rows by
    /// rank itself (https://sqlite.org/fts5.html#sorting_by_auxiliary_function_results), so
    /// that the snippet is made for the returned rows only, by ``SnippetFunction``.
    ///
    /// `tag:NAME` keeps the notes that carry the tag, `links:NOTE` those whose bodies link to
    /// NOTE (an id or a path, or else a name as a link names it; in double quotes when it holds
    /// spaces).
    public func search(
        _ query: String, limit: Int = 50, markers: (String, String) = ("**", "**")
    ) throws -> [SearchResult] {
        let terms = Self.searchTerms(query)
        let (words, tags) = (terms.words, terms.tags)
        var linking: Set<UUID>?
        for reference in terms.links {
            let target = try (try? resolve(reference, scope: .any).id) ?? resolveLink(reference) ?? resolve(reference, scope: .any).id
            let sources = Set(try backlinks(of: target).map(\.source))
            linking = linking.map { $0.intersection(sources) } ?? sources
        }
        var tagClauses = tags.map { tag -> SQL in " AND \(ItemFilter.carries(tag))" }.joined()
        if let linking { tagClauses += " AND item.id IN (SELECT value FROM json_each(\(Self.jsonArray(linking))))" }
        let query: String?
        do {
            query = try SearchQuery.fts(words)
        } catch {
            throw StoreError.invalidQuery(error.description)
        }
        guard let match = query else {
            guard !tags.isEmpty || linking != nil else { return [] }
            return try notesTagged(tags, linking: linking, limit: limit)
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

    /// A query of tags and links only: the notes outside the trash that carry the tags and
    /// are among `linking` (when given), most recently modified first, each with the start of
    /// its body as snippet.
    private func notesTagged(_ tags: [String], linking: Set<UUID>?, limit: Int) throws -> [SearchResult] {
        let request = ItemRequest(kind: .note, tags: tags, sort: ItemSort(.modified, ascending: false), limit: linking == nil ? limit : nil)
        return try read { db in
            try Item.fetchAll(db, SQLRequest(literal: ItemFilter.sql(for: request))).filter { linking?.contains($0.id) ?? true }.prefix(limit).map { item in
                let start = (item.body ?? "").prefix(200).split(whereSeparator: \.isNewline).joined(separator: " ")
                var listed = item
                listed.body = nil
                return SearchResult(item: listed, snippet: String(start.prefix(120)), rank: 0)
            }
        }
    }

    /// The words, tags and links of a query.
    public struct SearchTerms: Equatable, Sendable {
        /// The words to look for, separated by spaces.
        public var words: String
        /// The `tag:NAME` terms (a leading `#` of NAME left out).
        public var tags: [String]
        /// The `links:NOTE` terms: references of notes.
        public var links: [String]
    }

    /// The terms of a query: `tag:NAME`, `links:NOTE` or `links:"A NOTE"`, and words.
    public static func searchTerms(_ query: String) -> SearchTerms {
        var terms = SearchTerms(words: "", tags: [], links: [])
        var words: [Substring] = []
        var rest = Substring(query)
        while let start = rest.firstIndex(where: { !$0.isWhitespace }) {
            rest = rest[start...]
            if rest.lowercased().hasPrefix("links:\""), let close = rest.dropFirst(7).firstIndex(of: "\"") {
                let reference = rest[rest.index(rest.startIndex, offsetBy: 7)..<close]
                if !reference.isEmpty { terms.links.append(String(reference)) }
                rest = rest[rest.index(after: close)...]
                continue
            }
            let end = rest.firstIndex(where: \.isWhitespace) ?? rest.endIndex
            let word = rest[..<end]
            rest = rest[end...]
            // Inside a phrase, every word is a word of the phrase.
            let inPhrase = words.reduce(0) { $0 + $1.filter { $0 == "\"" }.count } % 2 == 1
            if inPhrase {
                words.append(word)
            } else if word.lowercased().hasPrefix("tag:"), word.count > 4 {
                terms.tags.append(Tag.normalized(String(word.dropFirst(4))))
            } else if word.lowercased().hasPrefix("links:"), word.count > 6 {
                terms.links.append(String(word.dropFirst(6)))
            } else {
                words.append(word)
            }
        }
        terms.words = words.joined(separator: " ")
        return terms
    }

    /// Ids as a JSON array, for `json_each`.
    private static func jsonArray(_ ids: Set<UUID>) -> String {
        "[" + ids.map { "\"\($0.storeString)\"" }.sorted().joined(separator: ",") + "]"
    }
}
