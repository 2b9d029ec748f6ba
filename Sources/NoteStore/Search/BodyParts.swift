import Foundation
import GRDB

/// A long body is indexed in parts, so that an edit of a few lines writes the entries of the
/// few parts it changed rather than those of the whole text again (a body of 10 MB has ten
/// million trigrams and two million words, and FTS5 takes the old text whole to remove its
/// entry).
///
/// A body of ``threshold`` bytes or more is parted: the item's entries in the word index
/// (`item_fts`) and the trigram index hold its name alone, and each part has an entry of its
/// own in `item_part_fts` and `item_part_trigram`, keyed by the part's rowid in `body_part`
/// (the item's rowid, and where the part's text is in the body). Whether a body is parted
/// depends on its length alone (``isParted(_:)``): what an entry holds is known from the text
/// it was made from, as removing it needs.
///
/// Parts are runs of whole lines, cut where the content says (``ranges(of:)``): a cut comes
/// at the end of the line in which a rolling hash of the last 64 bytes meets a mark, so an
/// edit moves the cuts of its own part at most, and the parts after it keep their text. Each
/// part's entry also holds the first lines of the next part (``overlapBytes`` of them at
/// least, blank lines and all), so that a phrase over a cut is found. A search takes a parted note as
/// matching when its name and parts, taken together, do (``SearchPlan``): each word may be in
/// another part.
///
/// Derived, as the trigram index: never synced, and left out of baselines, which hold each
/// item's entry in the word index whole, as every build reads them (``indexWhole(_:)``).
enum BodyParts {
    static let table = "body_part"
    static let wordTable = "item_part_fts"
    static let trigramTable = "item_part_trigram"
    /// The fts5vocab table over `item_part_trigram`: one row a trigram.
    static let trigramVocabulary = "item_part_trigram_term"

    /// Bodies of this many bytes or more are indexed in parts.
    static let threshold = 512 << 10
    /// A cut is wanted where the 16 high bits of the rolling hash are zero: a part of about
    /// 64 KiB on average.
    static let cutMask: UInt64 = 0xFFFF_0000_0000_0000
    /// Past this many bytes, a part ends at the end of its line whatever the hash says.
    static let maximumBytes = 256 << 10
    /// The least of the next part's text, in whole lines, that a part's entry also holds:
    /// about forty words, what a phrase over the cut may reach into.
    static let overlapBytes = 256

    /// Whether a body is indexed in parts.
    static func isParted(_ body: String?) -> Bool {
        (body?.utf8.count ?? 0) >= threshold
    }

    /// The text of `body` that the item's own entries hold: none when the body is parted.
    static func itemText(_ body: String?) -> String? {
        isParted(body) ? "" : body
    }

    static func create(_ db: Database) throws {
        try db.execute(
            sql: """
                CREATE TABLE \(table) (
                    id INTEGER PRIMARY KEY,
                    item INTEGER NOT NULL,
                    start INTEGER NOT NULL CHECK (start >= 0),
                    length INTEGER NOT NULL CHECK (length > 0)
                );
                CREATE INDEX body_part_on_item ON \(table)(item);
                CREATE VIRTUAL TABLE \(wordTable) USING fts5(
                    name, body,
                    tokenize = 'unicode61 remove_diacritics 2',
                    prefix = '2 3'
                );
                CREATE VIRTUAL TABLE \(trigramTable) USING fts5(
                    name, body, content = '', tokenize = 'trigram', detail = 'none'
                );
                CREATE VIRTUAL TABLE \(trigramVocabulary) USING fts5vocab(\(trigramTable), row);
                """)
        try SearchIndex.setHashSize(of: wordTable, db)
        try SearchIndex.setHashSize(of: trigramTable, db)
    }

    /// Whether the store has the tables of parts (a store opening migrates to them after the
    /// trigram index, which its migration builds without them).
    static func exist(_ db: Database) throws -> Bool {
        try db.tableExists(table)
    }

    // MARK: Cuts

