import Foundation
import GRDB

/// The check of a baseline's history (model version 8): each row of `history_line` is a line
/// the store can read (``HistoryLine``), of an id in the store's form, with at least one
/// version, its count and oldest stamp those of its versions; and each cut of history is a
/// version of its line. SQLite's checks see only that rows are well formed: the blobs are read
/// here, once, so that a crafted one is refused before any of the baseline is used.
enum HistoryLineCheck {
    /// The first problem found, or nil.
    static func problem(_ db: Database) throws -> String? {
        var cuts: [Data: Data] = [:]
        for row in try Row.fetchAll(db, sql: "SELECT object, property, stamp FROM history_cut") {
            guard let object = row[0] as Data?, let property = row[1] as Int64?, let stamp = row[2] as Data? else {
                return "a cut of history breaks the store's rules"
            }
            cuts[object + [UInt8(truncatingIfNeeded: property)]] = stamp
        }
        let lines = try Row.fetchCursor(
            db, sql: "SELECT typeof(object), object, typeof(property), property, typeof(versions), versions, oldest, line FROM history_line")
        var cutsFound = 0
        while let row = try lines.next() {
            guard (row[0] as String) == "blob", let object = (row[1] as Data?).flatMap(HistoryEncoding.id),
                (row[2] as String) == "integer", let property = HistoryEncoding.property(row[3]), (row[4] as String) == "integer",
                let blob = row[7] as Data?, let line = HistoryLine(object: object, property: property, decoding: blob),
                let oldest = line.entries.first?.stamp, (row[5] as Int64) == Int64(line.entries.count),
                (row[6] as Data?) == HistoryEncoding.bytes(of: oldest)
            else { return "a line of history breaks the store's rules" }
            if let cut = cuts[HistoryEncoding.bytes(of: object) + [UInt8(HistoryEncoding.code(of: property))]] {
                guard let stamp = HistoryEncoding.stamp(cut), cut.count == HistoryEncoding.stampSize, line.index(of: stamp) != nil else {
                    return "a cut of history breaks the store's rules"
                }
                cutsFound += 1
            }
        }
        return cutsFound == cuts.count ? nil : "a cut of history breaks the store's rules"
    }
}
