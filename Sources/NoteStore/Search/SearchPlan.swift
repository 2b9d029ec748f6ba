import GRDB

/// A ``SearchExpression`` made into SQL: each word or phrase looked for in the full-text
/// index that finds it (``SearchExpression/index(of:)``), each filter a condition on `item`
/// (`Store+SearchFilters.swift`).
///
/// A query whose words all go to one index, without filters, is one FTS5 query of that index,
/// ranked by its bm25. Otherwise the query is ranked by the index of the words it wants at its
/// top level (the word index first), with the words it excludes there too, and its other parts
/// (filters, words of the other index, alternatives that mix them) become conditions, each
/// word a query of its own index on the rowid. When no part of its top level is of one index
/// alone (`東京 OR tokyo`, `tag:a OR word`, filters alone), nothing ranks: the matching items
/// are listed most recently modified first.
///
/// A word of one or two characters in the trigram index, which no trigram query finds, is
/// looked for among the trigrams it begins (``TrigramIndex/expansion(of:_:)``); when those
/// are more than ``TrigramIndex/expansionLimit``, by `LIKE` over names and bodies, which
/// reads every note and folds the case of ASCII letters only.
///
/// While the trigram index is being built (``TrigramIndex/builtThrough(_:)``), its words are
/// conditions that ask it for the items it holds and read the text of the others
/// (``TrigramIndex/containsFunction``); they rank nothing.
///
/// The trash is left out unless the query names `is:trashed` (``SearchExpression/namesTrash``).
struct SearchPlan {
    /// An index that ranks the results: its table and its FTS5 query.
    struct Ranking {
        let index: SearchExpression.Index
        let match: String
    }

    /// The index and query that rank, or nil: the results are ordered by recency.
    let ranking: Ranking?
    /// Conditions on `item` besides the ranking query, each to join with `AND`.
    let conditions: [SQL]
    /// The texts looked for, folded as the trigram index folds them: for the snippets that
    /// ``SnippetFunction`` does not make. Empty when the query looks for no text (filters
    /// alone): it lists notes alone, each with the start of its body.
    let substrings: [String]

    /// A compiled part of the expression: of one index (with its FTS5 query, an operand: a
    /// quoted text or in parentheses), or a condition.
    private enum Part {
        case pure(SearchExpression.Index, String)
        case condition(SQL)

        var condition: SQL {
            switch self {
            case let .pure(index, match):
                let table = SearchPlan.table(of: index)
                return "item.rowid IN (SELECT rowid FROM \(sql: table) WHERE \(sql: table) MATCH \(match))"
            case let .condition(sql): return sql
            }
        }
    }

    static func table(of index: SearchExpression.Index) -> String {
        index == .words ? "item_fts" : TrigramIndex.table
    }

    /// The plan of `expression`; `filters` holds the condition of each of its filters.
    init(_ expression: SearchExpression, filters: [SearchFilter: SQL], _ db: Database) throws {
        let compiler = Compiler(filters: filters, db: db, trigramsThrough: try TrigramIndex.builtThrough(db))
        let trash: [SQL] = expression.namesTrash ? [] : ["item.trashed IS NULL"]
        substrings = expression.textsLookedFor
        let root = try compiler.compile(expression)
        if case let .pure(index, match) = root {
            (ranking, conditions) = (Ranking(index: index, match: match), trash)
        } else if case let .all(wanted, unwanted) = expression {
            let (ranking, others) = try Self.rankingAtTop(wanted: wanted, unwanted: unwanted, compiler)
            (self.ranking, conditions) = (ranking, trash + others)
        } else {
            (ranking, conditions) = (nil, trash + [root.condition])
        }
    }

    /// The ranking of a query that needs more than one index, or filters: the words it wants
    /// (and excludes) at its top level of the word index, else of the trigram index; the
    /// other parts as conditions.
    private static func rankingAtTop(
        wanted: [SearchExpression], unwanted: [SearchExpression], _ compiler: Compiler
    ) throws -> (Ranking?, [SQL]) {
        let parts = try wanted.map(compiler.compile)
        let excluded = try unwanted.map(compiler.compile)
        func pure(_ parts: [Part], _ index: SearchExpression.Index) -> [String] {
            parts.compactMap { if case let .pure(found, match) = $0, found == index { match } else { nil } }
        }
        let index: SearchExpression.Index? =
            !pure(parts, .words).isEmpty ? .words : !pure(parts, .trigrams).isEmpty ? .trigrams : nil
        var conditions: [SQL] = []
        for part in parts {
            if case let .pure(found, _) = part, found == index { continue }
            conditions.append(part.condition)
        }
        for part in excluded {
            if case let .pure(found, _) = part, found == index { continue }
            conditions.append("NOT (\(part.condition))")
        }
        let ranking = index.map {
            Ranking(index: $0, match: SearchExpression.matchAll(pure(parts, $0), excluding: pure(excluded, $0)))
        }
        return (ranking, conditions)
    }