    /// The byte ranges of the entries of the parts of `body`, in order: each part's lines and
    /// the first lines of the next part (``overlapBytes``). Together, the parts are the body.
    static func ranges(of body: String) -> [Range<Int>] {
        var body = body
        return body.withUTF8 { ranges(of: $0) }
    }

    static func ranges(of bytes: UnsafeBufferPointer<UInt8>) -> [Range<Int>] {
        // The parts themselves, then each with the next one's first line.
        var cuts: [Int] = []
        gear.withUnsafeBufferPointer { gear in
            var hash: UInt64 = 0
            var wanted = false
            var start = 0
            for index in bytes.indices {
                let byte = bytes[index]
                hash = (hash &<< 1) &+ gear[Int(byte)]
                if hash & cutMask == 0 { wanted = true }
                if byte == 0x0A, wanted || index + 1 - start >= maximumBytes, index + 1 < bytes.count {
                    cuts.append(index + 1)
                    start = index + 1
                    wanted = false
                }
            }
        }
        let bounds = [0] + cuts + [bytes.count]
        return (0..<(bounds.count - 1)).map { part in
            var end = bounds[part + 1]
            if part + 2 < bounds.count {
                // The next part's first lines, up to the end of the one that reaches the
                // least of the overlap.
                let next = bounds[part + 2]
                let reach = min(end + overlapBytes, next)
                while end < reach {
                    while end < next, bytes[end] != 0x0A { end += 1 }
                    if end < next { end += 1 }
                }
            }
            return bounds[part]..<end
        }
    }

    /// A number for each byte value, fixed forever: the cuts of a text must not change from
    /// one build to the next. Made by splitmix64 from a constant seed.
    private static let gear: [UInt64] = {
        var state: UInt64 = 0x6E6F_7465_7370_6172
        return (0..<256).map { _ in
            state &+= 0x9E37_79B9_7F4A_7C15
            var z = state
            z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
            z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
            return z ^ (z >> 31)
        }
    }()

    // MARK: Entries

    /// A part's row.
    struct Part {
        var id: Int64
        var range: Range<Int>
    }

    /// The parts the index holds of the item `rowid`, in the order of the body.
    static func parts(of rowid: Int64, _ db: Database) throws -> [Part] {
        // A cached statement with a placeholder: it runs for every parted body a save changes.
        let rows = try Row.fetchAll(
            db.cachedStatement(sql: "SELECT id, start, length FROM \(table) WHERE item = ? ORDER BY start"),
            arguments: [rowid])
        return rows.map { Part(id: $0["id"], range: $0["start"]..<($0["start"] + $0["length"] as Int)) }
    }

