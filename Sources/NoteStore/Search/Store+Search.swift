import Foundation
import GRDB

extension Store {
    /// Full-text search over names and bodies, best matches first, trashed items left out.
    ///
    /// Every word of `query` must occur (in any order, ignoring case and diacritics, `ß` as
    /// `ss`); a word ending in `*` matches as a prefix; `"a phrase"`, `OR`, `-word` or
    /// `NOT word`, and parentheses are read as search engines read them (``SearchQuery``), and a
    /// query that does not read throws ``StoreError/invalidQuery(_:)``. Text of scripts written
    /// without spaces (Chinese, Japanese, Thai...), words with symbols (`c++`) and parts of words
    /// (`*caten*`) are found anywhere through the trigram index (``TrigramIndex``); each word is
    /// looked for in the index that finds it (``SearchPlan``).
    ///
    /// Filters keep the items with a property (``SearchFilter``): `tag:NAME`, `in:COLLECTION`,
    /// `name:TEXT`, `links:NOTE`, `has:attachment`, `has:image`, `is:trashed`, `is:conflict`,
    /// `created:` and `modified:` with a date or an age; the trash is left out unless the query
    /// names `is:trashed`. A query of filters only lists its notes most recently modified first.
    ///
    /// Results rank by the bm25 of the word index (https://sqlite.org/fts5.html#the_bm25_function),
    /// names weighted above bodies (``nameWeight``), then the most recently modified first. A
    /// query with no word of the word index to rank by (text found through the trigram index
    /// alone) lists the notes whose names hold what it looks for first, then the most recently
    /// modified. The snippet is the best-matching line, made for the returned rows only, so
    /// that its time does not grow with the number of matches: by ``SnippetFunction`` when the
    /// word index ranks, else by ``SubstringSnippet``.
    ///
    /// With `stemming`, each English word is looked for by its stem, as a prefix
    /// (``EnglishStem``): `synced` finds `sync` and `syncing`.
    public func search(
        _ query: String, limit: Int = 50, markers: (String, String) = ("**", "**"), stemming: Bool = false
    ) throws -> [SearchResult] {
        guard var expression = try Self.searchExpression(query) else { return [] }
        if stemming { expression = expression.stemmed }
        // Filters that name items resolve them first, each in a read of its own.
        let filters = try filterConditions(of: expression)
        return try read { db in
            let plan = try SearchPlan(expression, filters: filters, db)
            let rows =
                try Self.amongBestMatches(plan, limit: limit, db) ?? Row.fetchAll(db, Self.request(plan, limit: limit))
            return try rows.map { row in
                let snippet = try Self.snippet(of: row["rowid"], plan: plan, markers: markers, db)
                return SearchResult(item: try Item(row: row), snippet: snippet, rank: row["rank"] ?? 0)
            }
        }
    }

    /// How much more a match in a name weighs than one in a body, in bm25.
    static let nameWeight = 4.0

    /// The matching items, best first: by the bm25 of the word index, names weighted above
    /// bodies, then the most recently modified first. Without a ranking, those whose names
    /// hold a text looked for first, then by recency; a query that looks for no text (filters
    /// alone) lists notes alone, by recency.
    private static func request(_ plan: SearchPlan, limit: Int) -> SQLRequest<Row> {
        if let parted = plan.partedCondition { return request(plan, parted: parted, limit: limit) }
        let columns = ItemFilter.columns(includingBody: false)
        guard let ranking = plan.ranking else {
            guard let nameHolds = plan.nameHolds else {
                return SQLRequest(
                    literal: """
                        SELECT \(sql: columns), item.rowid AS rowid, NULL AS rank FROM item
                        WHERE \((plan.conditions + ["item.kind = 'note'"]).joined(operator: .and))
                        ORDER BY item.modified DESC, item.id
                        LIMIT \(limit)
                        """)
            }
            return SQLRequest(
                literal: """
                    SELECT \(sql: columns), item.rowid AS rowid, NULL AS rank FROM item
                    WHERE \(plan.conditions.joined(operator: .and))
                    ORDER BY \(nameHolds) DESC, item.modified DESC, item.id
                    LIMIT \(limit)
                    """)
        }
        let table = "item_fts"
        let conditions = plan.conditions.map { " AND \($0)" as SQL }.joined()
        return SQLRequest(
            literal: """
                SELECT \(sql: columns), item.rowid AS rowid, bm25(\(sql: table), \(nameWeight), 1.0) AS rank
                FROM \(sql: table) JOIN item ON item.rowid = \(sql: table).rowid
                WHERE \(sql: table) MATCH \(ranking)\(conditions)
                ORDER BY rank, item.modified DESC, item.id
                LIMIT \(limit)
                """)
    }

