import GRDB

/// Ids given to SQL as `IN (?, ?, ...)` lists, a bounded number at a time, since SQLite
/// limits how many arguments one statement takes (https://sqlite.org/limits.html#max_variable_number).
enum IDList {
    static let chunkSize = 500

    /// Calls `body` with the `?, ?, ...` placeholders and the arguments of each chunk of `ids`.
    static func forEachChunk(
        of ids: [String], _ body: (_ placeholders: String, _ arguments: StatementArguments) throws -> Void
    ) throws {
        for start in stride(from: 0, to: ids.count, by: chunkSize) {
            let chunk = Array(ids[start..<min(start + chunkSize, ids.count)])
            try body(Array(repeating: "?", count: chunk.count).joined(separator: ","), StatementArguments(chunk))
        }
    }
}
