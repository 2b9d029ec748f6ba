import GRDB

/// A ``SearchExpression`` made into SQL: each word or phrase looked for in the full-text
/// index that finds it (``SearchExpression/index(of:)``), each filter a condition on `item`
/// (`Store+SearchFilters.swift`).
///
/// A query whose words all go to the word index, without filters, is one FTS5 query of that
/// index, ranked by its bm25. Otherwise, when the query wants words of the word index at its
/// top level, those rank, with the words it excludes there too, and its other parts (filters,
/// words of the trigram index, alternatives that mix them) become conditions. When nothing at
/// its top level is of the word index (`東京`, `*caten*`, `東京 OR tokyo`, filters alone),
/// nothing ranks: the matching items whose names hold a text looked for come first, then the
/// most recently modified.
///
/// The trigram index holds no positions (``TrigramIndex``): a word or phrase of more than three
/// characters in it is a condition, the items that hold all its trigrams
/// (``TrigramIndex/query(of:)``) whose name or body holds it (``TrigramIndex/containsFunction``);
/// one of three characters is its one trigram, which the index finds exactly. A word of one or
/// two characters, which no trigram query finds, is looked for among the trigrams it begins
/// (``TrigramIndex/expansion(of:_:)``), which says it exactly; when those are more than
/// ``TrigramIndex/expansionLimit``, by `LIKE` over names and bodies, which reads every note and
/// folds the case of ASCII letters only.
///
/// While the trigram index is being built (``TrigramIndex/builtThrough(_:)``), its words ask
/// it for the items it holds and read the text of the others.
///
/// The trash is left out unless the query names `is:trashed` (``SearchExpression/namesTrash``).
///
/// A note whose body is indexed in parts (``BodyParts``) has its name alone in the indexes'
/// entries of items, and its body in entries of parts, which a query takes together: each
/// word or phrase is looked for in the name and in every part, and the expression is made of
/// those as conditions (``partedCondition``), so that `a b` finds it with `a` in one part and
/// `b` in another, and `a -b` does not with `b` in any. The plan above is for the other notes.
struct SearchPlan {
    /// The FTS5 query of the word index that ranks the results, or nil: the results whose
    /// names hold a text looked for come first (``nameHolds``), then the most recent.
    let ranking: String?
    /// Conditions on `item` besides the ranking query, each to join with `AND`.
    let conditions: [SQL]
    /// Whether the ranking query is the whole query, the trash aside: then few of its best
    /// matches fail the conditions.
    let ranksAlone: Bool
    /// The texts looked for, folded as the trigram index folds them: for the snippets that
    /// ``SnippetFunction`` does not make. Empty when the query looks for no text (filters
    /// alone): it lists notes alone, each with the start of its body.
    let substrings: [String]
    /// The condition that a note indexed in parts meets; nil when no note is (then the plan
    /// is the same as without parts).
    let partedCondition: SQL?
    /// The FTS5 query of every word the query wants, joined by `OR`: what ranks the parts of
    /// a note indexed in parts, and makes its snippet. Nil when it wants none.
    let partedRanking: String?
    /// Whether an item's name holds one of ``substrings``: what orders the results first when
    /// nothing ranks. Nil when the query looks for no text.
    var nameHolds: SQL? {
        guard !substrings.isEmpty else { return nil }
        let holds = substrings.map { "trigram_contains(item.name, \(TrigramIndex.comparable($0)))" as SQL }
        return "(\(holds.joined(operator: .or)))"
    }

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
        let through = try TrigramIndex.builtThrough(db)
        let compiler = Compiler(filters: filters, db: db, trigramsThrough: through, parted: false)
        let trash: [SQL] = expression.namesTrash ? [] : ["item.trashed IS NULL"]
        substrings = expression.textsLookedFor
        if try BodyParts.exist(db), try Bool.fetchOne(db, sql: "SELECT EXISTS (SELECT 1 FROM \(BodyParts.table))")! {
            let parted = try Compiler(filters: filters, db: db, trigramsThrough: through, parted: true)
                .compile(expression)
            partedCondition = "(\((trash + [parted.condition]).joined(operator: .and)))"
            let words = expression.wantedWordOperands
            partedRanking = words.isEmpty ? nil : SearchExpression.matchEither(words)
        } else {
            (partedCondition, partedRanking) = (nil, nil)
        }
        let root = try compiler.compile(expression)
        if case let .pure(.words, match) = root {
            (ranking, conditions, ranksAlone) = (match, trash, true)
        } else if case let .all(wanted, unwanted) = expression {
            let (ranking, others) = try Self.rankingAtTop(wanted: wanted, unwanted: unwanted, compiler)
            (self.ranking, conditions, ranksAlone) = (ranking, trash + others, false)
        } else {
            (ranking, conditions, ranksAlone) = (nil, trash + [root.condition], false)
        }
    }

    /// The ranking of a query that needs more than one index, or filters: the words it wants
    /// (and excludes) at its top level of the word index, when it wants some; the other parts
    /// as conditions.
    private static func rankingAtTop(
        wanted: [SearchExpression], unwanted: [SearchExpression], _ compiler: Compiler
    ) throws -> (String?, [SQL]) {
        let parts = try wanted.map(compiler.compile)
        let excluded = try unwanted.map(compiler.compile)
        func words(_ parts: [Part]) -> [String] {
            parts.compactMap { if case let .pure(.words, match) = $0 { match } else { nil } }
        }
        let ranks = !words(parts).isEmpty
        var conditions: [SQL] = []
        for part in parts {
            if ranks, case .pure(.words, _) = part { continue }
            conditions.append(part.condition)
        }
        for part in excluded {
            if ranks, case .pure(.words, _) = part { continue }
            conditions.append("NOT (\(part.condition))")
        }
        return (ranks ? SearchExpression.matchAll(words(parts), excluding: words(excluded)) : nil, conditions)
    }

    /// Compiles parts of an expression, each to the index that finds it or to a condition.
    private struct Compiler {
        let filters: [SearchFilter: SQL]
        let db: Database
        /// While the trigram index is being built, the greatest rowid it holds the entry of.
        let trigramsThrough: Int64?
        /// For notes indexed in parts: each word or phrase a condition of its own, met by the
        /// name or any part (``found(_:_:)``), never joined with others in one FTS5 query.
        let parted: Bool

        func compile(_ expression: SearchExpression) throws -> Part {
            if let operand = expression.operand, !parted || expression.isWordOrPhrase { return pure(.words, operand) }
            switch expression {
            case let .term(text, _), let .phrase(text):
                return try trigramLeaf(text)
            case let .filter(filter, _):
                guard let condition = filters[filter] else { preconditionFailure("a filter without its condition") }
                return .condition(condition)
            case let .all(wanted, unwanted):
                let parts = try wanted.map(compile)
                let excluded = try unwanted.map(compile)
                if !parted, let index = SearchPlan.commonIndex(parts + excluded) {
                    let match = SearchExpression.matchAll(
                        SearchPlan.matches(parts), excluding: SearchPlan.matches(excluded))
                    return .pure(index, "(\(match))")
                }
                let conditions = parts.map(\.condition) + excluded.map { "NOT (\($0.condition))" }
                return .condition("(\(conditions.joined(operator: .and)))")
            case let .either(alternatives):
                let parts = try alternatives.map(compile)
                if !parted, let index = SearchPlan.commonIndex(parts) {
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
            if folded.unicodeScalars.count >= 3 { return trigrams(TrigramIndex.query(of: folded), confirming: folded) }
            guard let trigrams = try TrigramIndex.expansion(of: folded, db) else {
                let pattern =
                    "%"
                    + folded.replacingOccurrences(of: "\\", with: "\\\\")
                    .replacingOccurrences(of: "%", with: "\\%").replacingOccurrences(of: "_", with: "\\_") + "%"
                return .condition("(item.name LIKE \(pattern) ESCAPE '\\' OR item.body LIKE \(pattern) ESCAPE '\\')")
            }
            let match =
                trigrams.isEmpty ? nil : "(" + trigrams.map(SearchExpression.quoted).joined(separator: " OR ") + ")"
            guard let through = trigramsThrough else { return match.map { pure(.trigrams, $0) } ?? .condition("0") }
            return .condition(heldOrUnreached(match, through: through, term: folded))
        }

        /// A query of one index: `.pure`, to be joined with others of the index, or, for notes
        /// indexed in parts, its condition.
        private func pure(_ index: SearchExpression.Index, _ match: String) -> Part {
            parted ? .condition(found(index, match)) : .pure(index, match)
        }

        /// The items whose entries in `index` match `match`; for notes indexed in parts, those
        /// whose name or one of whose parts does.
        private func found(_ index: SearchExpression.Index, _ match: String) -> SQL {
            let table = SearchPlan.table(of: index)
            let own: SQL = "item.rowid IN (SELECT rowid FROM \(sql: table) WHERE \(sql: table) MATCH \(match))"
            guard parted else { return own }
            let parts = index == .words ? BodyParts.wordTable : BodyParts.trigramTable
            return """
                (\(own) OR item.rowid IN (SELECT item FROM \(sql: BodyParts.table) WHERE id IN \
                (SELECT rowid FROM \(sql: parts) WHERE \(sql: parts) MATCH \(match))))
                """
        }

        /// A term of three characters or more: the items that the index finds by `match`
        /// whose text holds `term`. While the index is being built, the items it has not
        /// reached are read whole. A term of three characters is one trigram, which the index
        /// finds exactly: its text is not read.
        private func trigrams(_ match: String, confirming term: String) -> Part {
            if trigramsThrough == nil, term.unicodeScalars.count == 3 { return pure(.trigrams, match) }
            let comparable = TrigramIndex.comparable(term)
            let holds: SQL =
                "(trigram_contains(item.name, \(comparable)) OR trigram_contains(item.body, \(comparable)))"
            let found = found(.trigrams, match)
            guard let through = trigramsThrough else { return .condition("(\(found) AND \(holds))") }
            return .condition("((item.rowid > \(through) OR \(found)) AND \(holds))")
        }

        /// While the index is being built: the items it holds that `match` finds (none when
        /// nil), and those it has not reached whose text holds `term`.
        private func heldOrUnreached(_ match: String?, through: Int64, term: String) -> SQL {
            let comparable = TrigramIndex.comparable(term)
            let unreached: SQL = """
                (item.rowid > \(through) AND (trigram_contains(item.name, \(comparable)) \
                OR trigram_contains(item.body, \(comparable))))
                """
            guard let match else { return unreached }
            return "((item.rowid <= \(through) AND \(found(.trigrams, match))) OR \(unreached))"
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
