import GRDB
import GRDBSQLite

/// The FTS5 auxiliary function `note_snippet(item_fts, open, close)`: the best-matching line
/// of a row (``SnippetLine``), each match between `open` and `close`.
///
/// FTS5's own `snippet()` scores a window at every match against every other match, so its
/// time grows with the square of a row's matches (minutes for a note of a few megabytes full
/// of the searched word). This one reads the position of the first match in the body (in the
/// name when the body has none), tokenizes the text only up to the end of the window, and
/// marks the matches inside it: its time grows with the position of the first match, never
/// with their number, since the lines after the first match that compete are a bounded
/// number of tokens. See https://sqlite.org/fts5.html#custom_auxiliary_functions.
///
/// The text is read from the index's content table (`item`) with incremental blob I/O
/// (https://sqlite.org/c3ref/blob_open.html), a prefix at a time, rather than through
/// `xColumnText`, which loads the whole row: a body of 10 MB costs its first pages only.
enum SnippetFunction {
    static let name = "note_snippet"
    /// The table and columns the index is made from, in the index's column order.
    static let contentTable = "item"
    static let contentColumns = ["name", "body"]
    /// The first prefix read, in bytes; each further read is this many times longer.
    static let firstPrefixBytes = 16_384
    static let prefixGrowth = 8
    /// The most tokens an excerpt shows: a line of a wide terminal; narrower ones cut it.
    static let windowTokens: Int32 = 40
    /// The tokens after the first match whose lines compete for the best line.
    static let scanTokens: Int32 = 2_000
    /// The tokens before the first match read to find the start of its line.
    static let lineReachTokens: Int32 = 200
    /// The number of tokens shown before the first match when the text has them.
    static let leadingTokens: Int32 = 3

    /// The same function for the parts of long bodies (`note_part_snippet(item_part_fts, open,
    /// close)`, ``BodyParts``), whose text, a part of at most a few hundred kilobytes, the
    /// index holds: read whole, not from `item`.
    static let partName = "note_part_snippet"

    /// Makes `note_snippet` and `note_part_snippet` available on a connection.
    static func register(_ db: Database) {
        let api = FTS5.api(db)
        _ = api.pointee.xCreateFunction(
            UnsafeMutablePointer(mutating: api), name, nil, snippetEntryPoint, nil)
        _ = api.pointee.xCreateFunction(
            UnsafeMutablePointer(mutating: api), partName, partMark, snippetEntryPoint, nil)
    }

    /// The user data of `note_part_snippet`: any pointer that is not nil.
    private static var partMark: UnsafeMutableRawPointer? { UnsafeMutableRawPointer(bitPattern: 1) }
}

/// The C entry point FTS5 calls once per row.
private let snippetEntryPoint: fts5_extension_function = { api, fts, context, count, values in
    guard let api, let fts, let context else { return }
    guard count == 2, let values, let open = values[0], let close = values[1] else {
        sqlite3_result_error(context, "note_snippet takes two arguments: the opening and closing markers", -1)
        return
    }
    let markers = (SnippetFunction.text(of: open), SnippetFunction.text(of: close))
    do {
        // `note_part_snippet` reads the text from the index (its user data is not nil).
        let readsItems = api.pointee.xUserData(fts) == nil
        var row = SnippetRow(
            api: api.pointee, fts: fts, connection: readsItems ? sqlite3_context_db_handle(context) : nil)
        let excerpt = try row.excerpt(markers: markers)
        excerpt.withUnsafeBufferPointer { bytes in
            sqlite3_result_text(
                context, bytes.baseAddress.map { UnsafeRawPointer($0).assumingMemoryBound(to: CChar.self) },
                Int32(bytes.count), SQLITE_TRANSIENT_DESTRUCTOR)
        }
    } catch let failure as SnippetFailure {
        sqlite3_result_error_code(context, failure.code)
    } catch {
        sqlite3_result_error_code(context, SQLITE_ERROR)
    }
}

