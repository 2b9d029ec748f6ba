import Foundation
import GRDB
import GRDBSQLite

/// What SQLite's `PRAGMA integrity_check` adds to `PRAGMA quick_check` for an untrusted
/// database: that every index holds exactly the rows of its table, in order, and no two
/// entries alike where it is unique.
///
/// `integrity_check` looks each row up in each index of its table. For the items of a large
/// baseline that is a random walk through indexes of ids and names, most of the time of the
/// whole check (0.4 s of 0.7 s for 100,000 notes). Here each index of a table with rowids is
/// read in one scan, and its table in one scan for all its indexes; each side adds up a keyed
/// hash of its entries (SipHash, seeded at random by each process: a file cannot be made to
/// match sums it cannot know), and the scan of the index checks that each entry sorts after
/// the one before it, as SQLite sorts them, and differs in its key where the index is unique.
/// Tables without rowids (history, tags) are checked by SQLite (`integrity_check` of the
/// table), whose lookups there follow the order of the scan.
///
/// It runs after `quick_check` passed, on a database whose schema is the store's, so every
/// index is of columns (no expression), ascending, compared as bytes (BINARY).
enum IndexCheck {
    /// The first problem found in the indexes of tables with rowids (those `including` takes),
    /// or nil.
    static func problemInTablesWithRowids(_ db: Database, including: (String) -> Bool = { _ in true }) throws -> String?
    {
        do {
            var indexes: [String: [Index]] = [:]
            for entry in try entries(db, withoutRowid: false) where including(entry.table) {
                indexes[entry.table, default: []].append(
                    try Index(db, name: entry.name, table: entry.table, sql: entry.sql))
            }
            for (table, tableIndexes) in indexes.sorted(by: { $0.key < $1.key }) {
                let expected = try tableDigests(db, table: table, indexes: tableIndexes)
                for (index, digest) in zip(tableIndexes, expected) where try indexDigest(db, index) != digest {
                    throw Problem(description: "the index \(index.name) does not hold the rows of \(table)")
                }
            }
            return nil
        } catch let problem as Problem {
            return problem.description
        }
    }

    /// The first problem found in the indexes of tables without rowids, by SQLite's
    /// `integrity_check` of each such table, or nil. It reads the tables again, so it runs
    /// beside ``problemInTablesWithRowids(_:)``, on a connection of its own.
    static func problemInTablesWithoutRowids(_ db: Database) throws -> String? {
        for table in Set(try entries(db, withoutRowid: true).map(\.table)).sorted() {
            let messages = try String.fetchAll(db, sql: "PRAGMA integrity_check(\(table.quotedDatabaseIdentifier))")
            if messages != ["ok"] { return messages.joined(separator: "; ") }
        }
        return nil
    }

    struct Problem: Error, CustomStringConvertible {
        let description: String
    }

    /// The indexes of the schema, of tables with or without rowids.
    private static func entries(_ db: Database, withoutRowid: Bool) throws -> [(
        name: String, table: String, sql: String?
    )] {
        try SQLRequest<Row>(
            literal: """
                SELECT entry.name, entry.tbl_name, entry.sql
                FROM sqlite_schema AS entry \
                JOIN pragma_table_list AS list ON list.schema = 'main' AND list.name = entry.tbl_name
                WHERE entry.type = 'index' AND list.wr = \(withoutRowid) ORDER BY entry.tbl_name, entry.name
                """
        ).fetchAll(db).map { ($0["name"], $0["tbl_name"], $0["sql"]) }
    }

    /// An index of a table with rowids: the columns of its entries (the rowid last), how many
    /// of them are its key, whether it is unique, and its WHERE clause when it is partial.
    struct Index {
        let name: String
        let table: String
        let columns: [String]
        let keyColumns: Int
        let unique: Bool
        let condition: String?