    /// Writes the parts of the item `rowid` whose body goes from `old` (nil: it had none
    /// parted) to `new` (nil: none parted now): the entries of parts whose text is unchanged
    /// stay (their place in the body updated), the others go and come. With `trigrams`, the
    /// trigram index's entries too (a build in progress has reached the item).
    ///
    /// A part is unchanged when the new body has its bytes where it was, or moved by the
    /// difference of the bodies' lengths (after an edit): compared, not hashed, so that an
    /// edit of one line costs about a comparison of the two bodies.
    static func write(item rowid: Int64, from old: String?, to new: String?, trigrams: Bool, _ db: Database) throws {
        var old = old ?? ""
        var new = new ?? ""
        let held = old.isEmpty ? [] : try parts(of: rowid, db)
        let wanted = new.isEmpty ? [] : ranges(of: new)
        try old.withUTF8 { oldBytes in
            try new.withUTF8 { newBytes in
                // The parts held, by where they start.
                var byStart: [Int: Part] = [:]
                for part in held { byStart[part.range.lowerBound] = part }
                let shift = newBytes.count - oldBytes.count
                func same(_ part: Part, _ range: Range<Int>) -> Bool {
                    part.range.count == range.count && part.range.upperBound <= oldBytes.count
                        && memcmp(
                            oldBytes.baseAddress! + part.range.lowerBound, newBytes.baseAddress! + range.lowerBound,
                            range.count) == 0
                }
                var kept: [(Part, Range<Int>)] = []
                var added: [Range<Int>] = []
                for range in wanted {
                    let found = [range.lowerBound, range.lowerBound - shift].lazy.compactMap { byStart[$0] }
                        .first { same($0, range) }
                    if let found {
                        byStart[found.range.lowerBound] = nil
                        kept.append((found, range))
                    } else {
                        added.append(range)
                    }
                }
                let gone = byStart.values.sorted { $0.id < $1.id }
                let removeWords = try db.cachedStatement(sql: "DELETE FROM \(wordTable) WHERE rowid = ?")
                let removeRow = try db.cachedStatement(sql: "DELETE FROM \(table) WHERE id = ?")
                for part in gone {
                    try removeWords.execute(arguments: [part.id])
                    if trigrams {
                        try TrigramIndex.remove(
                            rowid: part.id, name: "", body: text(oldBytes, part.range), in: trigramTable, db)
                    }
                    try removeRow.execute(arguments: [part.id])
                }
                let move = try db.cachedStatement(sql: "UPDATE \(table) SET start = ? WHERE id = ?")
                for (part, range) in kept where part.range.lowerBound != range.lowerBound {
                    try move.execute(arguments: [range.lowerBound, part.id])
                }
                let insertRow = try db.cachedStatement(
                    sql: "INSERT INTO \(table) (item, start, length) VALUES (?, ?, ?)")
                let addWords = try db.cachedStatement(
                    sql: "INSERT INTO \(wordTable) (rowid, name, body) VALUES (?, '', ?)")
                for range in added {
                    try insertRow.execute(arguments: [rowid, range.lowerBound, range.count])
                    let id = db.lastInsertedRowID
                    let partText = text(newBytes, range)
                    try addWords.execute(arguments: [id, partText])
                    if trigrams { try TrigramIndex.add(rowid: id, name: "", body: partText, in: trigramTable, db) }
                }
            }
        }
    }

    /// Adds the trigram entries of the parts the index holds of the item `rowid`, whose body
    /// is `body`: a build of the trigram index reaching the item.
    static func addTrigrams(of rowid: Int64, body: String, _ db: Database) throws {
        var body = body
        let parts = try parts(of: rowid, db)
        try body.withUTF8 { bytes in
            for part in parts where part.range.upperBound <= bytes.count {
                try TrigramIndex.add(rowid: part.id, name: "", body: text(bytes, part.range), in: trigramTable, db)
            }
        }
    }

    private static func text(_ bytes: UnsafeBufferPointer<UInt8>, _ range: Range<Int>) -> String {
        String(decoding: UnsafeBufferPointer(rebasing: bytes[range]), as: UTF8.self)
    }

    // MARK: Whole

    /// Writes the entry of each parted body whole in the word index, and removes every part:
    /// what a baseline holds, and what `check` compares with the items.
    static func indexWhole(_ db: Database) throws {
        guard try exist(db) else { return }
        let remove = try db.cachedStatement(
            sql: "INSERT INTO item_fts(item_fts, rowid, name, body) VALUES ('delete', ?, ?, '')")
        let add = try db.cachedStatement(sql: "INSERT INTO item_fts(rowid, name, body) VALUES (?, ?, ?)")
        let items = try Row.fetchAll(
            db,
            sql: """
                SELECT rowid, name, body FROM item
                WHERE rowid IN (SELECT DISTINCT item FROM \(table)) ORDER BY rowid
                """)
        for item in items {
            try remove.execute(arguments: [item["rowid"], item["name"]])
            try add.execute(arguments: [item["rowid"], item["name"], item["body"]])
        }
    }

