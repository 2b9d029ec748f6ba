import Foundation
import NoteText

/// A search as ``SearchQuery`` reads it: words, phrases and filters joined by AND, OR and NOT.
/// ``SearchPlan`` makes it into SQL: each word or phrase a query of the index that finds it,
/// each filter a condition on `item`.
indirect enum SearchExpression: Equatable {
    /// A word; `prefix` when it ends in `*`. One that starts with `*` is looked for anywhere
    /// in words (``TrigramIndex``).
    case term(String, prefix: Bool)
    case phrase(String)
    /// A filter (``SearchFilter``), and the column of its word in the query.
    case filter(SearchFilter, column: Int)
    /// Every one of `wanted`, and none of `unwanted`.
    case all(wanted: [SearchExpression], unwanted: [SearchExpression])
    /// Any one of them.
    case either([SearchExpression])

    /// The index that finds a word or a phrase: the word index, unless the text holds
    /// characters of a script written without spaces between words (``isUnspaced(_:)``) or
    /// symbols that the word index leaves out (`c++`, `#`), or the word starts with `*`
    /// (part of a word): then the trigram index, which finds it anywhere in the text.
    enum Index {
        case words, trigrams
    }

    static func index(of text: String) -> Index {
        if text.hasPrefix("*") { return .trigrams }
        return text.unicodeScalars.contains { isUnspaced($0) || symbols.contains($0) } ? .trigrams : .words
    }

    /// Symbols that the word index does not keep, and that a person searching for `c++` or
    /// `a&b` means.
    private static let symbols = Set("+#@$%&=<>/\\~^|".unicodeScalars)

    /// Whether a character belongs to a script written without spaces between words: Thai,
    /// Lao, Tibetan, Myanmar, Khmer, Chinese, Japanese kana, and Korean (whose words carry
    /// their particles).
    static func isUnspaced(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x0E00...0x0FFF, 0x1000...0x109F, 0x1780...0x17FF, 0x3040...0x30FF, 0x3400...0x4DBF,
            0x4E00...0x9FFF, 0xAC00...0xD7AF, 0xF900...0xFAFF, 0xFF66...0xFF9F, 0x20000...0x3FFFF:
            return true
        default:
            return false
        }
    }
}

extension SearchExpression {
    /// The FTS5 query of a word for the word index: quoted, so that no text is FTS5 syntax,
    /// and with `ß` and `ss` as one, as the trigram index folds them: `strasse` finds
    /// `Straße`, which the word index holds as it is written. A word with `ss` in it is
    /// looked for in each spelling (with at most three of them changed).
    static func wordQuery(_ text: String, prefix: Bool) -> String {
        let variants = sharpSVariants(of: text.lowercased().replacingOccurrences(of: "ß", with: "ss"))
        let spellings = variants.map { Self.quoted($0) + (prefix ? "*" : "") }
        return spellings.count == 1 ? spellings[0] : "(" + spellings.joined(separator: " OR ") + ")"
    }

    /// `text` with each subset of its first three `ss` written `ß`.
    private static func sharpSVariants(of text: String) -> [String] {
        var variants = [""]
        var rest = Substring(text)
        var changes = 0
        while let range = rest.range(of: "ss") {
            let before = rest[..<range.lowerBound]
            variants = variants.map { $0 + before }
            if changes < 3 {
                variants = variants.flatMap { [$0 + "ss", $0 + "ß"] }
                changes += 1
            } else {
                variants = variants.map { $0 + "ss" }
            }
            rest = rest[range.upperBound...]
        }
        return variants.map { $0 + rest }
    }

    /// The text a trigram query looks for: folded as the index is, spaces as one space.
    static func trigramText(_ text: String) -> String {
        let trimmed = text.drop { $0 == "*" }
        return TrigramIndex.folded(trimmed.split(whereSeparator: \.isWhitespace).joined(separator: " "))
    }

    static func quoted(_ text: String) -> String {
        "\"" + text.replacingOccurrences(of: "\"", with: "\"\"") + "\""
    }
}

