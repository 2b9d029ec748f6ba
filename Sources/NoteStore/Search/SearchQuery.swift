/// The words of a search as a person types them, made into a ``SearchExpression``: words (all
/// must match), `"a phrase"`, `OR`, `-word` and `NOT word`, `prefix*`, and parentheses; `AND`
/// may be written and changes nothing. What does not read is a ``SearchQuery/Problem`` that
/// says what and where.
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
        case or, and, not
        case open, close
    }

    private var tokens: [(token: Token, column: Int)] = []
    private var position = 0
    private let length: Int

    /// The expression of `text`; nil when it has no word to look for. Throws a ``Problem``
    /// when it does not read.
    static func expression(_ text: String) throws(Problem) -> SearchExpression? {
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
                guard let end = characters[(index + 1)...].firstIndex(of: "\"") else {
                    throw Problem(column: column, reason: "'\"' opens a phrase that no '\"' closes")
                }
                let phrase = String(characters[(index + 1)..<end])
                if phrase.contains(where: { $0.isLetter || $0.isNumber }) { tokens.append((.phrase(phrase), column)) }
                index = end + 1
            } else {
                var end = index
                while end < characters.count, !characters[end].isWhitespace, !"()\"".contains(characters[end]) { end += 1 }
                var word = String(characters[index..<end])
                index = end
                switch word {
                case "OR": tokens.append((.or, column))
                case "AND": tokens.append((.and, column))
                case "NOT": tokens.append((.not, column))
                default:
                    if word.hasPrefix("-"), word.count > 1 {
                        tokens.append((.not, column))
                        word.removeFirst()
                    }
                    let prefix = word.hasSuffix("*")
                    while word.hasSuffix("*") { word.removeLast() }
                    if word.contains(where: { $0.isLetter || $0.isNumber }) {
                        tokens.append((.term(word, prefix: prefix), column + (tokens.last?.token == .not && tokens.last?.column == column ? 1 : 0)))
                    } else if tokens.last?.token == .not, tokens.last?.column == column {
                        tokens.removeLast()
                    }
                }
            }
        }
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
        return parts.count == 1 ? parts[0] : .any(parts)
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
                return try joined(wanted, unwanted, column: start)
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
        return try joined(wanted, unwanted, column: start)
    }

    private func joined(_ wanted: [SearchExpression], _ unwanted: [SearchExpression], column: Int) throws(Problem) -> SearchExpression {
        guard !wanted.isEmpty else {
            throw Problem(column: column, reason: unwanted.isEmpty ? "nothing to look for" : "a query needs a word to find besides those it excludes")
        }
        return wanted.count == 1 && unwanted.isEmpty ? wanted[0] : .all(wanted, excluding: unwanted)
    }

    /// A word, a phrase, or a query in parentheses.
    private mutating func primary() throws(Problem) -> SearchExpression {
        let (token, column) = tokens[position]
        position += 1
        switch token {
        case let .term(word, prefix): return .term(word, prefix: prefix)
        case let .phrase(phrase): return .phrase(phrase)
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