        init(_ db: Database, name: String, table: String, sql: String?) throws {
            var columns: [String] = []
            var keyColumns = 0
            let info = SQLRequest<Row>(
                literal: "SELECT cid, name, desc, coll, key FROM pragma_index_xinfo(\(name)) ORDER BY seqno")
            for column in try info.fetchAll(db) {
                let cid: Int = column["cid"]
                guard cid != -2, (column["desc"] as Int) == 0, (column["coll"] as String?) == "BINARY" else {
                    throw Problem(description: "the index \(name) is not of columns in ascending byte order")
                }
                columns.append(cid == -1 ? "rowid" : (column["name"] as String).quotedDatabaseIdentifier)
                if (column["key"] as Int) == 1 { keyColumns += 1 }
            }
            self.name = name
            self.table = table
            self.columns = columns
            self.keyColumns = keyColumns
            unique =
                try SQLRequest<Bool>(literal: "SELECT \"unique\" FROM pragma_index_list(\(table)) WHERE name = \(name)")
                .fetchOne(db) ?? false
            // The schema is the store's: a partial index's clause is what follows its WHERE.
            condition = sql.flatMap { sql in
                sql.range(of: " WHERE ", options: [.backwards, .caseInsensitive]).map { String(sql[$0.upperBound...]) }
            }
        }
    }

    /// The count of an index's entries and the sum of their keyed hashes.
    struct Digest: Equatable {
        var count = 0
        var sum: UInt64 = 0

        mutating func add(_ key: EntryBytes) {
            var hasher = Hasher()
            key.bytes.withUnsafeBytes { hasher.combine(bytes: $0) }
            count += 1
            sum &+= UInt64(bitPattern: Int64(hasher.finalize()))
        }
    }

    /// What each index of `table` should hold, from one scan of the table.
    private static func tableDigests(_ db: Database, table: String, indexes: [Index]) throws -> [Digest] {
        var selected: [String] = []
        for column in indexes.flatMap(\.columns) where !selected.contains(column) { selected.append(column) }
        let positions = indexes.map { index in index.columns.map { Int32(selected.firstIndex(of: $0)!) } }
        var conditions: [Int32?] = []
        var list = selected
        for index in indexes {
            if let condition = index.condition {
                conditions.append(Int32(list.count))
                list.append("(\(condition)) IS TRUE")
            } else {
                conditions.append(nil)
            }
        }
        let statement = try db.makeStatement(
            sql: "SELECT \(list.joined(separator: ", ")) FROM \(table.quotedDatabaseIdentifier) NOT INDEXED")
        var digests = Array(repeating: Digest(), count: indexes.count)
        var entry = EntryBytes()
        try scan(statement) { row in
            for position in indexes.indices {
                if let condition = conditions[position], sqlite3_column_int(row, condition) == 0 { continue }
                entry.reset()
                for column in positions[position] { try entry.append(row, column) }
                digests[position].add(entry)
            }
        }
        return digests
    }

    /// What an index holds, from one scan of it, checking its order on the way.
    private static func indexDigest(_ db: Database, _ index: Index) throws -> Digest {
        let condition = index.condition.map { " WHERE \($0)" } ?? ""
        let statement = try db.makeStatement(
            sql: """
                SELECT \(index.columns.joined(separator: ", ")) FROM \(index.table.quotedDatabaseIdentifier) \
                INDEXED BY \(index.name.quotedDatabaseIdentifier)\(condition)
                """)
        var digest = Digest()
        var previous = EntryBytes()
        var entry = EntryBytes()
        var first = true
        try scan(statement) { row in
            entry.reset()
            for column in 0..<Int32(index.columns.count) {
                try entry.append(row, column)
                if column + 1 == Int32(index.keyColumns) { entry.markKey() }
            }
            if !first {
                guard previous.precedes(entry) else {
                    throw Problem(description: "the index \(index.name) is out of order")
                }
                if index.unique && !entry.keyHasNull && previous.hasSameKey(as: entry) {
                    throw Problem(description: "the unique index \(index.name) holds a key twice")
                }
            }
            first = false
            digest.add(entry)
            swap(&previous, &entry)
        }
        // A partial index may be searched rather than scanned (entries with a NULL key passed
        // over for `trashed IS NOT NULL`): its entries are counted on its pages too (an index
        // b-tree keeps entries on its interior pages as well as on its leaves).
        if index.condition != nil {
            let entries =
                try SQLRequest<Int>(
                    literal:
                        "SELECT sum(ncell) FROM dbstat WHERE name = \(index.name) AND pagetype IN ('internal', 'leaf')"
                ).fetchOne(db) ?? 0
            guard entries == digest.count else {
                throw Problem(description: "the index \(index.name) holds entries that its scan passes over")
            }
        }
        return digest
    }