extension SearchExpression {
    /// The FTS5 query of the word index for an expression whose every word and phrase the
    /// word index finds, and which has no filter; nil otherwise.
    var fts: String? {
        switch self {
        case let .term(text, prefix): return Self.index(of: text) == .words ? Self.wordQuery(text, prefix: prefix) : nil
        case let .phrase(text): return Self.index(of: text) == .words ? Self.wordQuery(text, prefix: false) : nil
        case .filter: return nil
        case let .either(parts):
            let operands = parts.compactMap(\.operand)
            return operands.count == parts.count ? Self.matchEither(operands) : nil
        case let .all(wanted, unwanted):
            let words = wanted.compactMap(\.operand)
            let excluded = unwanted.compactMap(\.operand)
            guard words.count == wanted.count, excluded.count == unwanted.count else { return nil }
            return Self.matchAll(words, excluding: excluded)
        }
    }

    /// The FTS5 query as an operand of another: in parentheses unless a word or a phrase.
    var operand: String? {
        switch self {
        case .term, .phrase: return fts
        default: return fts.map { "(\($0))" }
        }
    }

    /// FTS5 for all of `operands` and none of `excluded` (`operands` not empty), in either
    /// index.
    static func matchAll(_ operands: [String], excluding excluded: [String]) -> String {
        let joined = operands.joined(separator: " AND ")
        let all = operands.count == 1 || excluded.isEmpty ? joined : "(\(joined))"
        return ([all] + excluded).joined(separator: " NOT ")
    }

    /// FTS5 for any of `operands`, in either index.
    static func matchEither(_ operands: [String]) -> String {
        operands.joined(separator: " OR ")
    }

    /// Whether the expression is one word or one phrase.
    var isWordOrPhrase: Bool {
        switch self {
        case .term, .phrase: return true
        default: return false
        }
    }

    /// The FTS5 queries of the words and phrases of the word index that the expression wants,
    /// not those it excludes.
    var wantedWordOperands: [String] {
        switch self {
        case .term, .phrase: return operand.map { [$0] } ?? []
        case .filter: return []
        case let .either(parts): return parts.flatMap(\.wantedWordOperands)
        case let .all(wanted, _): return wanted.flatMap(\.wantedWordOperands)
        }
    }

    /// Whether the expression names `is:trashed` anywhere (then the trash is not left out).
    var namesTrash: Bool {
        switch self {
        case .term, .phrase: return false
        case let .filter(filter, _): return filter == .trashed
        case let .either(parts): return parts.contains(where: \.namesTrash)
        case let .all(wanted, unwanted): return (wanted + unwanted).contains(where: \.namesTrash)
        }
    }

    /// The texts of the words and phrases looked for, not those excluded, folded as the
    /// trigram index folds them: what a snippet marks when ``SnippetFunction`` does not make
    /// it. Empty for a query of filters alone.
    var textsLookedFor: [String] {
        switch self {
        case let .term(text, _), let .phrase(text):
            let folded = Self.trigramText(text)
            return folded.isEmpty ? [] : [folded]
        case .filter: return []
        case let .either(parts): return parts.flatMap(\.textsLookedFor)
        case let .all(wanted, _): return wanted.flatMap(\.textsLookedFor)
        }
    }

    /// The filters of the expression, each with the column of its word.
    var filters: [(filter: SearchFilter, column: Int)] {
        switch self {
        case .term, .phrase: return []
        case let .filter(filter, column): return [(filter, column)]
        case let .either(parts): return parts.flatMap(\.filters)
        case let .all(wanted, unwanted): return (wanted + unwanted).flatMap(\.filters)
        }
    }
}

extension SearchExpression {
    /// The expression with each word of English looked for by its stem, as a prefix
    /// (``EnglishStem``): `synced` finds `sync`, `syncing` and `synced`. Phrases, prefixes
    /// and filters stay as written.
    var stemmed: SearchExpression {
        switch self {
        case let .term(word, prefix: false) where Self.index(of: word) == .words:
            let stem = EnglishStem.stem(word)
            return stem.count >= 3 ? .term(stem, prefix: true) : self
        case .term, .phrase, .filter:
            return self
        case let .all(wanted, unwanted):
            return .all(wanted: wanted.map(\.stemmed), unwanted: unwanted.map(\.stemmed))
        case let .either(parts):
            return .either(parts.map(\.stemmed))
        }
    }
}