    /// How many of the word index's best matches a plain search of words takes first, for
    /// each result it returns.
    static let candidatesPerResult = 4

    /// The most results a search takes among the word index's best matches; a search for more
    /// ranks every match (most of them are results then).
    static let largestLimitAmongBest = 1_000

    /// The results of a search of words alone, found among the best matches of the word index
    /// (by bm25 alone, ``candidatesPerResult`` for each result wanted): the other matches are
    /// ranked but never joined to their items nor sorted with them, which is most of the time
    /// of a word that many notes hold. Nil when those candidates may not hold the results:
    /// fewer of them than `limit` are out of the trash, or the last result ranks as the last
    /// candidate, so that a match left out (of that rank, more recent) would come before it.
    /// The same rows, in the same order, as ``request(_:limit:)`` returns.
    static func amongBestMatches(_ plan: SearchPlan, limit: Int, _ db: Database) throws -> [Row]? {
        guard plan.ranksAlone, plan.partedCondition == nil, let ranking = plan.ranking,
            (1...largestLimitAmongBest).contains(limit)
        else { return nil }
        let candidates = limit * candidatesPerResult
        let table = "item_fts"
        let columns = ItemFilter.columns(includingBody: false)
        let conditions = plan.conditions.map { " AND \($0)" as SQL }.joined()
        // Materialized: FTS5 takes bm25 in a plain select of its table, not in a query
        // flattened into another.
        let rows = try Row.fetchAll(
            db,
            SQLRequest(
                literal: """
                    WITH best AS MATERIALIZED (\
                    SELECT rowid, bm25(\(sql: table), \(nameWeight), 1.0) AS rank FROM \(sql: table) \
                    WHERE \(sql: table) MATCH \(ranking) ORDER BY rank LIMIT \(candidates))
                    SELECT \(sql: columns), item.rowid AS rowid, best.rank AS rank,
                        (SELECT count(*) FROM best) AS candidates, (SELECT max(rank) FROM best) AS lastCandidate
                    FROM best JOIN item ON item.rowid = best.rowid
                    WHERE 1\(conditions)
                    ORDER BY rank, item.modified DESC, item.id
                    LIMIT \(limit)
                    """))
        guard let first = rows.first, let last = rows.last else { return nil }
        let found: Int = first["candidates"]
        // Fewer candidates than asked for: they are every match.
        if found < candidates { return rows }
        let lastRank: Double = last["rank"]
        let lastCandidate: Double = first["lastCandidate"]
        guard rows.count == limit, lastRank < lastCandidate else { return nil }
        return rows
    }

    /// The request of a store with notes indexed in parts (``BodyParts``): the matches among
    /// the other notes, by the plan, and those among the notes in parts, by their condition,
    /// in the same order. A note in parts ranks by the best bm25 of its parts that hold a
    /// word the query wants (those whose name alone does, after those whose body does).
    private static func request(_ plan: SearchPlan, parted: SQL, limit: Int) -> SQLRequest<Row> {
        let columns = ItemFilter.columns(includingBody: false)
        let whole: SQL = "item.rowid NOT IN (SELECT item FROM \(sql: BodyParts.table))"
        let inParts: SQL = "item.rowid IN (SELECT item FROM \(sql: BodyParts.table))"
        var prefix: SQL = ""
        let first: SQL
        let second: SQL
        let order: SQL
        if let ranking = plan.ranking {
            let table = "item_fts"
            let partTable = BodyParts.wordTable
            let conditions = plan.conditions.map { " AND \($0)" as SQL }.joined()
            first = """
                SELECT \(sql: columns), item.rowid AS rowid, bm25(\(sql: table), \(nameWeight), 1.0) AS rank
                FROM \(sql: table) JOIN item ON item.rowid = \(sql: table).rowid
                WHERE \(sql: table) MATCH \(ranking)\(conditions) AND \(whole)
                """
            // The bm25 of every matching part, once each, as the bm25 of a whole note reads
            // each of its matches once; the best of each note is taken from them. Materialized:
            // FTS5 takes bm25 in a plain select of its table, not in a query flattened into
            // another or in an aggregate.
            prefix = """
                WITH part AS MATERIALIZED (\
                SELECT \(sql: BodyParts.table).item AS item, bm25(\(sql: partTable), \(nameWeight), 1.0) AS score \
                FROM \(sql: partTable) JOIN \(sql: BodyParts.table) ON \(sql: BodyParts.table).id = \(sql: partTable).rowid \
                WHERE \(sql: partTable) MATCH \(plan.partedRanking ?? ranking)) 
                """
            second = """
                SELECT \(sql: columns), item.rowid AS rowid, coalesce(best.rank, 0) AS rank
                FROM item LEFT JOIN (SELECT item, min(score) AS rank FROM part GROUP BY item) AS best \
                ON best.item = item.rowid
                WHERE \(inParts) AND \(parted)
                """
            order = "rank, modified DESC, id"
        } else {
            let notes: SQL = plan.nameHolds == nil ? " AND item.kind = 'note'" : ""
            let holds = plan.nameHolds ?? "0"
            first = """
                SELECT \(sql: columns), item.rowid AS rowid, NULL AS rank, \(holds) AS holds FROM item
                WHERE \(plan.conditions.joined(operator: .and))\(notes) AND \(whole)
                """
            second = """
                SELECT \(sql: columns), item.rowid AS rowid, NULL AS rank, \(holds) AS holds FROM item
                WHERE \(inParts) AND \(parted)\(notes)
                """
            order = "holds DESC, modified DESC, id"
        }
        return SQLRequest(
            literal: "\(prefix)SELECT * FROM (\(first) UNION ALL \(second)) ORDER BY \(order) LIMIT \(limit)")
    }

