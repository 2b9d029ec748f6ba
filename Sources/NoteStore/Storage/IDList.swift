import GRDB

/// Ids given to SQL as `IN (?, ?, ...)` lists, a bounded number at a time, since SQLite
/// limits how many arguments one statement takes (https://sqlite.org/limits.html#max_variable_number).
enum IDList {
    static let chunkSize = 500

    /// Calls `body` with each chunk of `ids`, at most ``chunkSize`` of them, to be interpolated
    /// in an ``SQL`` literal as `IN \(chunk)`.
    static func forEachChunk(of ids: [String], _ body: (_ chunk: ArraySlice<String>) throws -> Void) throws {
        for start in stride(from: 0, to: ids.count, by: chunkSize) {
            try body(ids[start..<min(start + chunkSize, ids.count)])
        }
    }
}