    /// Compiles parts of an expression, each to the index that finds it or to a condition.
    private struct Compiler {
        let filters: [SearchFilter: SQL]
        let db: Database
        /// While the trigram index is being built, the greatest rowid it holds the entry of.
        let trigramsThrough: Int64?

        func compile(_ expression: SearchExpression) throws -> Part {
            if let operand = expression.operand { return .pure(.words, operand) }
            switch expression {
            case let .term(text, _), let .phrase(text):
                return try trigramLeaf(text)
            case let .filter(filter, _):
                guard let condition = filters[filter] else { preconditionFailure("a filter without its condition") }
                return .condition(condition)
            case let .all(wanted, unwanted):
                let parts = try wanted.map(compile)
                let excluded = try unwanted.map(compile)
                if let index = SearchPlan.commonIndex(parts + excluded) {
                    let match = SearchExpression.matchAll(
                        SearchPlan.matches(parts), excluding: SearchPlan.matches(excluded))
                    return .pure(index, "(\(match))")
                }
                let conditions = parts.map(\.condition) + excluded.map { "NOT (\($0.condition))" }
                return .condition("(\(conditions.joined(operator: .and)))")
            case let .either(alternatives):
                let parts = try alternatives.map(compile)
                if let index = SearchPlan.commonIndex(parts) {
                    return .pure(index, "(\(SearchExpression.matchEither(SearchPlan.matches(parts))))")
                }
                return .condition("(\(parts.map(\.condition).joined(operator: .or)))")
            }
        }

        /// A word or a phrase of the trigram index, where a prefix is any part of a word (those
        /// of the word index are their ``SearchExpression/fts``).
        private func trigramLeaf(_ text: String) throws -> Part {
            let folded = SearchExpression.trigramText(text)
            guard !folded.isEmpty else { return .condition("0") }
            // The tokenizer counts code points, not characters.
            if folded.unicodeScalars.count >= 3 { return trigrams(SearchExpression.quoted(folded), finding: folded) }
            guard let trigrams = try TrigramIndex.expansion(of: folded, db) else {
                let pattern =
                    "%"
                    + folded.replacingOccurrences(of: "\\", with: "\\\\")
                    .replacingOccurrences(of: "%", with: "\\%").replacingOccurrences(of: "_", with: "\\_") + "%"
                return .condition("(item.name LIKE \(pattern) ESCAPE '\\' OR item.body LIKE \(pattern) ESCAPE '\\')")
            }
            guard !trigrams.isEmpty else {
                return trigramsThrough == nil ? .condition("0") : self.trigrams(nil, finding: folded)
            }
            return self.trigrams(
                "(" + trigrams.map(SearchExpression.quoted).joined(separator: " OR ") + ")", finding: folded)
        }

        /// The query `match` of the trigram index, which finds `term`: a part of that index when
        /// it is whole; while it is being built, a condition that asks it for the items it holds
        /// (none when `match` is nil) and reads the text of the others.
        private func trigrams(_ match: String?, finding term: String) -> Part {
            guard let through = trigramsThrough else { return .pure(.trigrams, match ?? "") }
            let table = TrigramIndex.table
            let comparable = TrigramIndex.comparable(term)
            let unreached: SQL = """
                (item.rowid > \(through) AND (trigram_contains(item.name, \(comparable)) \
                OR trigram_contains(item.body, \(comparable))))
                """
            guard let match else { return .condition(unreached) }
            return .condition(
                """
                ((item.rowid <= \(through) \
                AND item.rowid IN (SELECT rowid FROM \(sql: table) WHERE \(sql: table) MATCH \(match))) \
                OR \(unreached))
                """)
        }
    }

    private static func commonIndex(_ parts: [Part]) -> SearchExpression.Index? {
        var found: SearchExpression.Index?
        for part in parts {
            guard case let .pure(index, _) = part, found == nil || found == index else { return nil }
            found = index
        }
        return found
    }

    private static func matches(_ parts: [Part]) -> [String] {
        parts.compactMap { if case let .pure(_, match) = $0 { match } else { nil } }
    }
}
