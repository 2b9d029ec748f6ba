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
        var tagClauses: SQL = tags.map { tag -> SQL in " AND \(ItemFilter.carries(tag))" }.joined()
        if let linking { tagClauses += " AND item.id IN (SELECT value FROM json_each(\(Self.jsonArray(linking))))" }
        let expression: SearchExpression?
        do {
            expression = try SearchQuery.expression(words)
        } catch {
            throw StoreError.invalidQuery(error.description)
        }
        guard let expression else {
            guard !tags.isEmpty || linking != nil else { return [] }
            return try notesTagged(tags, linking: linking, limit: limit)
        }
        return try read { db in
            let plan = try SearchPlan(expression, db)
            let clauses = tagClauses + plan.conditions.map { condition -> SQL in " AND \(condition)" }.joined()
            let rows = try Row.fetchAll(db, Self.rankedRequest(plan, clauses: clauses, limit: limit))
            return try rows.map { row in
                let snippet = try Self.snippet(of: row["rowid"], plan: plan, markers: markers, db)
                return SearchResult(item: try Item(row: row), snippet: snippet, rank: row["rank"] ?? 0)
            }
        }
    }

    /// How much more a match in a name weighs than one in a body, in bm25.
    static let nameWeight = 4.0

    /// The matching items, best first: by the bm25 of the ranking index, names weighted
    /// above bodies, then the most recently modified first. Without a ranking index, by
    /// recency alone.
    private static func rankedRequest(_ plan: SearchPlan, clauses: SQL, limit: Int) -> SQLRequest<Row> {
        let columns = ItemFilter.columns(includingBody: false)
        guard let ranking = plan.ranking else {
            return SQLRequest(literal: """
                SELECT \(sql: columns), item.rowid AS rowid, NULL AS rank FROM item
                WHERE item.trashed IS NULL\(clauses)
                ORDER BY item.modified DESC, item.id
                LIMIT \(limit)
                """)
        }
        let table = SearchPlan.table(of: ranking.index)
        return SQLRequest(literal: """
            SELECT \(sql: columns), item.rowid AS rowid, bm25(\(sql: table), \(nameWeight), 1.0) AS rank
            FROM \(sql: table) JOIN item ON item.rowid = \(sql: table).rowid
            WHERE \(sql: table) MATCH \(ranking.match) AND item.trashed IS NULL\(clauses)
            ORDER BY rank, item.modified DESC, item.id
            LIMIT \(limit)
            """)
    }

    /// The snippet of a result: made by ``SnippetFunction`` from the word index's matches
    /// when the word index ranks, else from the texts looked for (``SubstringSnippet``).
    private static func snippet(of rowid: Int64, plan: SearchPlan, markers: (String, String), _ db: Database) throws -> String {
        if let ranking = plan.ranking, ranking.index == .words {
            let request = SQLRequest<String>(literal: """
                SELECT \(sql: SnippetFunction.name)(item_fts, \(markers.0), \(markers.1)) FROM item_fts
                WHERE item_fts MATCH \(ranking.match) AND rowid = \(rowid)
                """)
            // One line: a break the line kept (a lone carriage return) becomes a space.
            return (try request.fetchOne(db) ?? "").split(whereSeparator: \.isNewline).joined(separator: " ")
        }
        let row = try Row.fetchOne(
            db, sql: "SELECT name, substr(body, 1, ?) AS body FROM item WHERE rowid = ?",
            arguments: [SubstringSnippet.textLimit, rowid])
        guard let row else { return "" }
        return SubstringSnippet.excerpt(name: row["name"], body: row["body"], substrings: plan.substrings, markers: markers)
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
