import Foundation
import GRDB

extension StoreSchema {
    /// Version 8: history in lines (docs/sync-format.md, "History in the store"). The rows of
    /// `history`, one per version, become rows of `history_line`, one per property of an
    /// object, its versions in one blob (``HistoryLine``), with how many there are and the
    /// oldest stamp, which a baseline's retention looks for. The same versions, texts, heads
    /// and contexts: a version kept in the item stays so, a delta stays a delta. A row that
    /// is not one the store writes (a value of another type, an id, a stamp, bases or a code
    /// it cannot read, a size or depth out of range, a delta without content or against an
    /// only base it does not have) is left out: only a crafted file holds one. The table has
    /// rowids, with its key as a unique index: a line is often longer than a table without
    /// rowids keeps in its page.
    static func addHistoryLines(_ db: Database) throws {
        try db.execute(
            sql: """
                CREATE TABLE history_line (
                    id INTEGER PRIMARY KEY,
                    object BLOB NOT NULL,
                    property INTEGER NOT NULL CHECK (property BETWEEN 0 AND 1),
                    versions INTEGER NOT NULL,
                    oldest BLOB NOT NULL,
                    line BLOB NOT NULL
                );
                CREATE UNIQUE INDEX history_line_key ON history_line(object, property);
                """)
        // Only rows of the types the store writes: a baseline of model 6 or 7, which is
        // upgraded so, is untrusted.
        let rows = try Row.fetchCursor(
            db,
            SQLRequest(
                literal: """
                    SELECT object, property, stamp, origin, bases, restored, context, head, size, \
                    delta_of, depth, content, from_merge
                    FROM history
                    WHERE typeof(object) = 'blob' AND typeof(property) = 'integer' \
                    AND typeof(stamp) = 'blob' AND typeof(origin) = 'integer'
                        AND typeof(bases) IN ('blob', 'null') AND typeof(restored) IN ('blob', 'null') \
                    AND typeof(context) IN ('text', 'null')
                        AND typeof(head) = 'integer' AND typeof(size) = 'integer' AND size BETWEEN 0 AND 4294967295
                        AND typeof(delta_of) IN ('blob', 'null') AND typeof(depth) = 'integer' \
                    AND depth BETWEEN 0 AND \(VersionStorage.maximumDepth)
                        AND typeof(content) IN ('blob', 'null') AND (content IS NOT NULL OR delta_of IS NULL) \
                    AND typeof(from_merge) = 'integer'
                    ORDER BY object, property, stamp
                    """))
        var line: HistoryLine?
        while let row = try rows.next() {
            guard let object = (row["object"] as Data?).flatMap(HistoryEncoding.id),
                let property = HistoryEncoding.property(row["property"]),
                let stampBytes = row["stamp"] as Data?, stampBytes.count == HistoryEncoding.stampSize,
                let stamp = HistoryEncoding.stamp(stampBytes), let origin = HistoryEncoding.origin(row["origin"])
            else { continue }
            let bases: [ChangeStamp]?
            if let bytes = row["bases"] as Data? {
                guard let stamps = HistoryEncoding.stamps(bytes) else { continue }
                bases = Array(Set(stamps)).sorted()
            } else {
                bases = nil
            }
            var deltaOf: ChangeStamp?
            if let bytes = row["delta_of"] as Data? {
                if bytes.isEmpty {
                    guard let bases, bases.count == 1 else { continue }
                    deltaOf = bases[0]
                } else {
                    guard bytes.count == HistoryEncoding.stampSize, let stamp = HistoryEncoding.stamp(bytes) else {
                        continue
                    }
                    deltaOf = stamp
                }
            }
            let entry = HistoryLine.Entry(
                stamp: stamp, origin: origin, bases: bases,
                restored: (row["restored"] as Data?).flatMap { HistoryEncoding.stamp($0) }, context: row["context"],
                isHead: row["head"], size: row["size"], deltaOf: deltaOf, depth: row["depth"], content: row["content"],
                fromMerge: row["from_merge"])
            // Contents stay in their lines: `history_text` comes with a later migration, and
            // the next write of a line keeps its long contents apart.
            if let current = line, current.object != object || current.property != property {
                try VersionStorage.write(current, keepingContentsInLine: true, db)
                line = nil
            }
            if line == nil { line = HistoryLine(object: object, property: property) }
            line?.insert(entry)
        }
        if let line { try VersionStorage.write(line, keepingContentsInLine: true, db) }
        try db.execute(
            sql: """
                DROP TABLE history;
                UPDATE metadata SET value = '8' WHERE key = 'model_version';
                """)
    }
}
