import Foundation
import GRDB
import NoteFiles

/// The trigram index `item_trigram`, beside the word index `item_fts`: it finds any run of
/// three characters or more, so text of scripts written without spaces between words (Chinese,
/// Japanese, Thai...) and parts of words are found.
///
/// An FTS5 table with the trigram tokenizer (https://sqlite.org/fts5.html#the_trigram_tokenizer),
/// contentless (`content=''`) and without positions (`detail='none'`): it holds, for each
/// trigram, the items whose name or body has it, and neither a copy of the text nor where in
/// it each trigram is. So a term is looked for as the items that hold every one of its
/// trigrams (``trigrams(of:)``), and the text of those items is read to confirm it
/// (``containsFunction``, ``SearchPlan``). With positions, the index was four fifths of the
/// size of a store of 100,000 notes and took twice as long to write; without them it is a
/// fifth of it (docs/benchmarks.md). Its rowids are the items' rowids. It is derived: written
/// in the transaction of every save and import, with the word index (``SearchIndex/Batch``),
/// never synced, left out of baselines, and built again by `notes check --repair`.
///
/// The tokenizer of SQLite 3.40 folds case but not accents, so the text is folded before it is
/// indexed, as a query is (``folded(_:)``): accents go and `ß` becomes `ss`. Every text is
/// indexed with two characters after it that no text holds (``padding``), so that every
/// character of a text begins a trigram: a term of one or two characters, which no trigram
/// query finds, is looked for among the trigrams it begins (``expansion(of:_:)``).
///
/// A store that gets the index with many items, as one made from a baseline does, builds it
/// a part at a time rather than at once (``build(items:_:)``, by `notes watch` and
/// `notes check --repair`): until it is whole, it holds the entries of the items up to a rowid
/// (``builtThrough(_:)``) and no other, saves keep those up to date and leave the rest to the
/// build, and searches read the text of the rest (``SearchPlan``).
enum TrigramIndex {
    static let table = "item_trigram"
    /// The fts5vocab table over `item_trigram`: one row a trigram.
    static let vocabulary = "item_trigram_term"
    /// What follows each indexed text: two noncharacters (U+FFFF), which text does not use.
    static let padding = "\u{FFFF}\u{FFFF}"
    /// The most trigrams a term of one or two characters expands to; past it, the term is
    /// looked for by scanning names and bodies (``SearchPlan``).
    static let expansionLimit = 2_000

    /// The key in `metadata` of a build in progress: the greatest rowid whose item has its entry.
    static let buildKey = "trigram_built_through"

    static func create(_ db: Database) throws {
        try db.execute(
            sql: """
                CREATE VIRTUAL TABLE \(table) USING fts5(
                    name, body, content = '', tokenize = 'trigram', detail = 'none'
                );
                CREATE VIRTUAL TABLE \(vocabulary) USING fts5vocab(\(table), row);
                """)
        try SearchIndex.setHashSize(of: table, db)
    }

    /// Case, accents and `ß` folded as the index holds them: the text of an index entry and
    /// of a query term. Accents are the combining marks of Latin, Greek and Cyrillic letters
    /// (U+0300–U+036F and their supplements), taken off after canonical decomposition: the
    /// marks of other scripts (Thai tones and vowels, Japanese voicing) are letters of their
    /// words and stay. ASCII text is left as it is (the tokenizer folds its case).
    static func folded(_ text: String) -> String {
        guard !text.utf8.allSatisfy({ $0 < 0x80 }) else { return text }
        if foldsToItself(text) { return lowercasingASCII(text) }
        var scalars = String.UnicodeScalarView()
        for scalar in text.decomposedStringWithCanonicalMapping.unicodeScalars
        where !isAccent(scalar) && scalar != "\u{FFFF}" {
            scalars.append(scalar)
        }
        return String(scalars).precomposedStringWithCanonicalMapping.lowercased().replacingOccurrences(
            of: "ß", with: "ss")
    }

    /// Whether folding changes nothing in `text` but the case of ASCII letters: each of its
    /// characters is ASCII or of a script without case or accents whose text canonical
    /// decomposition and composition give back as it is (CJK ideographs but the compatibility
    /// ones, kana but the combining voicing marks, Hangul syllables, Thai, CJK and general
    /// punctuation, half- and full-width forms but the capital letters). Such text, most of
    /// what Chinese, Japanese, Korean and Thai notes hold, is folded without Foundation's
    /// normalization, which costs tens of microseconds a note.
    private static func foldsToItself(_ text: String) -> Bool {
        text.unicodeScalars.allSatisfy { scalar in
            switch scalar.value {
            case 0...0x7F, 0x0E01...0x0E5B, 0x2002...0x206F, 0x3000...0x3098, 0x309B...0x30FF, 0x3400...0x4DBF,
                0x4E00...0x9FFF, 0xAC00...0xD7A3, 0xFF01...0xFF20, 0xFF3B...0xFFDC, 0x20000...0x2F7FF,
                0x30000...0x323AF:
                return true
            default:
                return false
            }
        }
    }