/// SQLite's `SQLITE_TRANSIENT`: SQLite copies the bytes before the call returns.
private let SQLITE_TRANSIENT_DESTRUCTOR = unsafeBitCast(-1, to: sqlite3_destructor_type.self)

private struct SnippetFailure: Error {
    let code: Int32
}

extension SnippetFunction {
    fileprivate static func text(of value: OpaquePointer) -> [UInt8] {
        guard let text = sqlite3_value_text(value) else { return [] }
        return Array(UnsafeBufferPointer(start: text, count: Int(sqlite3_value_bytes(value))))
    }
}

/// One row's matches, read through the FTS5 extension API.
private struct SnippetRow {
    let api: Fts5ExtensionApi
    let fts: OpaquePointer
    /// The connection whose `item` rows hold the text, read a prefix at a time; nil: the text
    /// is read through the index, whole.
    let connection: OpaquePointer?

    /// The excerpt as UTF-8 bytes: the best-matching line of the body (of the name when the
    /// body has no match), from a few tokens before its first match when it starts further in,
    /// at most ``SnippetFunction/windowTokens`` tokens of it.
    mutating func excerpt(markers: ([UInt8], [UInt8])) throws -> [UInt8] {
        let bodyColumn: Int32 = 1, nameColumn: Int32 = 0
        var column = bodyColumn
        var first = try firstMatch(in: bodyColumn)
        if first == nil {
            column = nameColumn
            first = try firstMatch(in: nameColumn)
        }
        guard let first else { return [] }
        var tokenCount: Int32 = 0
        try check(api.xColumnSize(fts, column, &tokenCount))
        // The lines looked at: from a little before the first match to a bounded number of
        // tokens after it, so that the time never grows with the number of matches.
        let horizon = min(tokenCount, first + SnippetFunction.scanTokens)
        let walk = (
            start: max(0, first - SnippetFunction.lineReachTokens),
            end: min(tokenCount, horizon + SnippetFunction.windowTokens)
        )
        let matches = try matchOffsets(in: column, below: horizon)
        return try withText(of: column, tokens: walk, closesText: walk.end >= tokenCount) { bytes, tokens in
            let line = SnippetLine(bytes: bytes, tokens: tokens, firstToken: walk.start, matches: matches)
            let window = line.window(leading: SnippetFunction.leadingTokens, length: SnippetFunction.windowTokens)
            let marked = try markedTokens(
                in: column, from: walk.start + Int32(window.start), to: walk.start + Int32(window.end))
            let opens = window.start == line.lineStart && (line.lineStart > 0 || walk.start == 0)
            let closes = window.end == line.lineEnd && (line.lineEnd < tokens.count || walk.end >= tokenCount)
            return SnippetText.assemble(
                bytes, tokens: Array(tokens[window.start..<window.end]), marked: marked, markers: markers,
                from: opens ? line.startByte(beforeToken: window.start) : nil,
                to: closes ? line.endByte(afterToken: window.end - 1) : nil)
        }
    }

    /// Calls `body` with the text of `column` (a prefix of it that holds the tokens and what
    /// follows them, or all of it) and the byte ranges of the tokens `tokens.start..<tokens.end`.
    private func withText<Result>(
        of column: Int32, tokens walk: (start: Int32, end: Int32), closesText: Bool,
        _ body: (UnsafeBufferPointer<UInt8>, [Range<Int>]) throws -> Result
    ) throws -> Result {
        if let text = ColumnPrefixReader(connection: connection, rowid: api.xRowid(fts), column: column) {
            var length = SnippetFunction.firstPrefixBytes
            while true {
                let prefix = try text.read(length)
                let tokens = try prefix.withUnsafeBufferPointer {
                    try tokenRanges(of: $0, from: walk.start, to: walk.end)
                }
                // A prefix serves when it holds every token looked at, each followed by at
                // least one whole character (so that a cut cannot have shortened it), and, when
                // they close the text, the rest of the text.
                let isWhole = prefix.count == text.byteCount
                let serves =
                    tokens.count == Int(walk.end - walk.start) && (tokens.last?.upperBound ?? 0) + 4 <= prefix.count
                if isWhole || (serves && !closesText) {
                    return try prefix.withUnsafeBufferPointer { try body($0, tokens) }
                }
                length = closesText ? text.byteCount : length * SnippetFunction.prefixGrowth
            }
        }
        var text: UnsafePointer<CChar>?
        var byteCount: Int32 = 0
        try check(api.xColumnText(fts, column, &text, &byteCount))
        guard let text else { return try body(UnsafeBufferPointer(start: nil, count: 0), []) }
        let bytes = UnsafeBufferPointer(
            start: UnsafeRawPointer(text).assumingMemoryBound(to: UInt8.self), count: Int(byteCount))
        return try body(bytes, try tokenRanges(of: bytes, from: walk.start, to: walk.end))
    }

