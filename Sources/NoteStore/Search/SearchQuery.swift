/// The words of a search as a person types them, made into a ``SearchExpression``: words (all
/// must match), `"a phrase"`, `OR`, `-word` and `NOT word`, `prefix*`, parentheses, and filters
/// (``SearchFilter``) such as `tag:work` or `modified:>7d`, which may be excluded and grouped as
/// words are; `AND` may be written and changes nothing. What does not read is a
/// ``SearchQuery/Problem`` that says what and where.
struct SearchQuery {
    /// Why a query does not read, and where: a column from 1, in characters of the query.
    struct Problem: Error, Equatable, CustomStringConvertible {
        let column: Int
        let reason: String

        var description: String { "\(reason) at column \(column) of the query" }
    }

    private enum Token: Equatable {
        case term(String, prefix: Bool)
        case phrase(String)
        case filter(SearchFilter)
        case or, and, not
        case open, close
    }

    private var tokens: [(token: Token, column: Int)] = []
    private var position = 0
    private let length: Int

    /// The expression `text` reads as; nil when it has nothing to look for. Throws a
    /// ``Problem`` when it does not read.
    static func read(_ text: String) throws(Problem) -> SearchExpression? {
        var query = try SearchQuery(text)
        guard !query.tokens.isEmpty else { return nil }
        let expression = try query.either()
        if query.position < query.tokens.count {
            throw Problem(column: query.tokens[query.position].column, reason: "')' closes no '('")
        }
        return expression
    }

    private init(_ text: String) throws(Problem) {
        let characters = Array(text)
        length = characters.count
        var index = 0
        while index < characters.count {
            let character = characters[index]
            let column = index + 1
            if character.isWhitespace {
                index += 1
            } else if character == "(" || character == ")" {
                tokens.append((character == "(" ? .open : .close, column))
                index += 1
            } else if character == "\"" {
                let (phrase, end) = try Self.quoted(characters, from: index)
                if phrase.contains(where: { $0.isLetter || $0.isNumber }) { tokens.append((.phrase(phrase), column)) }
                index = end
            } else {
                index = try readWord(characters, from: index)
            }
        }
    }

    /// The text between the `"` at `index` and the next one, and the index after it.
    private static func quoted(_ characters: [Character], from index: Int) throws(Problem) -> (String, Int) {
        guard let end = characters[(index + 1)...].firstIndex(of: "\"") else {
            throw Problem(column: index + 1, reason: "'\"' opens a phrase that no '\"' closes")
        }
        return (String(characters[(index + 1)..<end]), end + 1)
    }

    /// Reads the word from `index` (an operator, a term, or a filter with its value, which may
    /// be quoted) and returns the index after it.
    private mutating func readWord(_ characters: [Character], from index: Int) throws(Problem) -> Int {
        let column = index + 1
        var end = index
        while end < characters.count, !characters[end].isWhitespace, !"()\"".contains(characters[end]) { end += 1 }
        var word = String(characters[index..<end])
        switch word {
        case "OR": tokens.append((.or, column)); return end
        case "AND": tokens.append((.and, column)); return end
        case "NOT": tokens.append((.not, column)); return end
        default: break
        }
        var start = column
        if word.hasPrefix("-"), word.count > 1 {
            tokens.append((.not, column))
            word.removeFirst()
            start += 1
        }
        if let colon = word.firstIndex(of: ":"), SearchFilter.keys.contains(word[..<colon].lowercased()) {
            let key = word[..<colon].lowercased()
            var value = String(word[word.index(after: colon)...])
            let valueColumn = start + key.count + 1
            if value.isEmpty, end < characters.count, characters[end] == "\"" {
                (value, end) = try Self.quoted(characters, from: end)
            }
            guard !value.trimmingCharacters(in: .whitespaces).isEmpty else {
                throw Problem(column: start, reason: "'\(key):' needs a value after it")
            }
            tokens.append((.filter(try SearchFilter.reading(key: key, value: value, column: valueColumn)), start))
            return end
        }
        let prefix = word.hasSuffix("*")
        while word.hasSuffix("*") { word.removeLast() }
        if word.contains(where: { $0.isLetter || $0.isNumber }) {
            tokens.append((.term(word, prefix: prefix), start))
        } else if tokens.last?.token == .not, tokens.last?.column == column {
            tokens.removeLast()
        }
        return end
    }

    /// Terms joined by `OR`.
    private mutating func either() throws(Problem) -> SearchExpression {
        var parts = [try all()]
        while position < tokens.count, tokens[position].token == .or {
            let column = tokens[position].column
            position += 1
            guard position < tokens.count, tokens[position].token != .close, tokens[position].token != .or else {
                throw Problem(column: column, reason: "'OR' needs a word or a phrase after it")
            }
            parts.append(try all())
        }
        return parts.count == 1 ? parts[0] : .either(parts)
    }

    /// Terms that must all match, and those that must not.
    private mutating func all() throws(Problem) -> SearchExpression {
        var wanted: [SearchExpression] = []
        var unwanted: [SearchExpression] = []
        let start = position < tokens.count ? tokens[position].column : length + 1
        while position < tokens.count {
            let (token, column) = tokens[position]
            switch token {
            case .or, .close:
                return try Self.joined(wanted, unwanted, column: start)
            case .and:
                position += 1
            case .not:
                position += 1
                guard position < tokens.count, tokens[position].token != .or, tokens[position].token != .close,
                    tokens[position].token != .not, tokens[position].token != .and
                else { throw Problem(column: column, reason: "'NOT' needs a word or a phrase after it") }
                unwanted.append(try primary())
            default:
                wanted.append(try primary())
            }
        }
        return try Self.joined(wanted, unwanted, column: start)
    }

    private static func joined(_ wanted: [SearchExpression], _ unwanted: [SearchExpression], column: Int)
        throws(Problem) -> SearchExpression
    {
        guard !wanted.isEmpty else {
            throw Problem(
                column: column,
                reason: unwanted.isEmpty
                    ? "nothing to look for" : "a query needs a word or a filter to find besides those it excludes")
        }
        return wanted.count == 1 && unwanted.isEmpty ? wanted[0] : .all(wanted: wanted, unwanted: unwanted)
    }

    /// A word, a phrase, a filter, or a query in parentheses.
    private mutating func primary() throws(Problem) -> SearchExpression {
        let (token, column) = tokens[position]
        position += 1
        switch token {
        case let .term(word, prefix): return .term(word, prefix: prefix)
        case let .phrase(phrase): return .phrase(phrase)
        case let .filter(filter): return .filter(filter, column: column)
        case .open:
            guard position < tokens.count, tokens[position].token != .close else {
                throw Problem(column: column, reason: "'(' holds nothing to look for")
            }
            let inner = try either()
            guard position < tokens.count, tokens[position].token == .close else {
                throw Problem(column: column, reason: "'(' opens a group that no ')' closes")
            }
            position += 1
            return inner
        case .close: throw Problem(column: column, reason: "')' closes no '('")
        case .or, .and, .not: throw Problem(column: column, reason: "a word or a phrase is needed here")
        }
    }
}