    private static func lowercasingASCII(_ text: String) -> String {
        guard text.utf8.contains(where: { $0 >= 0x41 && $0 <= 0x5A }) else { return text }
        return String(decoding: text.utf8.map { $0 >= 0x41 && $0 <= 0x5A ? $0 + 0x20 : $0 }, as: UTF8.self)
    }

    private static func isAccent(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x0300...0x036F, 0x1AB0...0x1AFF, 0x1DC0...0x1DFF, 0x20D0...0x20FF, 0xFE20...0xFE2F: return true
        default: return false
        }
    }

    /// The indexed text of a name or a body.
    static func indexed(_ text: String?) -> String? {
        text.map { folded($0) + padding }
    }

    /// Text as the index matches it: folded (``folded(_:)``), with ASCII letters in lower case
    /// as the tokenizer takes them. For the items a build has not reached yet.
    static func comparable(_ text: String) -> String {
        lowercasingASCII(folded(text))
    }

    /// `trigram_contains(text, term)`: whether the text, made ``comparable(_:)``, holds the
    /// term (made so already): what confirms that an item the index finds holds a term, and
    /// what finds it among the items a build has not reached.
    static let containsFunction = DatabaseFunction("trigram_contains", argumentCount: 2, pure: true) { values in
        guard let text = String.fromDatabaseValue(values[0]), let term = String.fromDatabaseValue(values[1]) else {
            return false
        }
        return contains(text, term)
    }

    /// Whether `text`, made ``comparable(_:)``, holds `term` (made so already): the bytes of
    /// plain ASCII lowered in a buffer, other text folded, then searched (``ByteSearch``).
    static func contains(_ text: String, _ term: String) -> Bool {
        let needle = Array(term.utf8)
        guard !needle.isEmpty else { return true }
        if text.utf8.allSatisfy({ $0 < 0x80 }) {
            var bytes = Array(text.utf8)
            for index in bytes.indices where bytes[index] >= 0x41 && bytes[index] <= 0x5A { bytes[index] += 0x20 }
            return bytes.withUnsafeBytes { ByteSearch.firstOffset(of: needle, in: $0) != nil }
        }
        var folded = comparable(text)
        return folded.withUTF8 { ByteSearch.firstOffset(of: needle, in: UnsafeRawBufferPointer($0)) != nil }
    }

    /// The most trigrams of a term that a query asks the index for: past them, a long term or
    /// phrase is looked for by some of its trigrams, spread over it, and the text confirms
    /// the rest.
    static let queryTrigramLimit = 24

    /// The FTS5 query of the items that hold every trigram of `term` (folded, of three
    /// characters or more): each trigram once, quoted, joined by `AND`. Every item that
    /// holds the term is among them; the text of each says whether it does.
    static func query(of term: String) -> String {
        let scalars = Array(term.unicodeScalars)
        var seen: Set<String> = []
        var trigrams: [String] = []
        for start in 0...(scalars.count - 3) {
            var trigram = String.UnicodeScalarView()
            trigram.append(contentsOf: scalars[start..<start + 3])
            if seen.insert(String(trigram)).inserted { trigrams.append(String(trigram)) }
        }
        if trigrams.count > queryTrigramLimit {
            let step = Double(trigrams.count - 1) / Double(queryTrigramLimit - 1)
            trigrams = (0..<queryTrigramLimit).map { trigrams[Int((Double($0) * step).rounded())] }
        }
        return trigrams.map(SearchExpression.quoted).joined(separator: " AND ")
    }

    /// The greatest rowid whose item has its entry while a build is in progress; nil when the
    /// index is whole.
    static func builtThrough(_ db: Database) throws -> Int64? {
        try SQLRequest<Int64>(
            literal: "SELECT CAST(value AS INTEGER) FROM metadata WHERE key = \(buildKey)", cached: true
        )
        .fetchOne(db)
    }

    /// Empties the index and starts a build from the first item.
    static func startBuilding(_ db: Database) throws {
        try db.execute(sql: "INSERT INTO \(table)(\(table)) VALUES ('delete-all')")
        if try BodyParts.exist(db) {
            try db.execute(
                sql: "INSERT INTO \(BodyParts.trigramTable)(\(BodyParts.trigramTable)) VALUES ('delete-all')")
        }
        try setBuiltThrough(0, db)
    }

    private static func setBuiltThrough(_ rowid: Int64?, _ db: Database) throws {
        if let rowid {
            try db.execute(
                literal: "INSERT OR REPLACE INTO metadata(key, value) VALUES (\(buildKey), \(String(rowid)))")
        } else {
            try db.execute(literal: "DELETE FROM metadata WHERE key = \(buildKey)")
        }
    }

    /// Adds the entries of up to `items` items after those a build in progress has reached, in
    /// rowid order; returns true when the index is whole.
    static func build(items limit: Int, _ db: Database) throws -> Bool {
        guard let through = try builtThrough(db) else { return true }
        let rows = try Row.fetchCursor(
            db,
            SQLRequest<Row>(
                literal: "SELECT rowid, name, body FROM item WHERE rowid > \(through) ORDER BY rowid LIMIT \(limit)"))
        var last = through
        var count = 0
        let parts = try BodyParts.exist(db)
        while let row = try rows.next() {
            last = row["rowid"]
            count += 1
            try addItem(rowid: last, name: row["name"], body: row["body"], parts: parts, db)
        }
        try setBuiltThrough(count < limit ? nil : last, db)
        return count < limit
    }

    /// Adds the entries of an item as a build reaches it: of its text, or, when its body is
    /// parted (``BodyParts``) and the store has parts, of its name and of each part.
    private static func addItem(rowid: Int64, name: String, body: String?, parts: Bool, _ db: Database) throws {
        guard parts, let body, BodyParts.isParted(body) else {
            try add(rowid: rowid, name: name, body: body, db)
            return
        }
        try add(rowid: rowid, name: name, body: "", db)
        try BodyParts.addTrigrams(of: rowid, body: body, db)
    }

    /// Adds the entry of a text: an item's (its body as ``BodyParts/itemText(_:)`` says), or,
    /// in the table of parts, a part's.
    static func add(rowid: Int64, name: String, body: String?, in table: String = table, _ db: Database) throws {
        // A cached statement with placeholders: it runs for every item a save or import changes.
        let statement = try db.cachedStatement(sql: "INSERT INTO \(table)(rowid, name, body) VALUES (?, ?, ?)")
        try statement.execute(arguments: [rowid, indexed(name), indexed(body)])
    }

    /// Removes the entry of a text: the text it was indexed with.
    static func remove(rowid: Int64, name: String, body: String?, in table: String = table, _ db: Database) throws {
        let statement = try db.cachedStatement(
            sql: "INSERT INTO \(table)(\(table), rowid, name, body) VALUES ('delete', ?, ?, ?)")
        try statement.execute(arguments: [rowid, indexed(name), indexed(body)])
    }

    /// Builds the index again from every item, in rowid order, at once: the migration that
    /// adds it to a store of few items, and `notes check --repair`.
    static func rebuild(_ db: Database) throws {
        try db.execute(sql: "INSERT INTO \(table)(\(table)) VALUES ('delete-all')")
        let parts = try BodyParts.exist(db)
        if parts {
            try db.execute(
                sql: "INSERT INTO \(BodyParts.trigramTable)(\(BodyParts.trigramTable)) VALUES ('delete-all')")
        }
        try setBuiltThrough(nil, db)
        // The tables written are not the one read: writing while the cursor reads is safe.
        let items = try Row.fetchCursor(db, sql: "SELECT rowid, name, body FROM item ORDER BY rowid")
        while let row = try items.next() {
            try addItem(rowid: row["rowid"], name: row["name"], body: row["body"], parts: parts, db)
        }
        try db.execute(sql: "INSERT INTO \(table)(\(table)) VALUES ('optimize')")
    }

    /// Whether the index is sound: FTS5's own check of its structure, and an entry for each
    /// item, by rowid, and none other (while a build is in progress, for each item it has
    /// reached).
    static func matchesItems(_ db: Database) throws -> Bool {
        do {
            try db.execute(sql: "INSERT INTO \(table)(\(table), rank) VALUES ('integrity-check', 0)")
        } catch {
            return false
        }
        let through = try builtThrough(db) ?? Int64.max
        let items =
            try SQLRequest<Int>(literal: "SELECT COUNT(*) FROM item WHERE rowid <= \(through)").fetchOne(db) ?? 0
        let entries = try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM \(table)_docsize") ?? 0
        let strays =
            try SQLRequest<Int>(
                literal: """
                    SELECT COUNT(*) FROM \(sql: table)_docsize
                    WHERE id > \(through) OR NOT EXISTS (SELECT 1 FROM item WHERE item.rowid = \(sql: table)_docsize.id)
                    """
            ).fetchOne(db) ?? 0
        return items == entries && strays == 0
    }

    /// The FTS5 query of the trigrams that a folded term of one or two characters begins
    /// (each text is padded, so every occurrence of the term begins one), joined by `OR`; nil
    /// when there are more than ``expansionLimit``. An empty list matches nothing.
    static func expansion(of term: String, _ db: Database) throws -> [String]? {
        let lowered = term.lowercased()
        // The parts of long bodies have their own vocabulary (``BodyParts``), with its own
        // limit: the notes of the other one are looked for as they were without parts.
        let vocabularies = [vocabulary] + (try BodyParts.exist(db) ? [BodyParts.trigramVocabulary] : [])
        var trigrams: [String] = []
        for table in vocabularies {
            let found = try String.fetchAll(
                db, sql: "SELECT term FROM \(table) WHERE term >= ? AND term < ? LIMIT ?",
                arguments: [lowered, lowered + "\u{10FFFF}", expansionLimit + 1])
            guard found.count <= expansionLimit else { return nil }
            trigrams += found
        }
        return Array(Set(trigrams)).sorted()
    }
}