    /// The phrase and token offset of each match in `column` below the token `horizon`.
    private func matchOffsets(in column: Int32, below horizon: Int32) throws -> [(phrase: Int32, offset: Int32)] {
        var matches: [(phrase: Int32, offset: Int32)] = []
        for phrase in 0..<api.xPhraseCount(fts) {
            try forEachMatch(of: phrase, in: column) { offset in
                guard offset < horizon else { return false }
                matches.append((phrase, offset))
                return true
            }
        }
        return matches
    }

    /// The token offset of the first match of any phrase in `column`, or nil.
    private func firstMatch(in column: Int32) throws -> Int32? {
        var first: Int32?
        for phrase in 0..<api.xPhraseCount(fts) {
            try forEachMatch(of: phrase, in: column) { offset in
                first = min(first ?? offset, offset)
                return false
            }
        }
        return first
    }

    /// For each token of `start..<end`, the number of the match it is part of (from 1), or 0.
    private func markedTokens(in column: Int32, from start: Int32, to end: Int32) throws -> [Int] {
        var marked = [Int](repeating: 0, count: Int(max(0, end - start)))
        var match = 0
        for phrase in 0..<api.xPhraseCount(fts) {
            let size = max(1, api.xPhraseSize(fts, phrase))
            try forEachMatch(of: phrase, in: column) { offset in
                guard offset < end else { return false }
                match += 1
                for token in max(offset, start)..<max(start, min(offset + size, end)) {
                    marked[Int(token - start)] = match
                }
                return true
            }
        }
        return marked
    }

    /// Calls `body` with the token offset of each match of `phrase` in `column`, in order,
    /// until it returns false. Matches are sorted by column, then offset.
    private func forEachMatch(of phrase: Int32, in column: Int32, _ body: (Int32) -> Bool) throws {
        var iterator = Fts5PhraseIter()
        var matchColumn: Int32 = -1, offset: Int32 = -1
        try check(api.xPhraseFirst(fts, phrase, &iterator, &matchColumn, &offset))
        while matchColumn >= 0, matchColumn <= column {
            if matchColumn == column, !body(offset) { return }
            api.xPhraseNext(fts, &iterator, &matchColumn, &offset)
        }
    }

    /// The byte ranges of the tokens `start..<end` of a text, found by tokenizing it only
    /// as far as the last of them.
    private func tokenRanges(of text: UnsafeBufferPointer<UInt8>, from start: Int32, to end: Int32) throws -> [Range<
        Int
    >] {
        guard let base = text.baseAddress, !text.isEmpty else { return [] }
        var walk = TokenWalk(start: start, end: end)
        let characters = UnsafeRawPointer(base).assumingMemoryBound(to: CChar.self)
        let code = withUnsafeMutablePointer(to: &walk) { pointer in
            api.xTokenize(fts, characters, Int32(text.count), pointer) { context, flags, _, _, startByte, endByte in
                let walk = context!.assumingMemoryBound(to: TokenWalk.self)
                return walk.pointee.take(flags: flags, Int(startByte)..<Int(endByte))
            }
        }
        if code != SQLITE_OK && code != SQLITE_DONE { throw SnippetFailure(code: code) }
        return walk.ranges
    }

