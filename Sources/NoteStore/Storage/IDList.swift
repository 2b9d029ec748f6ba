import Foundation
import GRDB

/// Ids given to SQL: as `IN (?, ?, ...)` lists, a bounded number at a time, since SQLite
/// limits how many arguments one statement takes (https://sqlite.org/limits.html#max_variable_number),
/// or as one JSON array for a statement prepared once (``json(_:)``).
enum IDList {
    static let chunkSize = 500

    /// Calls `body` with each chunk of `ids`, at most ``chunkSize`` of them, to be interpolated
    /// in an ``SQL`` literal as `IN \(chunk)`.
    static func forEachChunk(of ids: [String], _ body: (_ chunk: ArraySlice<String>) throws -> Void) throws {
        for start in stride(from: 0, to: ids.count, by: chunkSize) {
            try body(ids[start..<min(start + chunkSize, ids.count)])
        }
    }

    /// `ids` as a JSON array, for a statement prepared once that reads them with
    /// `IN (SELECT value FROM json_each(?))`, however many. A store's text of an id is
    /// hexadecimal digits and hyphens: nothing to escape.
    static func json(_ ids: [UUID]) -> String {
        "[" + ids.map { "\"\($0.storeString)\"" }.joined(separator: ",") + "]"
    }
}