    /// The snippet of a result: made by ``SnippetFunction`` from the word index's matches
    /// when the word index ranks, else from the texts looked for (``SubstringSnippet``); for
    /// a query of filters alone, the start of the body, as one line.
    private static func snippet(of rowid: Int64, plan: SearchPlan, markers: (String, String), _ db: Database) throws
        -> String
    {
        if plan.ranking != nil, let partedRanking = plan.partedRanking,
            try Bool.fetchOne(
                db, sql: "SELECT EXISTS (SELECT 1 FROM \(BodyParts.table) WHERE item = ?)", arguments: [rowid])!
        {
            // A note in parts: the best-matching line from its first match on, as for a whole
            // note (its first part that matches), else of its name. The part is found by the
            // index's lists alone, without ranking the parts.
            let table = BodyParts.wordTable
            let first = try Int64.fetchOne(
                db,
                SQLRequest<Int64>(
                    literal: """
                        SELECT id FROM \(sql: BodyParts.table) WHERE item = \(rowid) AND id IN \
                        (SELECT rowid FROM \(sql: table) WHERE \(sql: table) MATCH \(partedRanking)) \
                        ORDER BY start LIMIT 1
                        """))
            let fromParts = SQLRequest<String>(
                literal: """
                    SELECT \(sql: SnippetFunction.partName)(\(sql: table), \(markers.0), \(markers.1))
                    FROM \(sql: table) WHERE \(sql: table) MATCH \(partedRanking) AND rowid = \(first ?? -1)
                    """)
            let fromName = SQLRequest<String>(
                literal: """
                    SELECT \(sql: SnippetFunction.name)(item_fts, \(markers.0), \(markers.1)) FROM item_fts
                    WHERE item_fts MATCH \(partedRanking) AND rowid = \(rowid)
                    """)
            let snippet = try (first == nil ? nil : fromParts.fetchOne(db)) ?? fromName.fetchOne(db) ?? ""
            return snippet.split(whereSeparator: \.isNewline).joined(separator: " ")
        }
        if let ranking = plan.ranking {
            let request = SQLRequest<String>(
                literal: """
                    SELECT \(sql: SnippetFunction.name)(item_fts, \(markers.0), \(markers.1)) FROM item_fts
                    WHERE item_fts MATCH \(ranking) AND rowid = \(rowid)
                    """)
            // One line: a break the line kept (a lone carriage return) becomes a space.
            return (try request.fetchOne(db) ?? "").split(whereSeparator: \.isNewline).joined(separator: " ")
        }
        guard !plan.substrings.isEmpty else {
            let start = try String.fetchOne(
                db, sql: "SELECT substr(body, 1, 200) FROM item WHERE rowid = ?", arguments: [rowid])
            return String((start ?? "").split(whereSeparator: \.isNewline).joined(separator: " ").prefix(120))
        }
        let row = try Row.fetchOne(
            db, sql: "SELECT name, substr(body, 1, ?) AS body FROM item WHERE rowid = ?",
            arguments: [SubstringSnippet.textLimit, rowid])
        guard let row else { return "" }
        return SubstringSnippet.excerpt(
            name: row["name"], body: row["body"], substrings: plan.substrings, markers: markers)
    }
}
