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
    /// Filters keep the items with a property (``SearchFilter``): `tag:NAME`, `in:COLLECTION`,
    /// `name:TEXT`, `links:NOTE`, `has:attachment`, `has:image`, `is:trashed`, `is:conflict`,
    /// `created:` and `modified:` with a date or an age; the trash is left out unless the query
    /// names `is:trashed`. A query of filters only lists its notes most recently modified first.
    public func search(
        _ query: String, limit: Int = 50, markers: (String, String) = ("**", "**")
    ) throws -> [SearchResult] {
        guard let plan = try searchPlan(query) else { return [] }
        guard let match = plan.match else { return try searchFiltered(plan, limit: limit) }
        let conditions = plan.conditions.map { " AND \($0)" as SQL }.joined()
        let request = SQLRequest<Row>(literal: """
            SELECT \(sql: ItemFilter.columns(includingBody: false)),
                \(sql: SnippetFunction.name)(item_fts, \(markers.0), \(markers.1)) AS snippet,
                item_fts.rank AS rank
            FROM item_fts JOIN item ON item.rowid = item_fts.rowid
            WHERE item_fts MATCH \(match) AND item_fts.rank MATCH 'bm25(4.0, 1.0)'\(conditions)
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
}
