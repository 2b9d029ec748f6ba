import Foundation
import GRDB
import GRDBSQLite

/// The check of a baseline's history (model version 8): each row of `history_line` is a line
/// the store can read (``HistoryLine``), of an id of 16 bytes, with at least one version, its
/// count and oldest stamp those of its versions; and each cut of history is a version of its
/// line. SQLite's checks see only that rows are well formed: the blobs are read here, once,
/// on SQLite's own calls and keeping nothing, so that a crafted one is refused before any of
/// the baseline is used.
enum HistoryLineCheck {
    /// The table of lines, whose index is checked beside this check, on the same connection.
    static let table = "history_line"

    /// The first problem found, or nil.
    static func problem(_ db: Database) throws -> String? {
        // Each cut of an id of 16 bytes, a property's code and a stamp of 24, once: its key,
        // compared as SQLite compares it, would keep an id as text apart from the same bytes.
        var cuts: [Data: Data] = [:]
        let cutRows = try Row.fetchAll(
            db,
            sql: """
                SELECT object, property, stamp FROM history_cut
                WHERE typeof(object) = 'blob' AND length(object) = 16 \
                AND typeof(property) = 'integer' AND property BETWEEN 0 AND 1
                    AND typeof(stamp) = 'blob' AND length(stamp) = \(HistoryEncoding.stampSize)
                """)
        for row in cutRows { cuts[(row["object"] as Data) + [UInt8(row["property"] as Int)]] = row["stamp"] }
        guard cuts.count == cutRows.count,
            try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM history_cut") == cutRows.count
        else {
            return "a cut of history breaks the store's rules"
        }
        let statement = try db.makeStatement(sql: "SELECT object, property, versions, oldest, line FROM history_line")
        let lines = statement.sqliteStatement
        defer {
            sqlite3_reset(lines)
            withExtendedLifetime(statement) {}
        }
        var cutsFound = 0
        while try RawStatement.step(lines) {
            guard let object = blob(lines, 0), object.count == 16, sqlite3_column_type(lines, 1) == SQLITE_INTEGER,
                let property = HistoryEncoding.property(Int(sqlite3_column_int64(lines, 1))),
                sqlite3_column_type(lines, 2) == SQLITE_INTEGER, let oldest = blob(lines, 3), let line = blob(lines, 4),
                let summary = HistoryLine.summary(of: line), let first = summary.oldest,
                sqlite3_column_int64(lines, 2) == Int64(summary.count), isStamp(oldest, first)
            else { return "a line of history breaks the store's rules" }
            guard !cuts.isEmpty else { continue }
            let key = Data(object) + [UInt8(HistoryEncoding.code(of: property))]
            guard let cut = cuts[key] else { continue }
            guard let id = HistoryEncoding.id(Data(object)), let stamp = HistoryEncoding.stamp(cut),
                let read = HistoryLine(object: id, property: property, decoding: Data(line)),
                read.index(of: stamp) != nil
            else { return "a cut of history breaks the store's rules" }
            cutsFound += 1
        }
        return cutsFound == cuts.count ? nil : "a cut of history breaks the store's rules"
    }

    /// Whether `bytes` are the stamp's 24 bytes (``HistoryEncoding``), compared where they lie.
    private static func isStamp(_ bytes: UnsafeRawBufferPointer, _ stamp: ChangeStamp) -> Bool {
        guard bytes.count == HistoryEncoding.stampSize else { return false }
        var clock: UInt64 = 0
        for index in 0..<8 { clock = clock << 8 | UInt64(bytes[index]) }
        return clock == stamp.clock && withUnsafeBytes(of: stamp.device.uuid) { $0.elementsEqual(bytes[8..<24]) }
    }

    /// The bytes of a blob column, valid until the row changes; nil when it is not a blob.
    private static func blob(_ row: OpaquePointer, _ column: Int32) -> UnsafeRawBufferPointer? {
        guard sqlite3_column_type(row, column) == SQLITE_BLOB else { return nil }
        let count = Int(sqlite3_column_bytes(row, column))
        guard count > 0, let start = sqlite3_column_blob(row, column) else {
            return count == 0 ? UnsafeRawBufferPointer(start: nil, count: 0) : nil
        }
        return UnsafeRawBufferPointer(start: start, count: count)
    }
}
