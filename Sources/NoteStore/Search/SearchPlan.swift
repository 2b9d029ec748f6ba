import GRDB

/// A ``SearchExpression`` made into SQL over the two full-text indexes, each word or phrase
/// looked for in the index that finds it (``SearchExpression/index(of:)``).
///
/// A query whose words all go to one index is one FTS5 query of that index, ranked by its
/// bm25. A query that needs both is ranked by the index of the words it wants at its top
/// level (the word index first), and its other parts become conditions on the rowid, each a
/// query of its own index. When no part of its top level is of one index alone (`東京 OR
/// tokyo`), the matching notes are listed most recently modified first.
///
/// A word of one or two characters in the trigram index, which no trigram query finds, is
/// looked for among the trigrams it begins (``TrigramIndex/expansion(of:_:)``); when those
/// are more than ``TrigramIndex/expansionLimit``, by `LIKE` over names and bodies, which
/// reads every note and folds the case of ASCII letters only.
struct SearchPlan {
    /// An index that ranks the results: its table and its FTS5 query.
    struct Ranking {
        let index: SearchExpression.Index
        let match: String
    }

    /// The index and query that rank, or nil: the results are ordered by recency.
    let ranking: Ranking?
    /// Conditions on `item` besides the ranking query.
    let conditions: [SQL]
    /// The texts looked for, folded as the trigram index folds them: for the snippets that
    /// ``SnippetFunction`` does not make.
    let substrings: [String]

    /// A compiled part of the expression: of one index (with its FTS5 query), or a condition.
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

    init(_ expression: SearchExpression, _ db: Database) throws {
        var substrings: [String] = []
        let root = try Self.compile(expression, db, substrings: &substrings)
        self.substrings = substrings
        if case let .pure(index, match) = root {
            ranking = Ranking(index: index, match: match)
            conditions = []
            return
        }
        guard case let .all(wanted, excluded) = expression else {
            ranking = nil
            conditions = [root.condition]
            return
        }
        var ignored: [String] = []
        let parts = try wanted.map { try Self.compile($0, db, substrings: &ignored) }
        let unwanted = try excluded.map { try Self.compile($0, db, substrings: &ignored) }
        func pure(_ index: SearchExpression.Index) -> [String] {
            parts.compactMap { if case let .pure(found, match) = $0, found == index { match } else { nil } }
        }
        let index: SearchExpression.Index? = !pure(.words).isEmpty ? .words : !pure(.trigrams).isEmpty ? .trigrams : nil
        var conditions: [SQL] = []
        for part in parts {
            if case let .pure(found, _) = part, found == index { continue }
            conditions.append(part.condition)
        }
        conditions += unwanted.map { "NOT (\($0.condition))" }
        ranking = index.map { Ranking(index: $0, match: pure($0).joined(separator: " AND ")) }
        self.conditions = conditions
    }

    private static func compile(_ expression: SearchExpression, _ db: Database, substrings: inout [String]) throws -> Part {
        switch expression {
        case let .term(text, prefix):
            return try leaf(text, prefix: prefix, db, substrings: &substrings)
        case let .phrase(text):
            return try leaf(text, prefix: false, db, substrings: &substrings)
        case let .all(wanted, excluded):
            let parts = try wanted.map { try compile($0, db, substrings: &substrings) }
            var ignored: [String] = []
            let unwanted = try excluded.map { try compile($0, db, substrings: &ignored) }
            if let index = commonIndex(parts + unwanted) {
                let all = matches(parts).joined(separator: " AND ")
                let query = unwanted.isEmpty ? all : "(\(all))" + matches(unwanted).map { " NOT \($0)" }.joined()
                return .pure(index, "(\(query))")
            }
            let conditions = parts.map(\.condition) + unwanted.map { "NOT (\($0.condition))" }
            return .condition("(" + conditions.joined(separator: " AND ") + ")")
        case let .any(either):
            let parts = try either.map { try compile($0, db, substrings: &substrings) }
            if let index = commonIndex(parts) {
                return .pure(index, "(" + matches(parts).joined(separator: " OR ") + ")")
            }
            return .condition("(" + parts.map(\.condition).joined(separator: " OR ") + ")")
        }
    }

    private static func leaf(_ text: String, prefix: Bool, _ db: Database, substrings: inout [String]) throws -> Part {
        switch SearchExpression.index(of: text) {
        case .words:
            substrings.append(SearchExpression.trigramText(text))
            return .pure(.words, SearchExpression.wordQuery(text, prefix: prefix))
        case .trigrams:
            let folded = SearchExpression.trigramText(text)
            guard !folded.isEmpty else { return .condition("0") }
            substrings.append(folded)
            // The tokenizer counts code points, not characters.
            if folded.unicodeScalars.count >= 3 { return .pure(.trigrams, SearchExpression.quoted(folded)) }
            guard let trigrams = try TrigramIndex.expansion(of: folded, db) else {
                let pattern = "%" + folded.replacingOccurrences(of: "\\", with: "\\\\")
                    .replacingOccurrences(of: "%", with: "\\%").replacingOccurrences(of: "_", with: "\\_") + "%"
                return .condition("(item.name LIKE \(pattern) ESCAPE '\\' OR item.body LIKE \(pattern) ESCAPE '\\')")
            }
            guard !trigrams.isEmpty else { return .condition("0") }
            return .pure(.trigrams, "(" + trigrams.map(SearchExpression.quoted).joined(separator: " OR ") + ")")
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