    /// Steps through a statement's rows, on SQLite's own calls: a row is read column by
    /// column, without making values of it.
    private static func scan(_ statement: Statement, _ body: (OpaquePointer) throws -> Void) throws {
        let handle = statement.sqliteStatement
        defer {
            sqlite3_reset(handle)
            withExtendedLifetime(statement) {}
        }
        while try RawStatement.step(handle) { try body(handle) }
    }
}

/// An index entry's columns as bytes that sort as SQLite sorts the entry (BINARY): each
/// column a tag of its type (NULL before integers, before text, before blobs), then an
/// integer in 8 bytes big-endian with its sign bit flipped, or text and blobs with each zero
/// byte written 0 0xFF and an end of 0 0.
///
/// No index of the store holds a real number: a column holding one is a problem.
struct EntryBytes {
    private(set) var bytes: [UInt8] = []
    /// The bytes of the key columns, and whether one of them is NULL.
    private(set) var keyLength = 0
    private(set) var keyHasNull = false
    private var hasNull = false

    init() {
        bytes.reserveCapacity(256)
    }

    mutating func reset() {
        bytes.removeAll(keepingCapacity: true)
        keyLength = 0
        keyHasNull = false
        hasNull = false
    }

    /// Marks the columns appended so far as the key.
    mutating func markKey() {
        keyLength = bytes.count
        keyHasNull = hasNull
    }

    mutating func append(_ row: OpaquePointer, _ column: Int32) throws {
        switch sqlite3_column_type(row, column) {
        case SQLITE_NULL:
            bytes.append(1)
            hasNull = true
        case SQLITE_INTEGER:
            bytes.append(2)
            let value = UInt64(bitPattern: sqlite3_column_int64(row, column)) ^ (1 << 63)
            for shift in stride(from: 56, through: 0, by: -8) {
                bytes.append(UInt8(truncatingIfNeeded: value >> UInt64(shift)))
            }
        case SQLITE_TEXT:
            bytes.append(3)
            appendEscaped(
                sqlite3_column_text(row, column).map { UnsafeRawPointer($0) }, count: sqlite3_column_bytes(row, column))
        case SQLITE_BLOB:
            bytes.append(4)
            appendEscaped(sqlite3_column_blob(row, column), count: sqlite3_column_bytes(row, column))
        default:
            throw IndexCheck.Problem(
                description: "an indexed column holds a real number, which the store never writes there")
        }
    }

    private mutating func appendEscaped(_ pointer: UnsafeRawPointer?, count: Int32) {
        if let pointer, count > 0 {
            let buffer = UnsafeRawBufferPointer(start: pointer, count: Int(count))
            if memchr(pointer, 0, Int(count)) == nil {
                bytes.append(contentsOf: buffer)
            } else {
                for byte in buffer {
                    bytes.append(byte)
                    if byte == 0 { bytes.append(0xFF) }
                }
            }
        }
        bytes.append(0)
        bytes.append(0)
    }

    /// Whether this entry sorts strictly before `other`.
    func precedes(_ other: EntryBytes) -> Bool {
        let shared = min(bytes.count, other.bytes.count)
        guard shared > 0 else { return bytes.count < other.bytes.count }
        let order = bytes.withUnsafeBytes { mine in
            other.bytes.withUnsafeBytes { theirs in memcmp(mine.baseAddress!, theirs.baseAddress!, shared) }
        }
        return order < 0 || (order == 0 && bytes.count < other.bytes.count)
    }

    func hasSameKey(as other: EntryBytes) -> Bool {
        keyLength == other.keyLength && bytes.prefix(keyLength).elementsEqual(other.bytes.prefix(other.keyLength))
    }
}