    private func check(_ code: Int32) throws {
        guard code == SQLITE_OK else { throw SnippetFailure(code: code) }
    }
}

/// Reads a prefix of one column of the content table, without loading the rest of the row.
private struct ColumnPrefixReader: ~Copyable {
    let blob: OpaquePointer
    let byteCount: Int

    /// Nil when the column cannot be opened this way (a NULL value, for one).
    init?(connection: OpaquePointer?, rowid: Int64, column: Int32) {
        guard let connection, SnippetFunction.contentColumns.indices.contains(Int(column)) else { return nil }
        var blob: OpaquePointer?
        let code = sqlite3_blob_open(
            connection, "main", SnippetFunction.contentTable, SnippetFunction.contentColumns[Int(column)], rowid, 0,
            &blob)
        guard code == SQLITE_OK, let blob else {
            sqlite3_blob_close(blob)
            return nil
        }
        self.blob = blob
        byteCount = Int(sqlite3_blob_bytes(blob))
    }

    deinit { sqlite3_blob_close(blob) }

    /// The first `length` bytes (all of them when there are fewer).
    func read(_ length: Int) throws -> [UInt8] {
        let count = min(length, byteCount)
        var bytes = [UInt8](repeating: 0, count: count)
        let code = bytes.withUnsafeMutableBytes { sqlite3_blob_read(blob, $0.baseAddress, Int32(count), 0) }
        guard code == SQLITE_OK else { throw SnippetFailure(code: code) }
        return bytes
    }
}

/// The state of a tokenization that stops after the window's last token.
private struct TokenWalk {
    let start: Int32
    let end: Int32
    var index: Int32 = 0
    var ranges: [Range<Int>] = []

    mutating func take(flags: Int32, _ range: Range<Int>) -> Int32 {
        if flags & FTS5_TOKEN_COLOCATED != 0 { return SQLITE_OK }
        defer { index += 1 }
        if index >= start { ranges.append(range) }
        return index + 1 >= end ? SQLITE_DONE : SQLITE_OK
    }
}

/// Puts an excerpt together from the text and its tokens.
enum SnippetText {
    static let ellipsis = Array("…".utf8)

    /// The text of the tokens (from the byte `from` when given, else from the first token
    /// after an ellipsis; to the byte `to` when given, else to the last token and an
    /// ellipsis), the tokens of each match between markers. `marked` gives each token's match
    /// number, 0 for none.
    static func assemble(
        _ bytes: UnsafeBufferPointer<UInt8>, tokens: [Range<Int>], marked: [Int],
        markers: ([UInt8], [UInt8]), from lowerBound: Int?, to upperBound: Int?
    ) -> [UInt8] {
        guard let firstToken = tokens.first, let lastToken = tokens.last else { return [] }
        func match(_ index: Int) -> Int { index >= 0 && index < marked.count ? marked[index] : 0 }
        var output: [UInt8] = lowerBound == nil ? ellipsis : []
        var position = lowerBound ?? firstToken.lowerBound
        for (index, token) in tokens.enumerated() {
            let number = match(index)
            let opensRun = number != 0 && match(index - 1) != number
            let closesRun = number != 0 && (index + 1 >= tokens.count || match(index + 1) != number)
            output.append(contentsOf: bytes[position..<token.lowerBound])
            if opensRun { output.append(contentsOf: markers.0) }
            output.append(contentsOf: bytes[token])
            if closesRun { output.append(contentsOf: markers.1) }
            position = token.upperBound
        }
        if let upperBound {
            output.append(contentsOf: bytes[position..<max(position, upperBound)])
        } else {
            output.append(contentsOf: bytes[position..<lastToken.upperBound])
            output.append(contentsOf: ellipsis)
        }
        return output
    }
}