    /// Parts every body that ``isParted(_:)`` says is, from entries that hold them whole in
    /// the word index, and, with `trigrams`, in the trigram index up to where a build has
    /// reached: the migration that adds parts (a store made from a baseline too). Without
    /// `trigrams`, the trigram index is the caller's to build.
    static func partLongBodies(trigrams: Bool = true, _ db: Database) throws {
        let through = try TrigramIndex.builtThrough(db) ?? Int64.max
        let trigramsExist = try trigrams && db.tableExists(TrigramIndex.table)
        let remove = try db.cachedStatement(
            sql: "INSERT INTO item_fts(item_fts, rowid, name, body) VALUES ('delete', ?, ?, ?)")
        let add = try db.cachedStatement(sql: "INSERT INTO item_fts(rowid, name, body) VALUES (?, ?, '')")
        let rowids = try Int64.fetchAll(
            db, sql: "SELECT rowid FROM item WHERE length(CAST(body AS BLOB)) >= ? ORDER BY rowid",
            arguments: [threshold])
        for rowid in rowids {
            guard let row = try Row.fetchOne(db, sql: "SELECT name, body FROM item WHERE rowid = ?", arguments: [rowid])
            else { continue }
            let name: String = row["name"]
            let body: String = row["body"]
            try remove.execute(arguments: [rowid, name, body])
            try add.execute(arguments: [rowid, name])
            let trigrams = trigramsExist && rowid <= through
            if trigrams {
                try TrigramIndex.remove(rowid: rowid, name: name, body: body, db)
                try TrigramIndex.add(rowid: rowid, name: name, body: "", db)
            }
            try write(item: rowid, from: nil, to: body, trigrams: trigrams, db)
        }
    }

    /// Removes every part, and their entries.
    static func removeAll(_ db: Database) throws {
        try db.execute(
            sql: """
                DELETE FROM \(table);
                DELETE FROM \(wordTable);
                INSERT INTO \(trigramTable)(\(trigramTable)) VALUES ('delete-all');
                """)
    }

    // MARK: Check

    /// Whether the parts are those of the items: each parted body's parts where
    /// ``ranges(of:)`` cuts it, each entry of the word index with the part's text (FTS5's
    /// check of its index against it), none for another item; and, for the trigram index,
    /// an entry for each part of an item a build has reached, and none other.
    static func matchItems(_ db: Database) throws -> Bool {
        guard try exist(db) else { return true }
        do {
            try db.execute(sql: "INSERT INTO \(wordTable)(\(wordTable), rank) VALUES ('integrity-check', 1)")
            try db.execute(sql: "INSERT INTO \(trigramTable)(\(trigramTable), rank) VALUES ('integrity-check', 0)")
        } catch {
            return false
        }
        let strays =
            try Int.fetchOne(
                db,
                sql: """
                    SELECT (SELECT COUNT(*) FROM \(table) WHERE item NOT IN \
                    (SELECT rowid FROM item WHERE length(CAST(body AS BLOB)) >= \(threshold))) \
                    + (SELECT COUNT(*) FROM \(wordTable)_content WHERE id NOT IN (SELECT id FROM \(table)))
                    """) ?? 0
        guard strays == 0 else { return false }
        let texts = try db.makeStatement(sql: "SELECT body FROM \(wordTable) WHERE rowid = ?")
        let items = try Row.fetchCursor(
            db, sql: "SELECT rowid, body FROM item WHERE length(CAST(body AS BLOB)) >= ? ORDER BY rowid",
            arguments: [threshold])
        while let item = try items.next() {
            var body: String = item["body"]
            let rowid: Int64 = item["rowid"]
            let held = try parts(of: rowid, db)
            guard held.map(\.range) == ranges(of: body) else { return false }
            let same = try body.withUTF8 { bytes in
                try held.allSatisfy { part in
                    try String.fetchOne(texts, arguments: [part.id]).map {
                        $0.utf8.elementsEqual(UnsafeBufferPointer(rebasing: bytes[part.range]))
                    } ?? false
                }
            }
            guard same else { return false }
        }
        let through = try TrigramIndex.builtThrough(db) ?? Int64.max
        let reached =
            try SQLRequest<Int>(
                literal: "SELECT COUNT(*) FROM \(sql: table) WHERE item <= \(through)"
            ).fetchOne(db) ?? 0
        let entries = try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM \(trigramTable)_docsize") ?? 0
        let trigramStrays =
            try SQLRequest<Int>(
                literal: """
                    SELECT COUNT(*) FROM \(sql: trigramTable)_docsize
                    WHERE id NOT IN (SELECT id FROM \(sql: table) WHERE item <= \(through))
                    """
            ).fetchOne(db) ?? 0
        return reached == entries && trigramStrays == 0
    }
}
