import CSQLiteHardening
import GRDB

extension StoreSchema {
    /// The name of the migration that makes every reference to an item checked at commit.
    static let deferredReferencesMigration = "deferred references"

    /// What follows each reference to an item (`REFERENCES item(id)`, with its action) in the
    /// schema of a store: its foreign key is checked when the transaction commits, not after
    /// each statement, so that a save may insert a note before the collection it goes into.
    static let deferral = " DEFERRABLE INITIALLY DEFERRED"

    /// Declares every reference to an item deferred, in the schema's text alone: what a key
    /// allows once its transaction commits is the same, and no row or page changes.
    ///
    /// Before, each save and each import set `PRAGMA defer_foreign_keys`. SQLite expires every
    /// prepared statement of the connection when such a pragma runs, so each transaction
    /// prepared its statements again, as if none were cached: about a quarter of the CPU of an
    /// import of one note. A key declared deferred needs no pragma.
    ///
    /// The edit is the one SQLite documents for changes that leave the file's contents as they
    /// are (ALTER TABLE, "making other kinds of table schema changes"): the text of the table
    /// in `sqlite_schema`, with the schema version raised so that every connection reads the
    /// schema again. A baseline leaves it out, with the record of this migration
    /// (``undeferReferences(_:)``): its schema is what every build reads, and a store made
    /// from it defers its references when it opens.
    static func deferReferences(_ db: Database) throws {
        try rewriteTables(db) { sql in
            guard !sql.contains(deferral) else { return sql }
            return try deferring(sql)
        }
    }

    /// Puts back the references of the schema as the model versions declare them: the
    /// inverse of ``deferReferences(_:)``, for the copy that becomes a baseline.
    static func undeferReferences(_ db: Database) throws {
        try rewriteTables(db) { $0.replacingOccurrences(of: deferral, with: "") }
    }

    /// The text of a table's definition with ``deferral`` after each reference to an item and
    /// its action. Throws for a reference in another form, which no model version declares.
    static func deferring(_ sql: String) throws -> String {
        let reference = "REFERENCES item(id)"
        let action = " ON DELETE CASCADE"
        var result = ""
        var rest = Substring(sql)
        while let found = rest.range(of: reference) {
            var end = found.upperBound
            if rest[end...].hasPrefix(action) { end = rest.index(end, offsetBy: action.count) }
            guard let next = rest[end...].first, next == "," || next == "\n" || next == ")" else {
                throw DatabaseError(
                    resultCode: .SQLITE_ERROR, message: "a reference to an item in an unknown form: \(sql)")
            }
            result += rest[..<end] + deferral
            rest = rest[end...]
        }
        guard sql.components(separatedBy: "REFERENCES").count == sql.components(separatedBy: reference).count else {
            throw DatabaseError(resultCode: .SQLITE_ERROR, message: "a reference to another table: \(sql)")
        }
        return result + rest
    }

    /// Replaces the text of each table that refers to an item by `transform` of it, as
    /// ``deferReferences(_:)`` says, and reads the schema again to check it.
    private static func rewriteTables(_ db: Database, _ transform: (String) throws -> String) throws {
        var edits: [(name: String, sql: String)] = []
        for row in try Row.fetchAll(
            db, sql: "SELECT name, sql FROM sqlite_schema WHERE type = 'table' AND sql LIKE '%REFERENCES%'")
        {
            let sql: String = row["sql"]
            let edited = try transform(sql)
            if edited != sql { edits.append((row["name"], edited)) }
        }
        guard !edits.isEmpty else { return }
        // Defensive mode forbids the edit: off for it (a build of SQLite may turn it on for
        // every connection), and as it was afterwards. The upgrade of a baseline, whose
        // connection is hardened against its contents, does not run this migration
        // (StoreSchema.baselineUpgradeMigrator).
        let defensive = notes_sqlite_set_defensive(db.sqliteConnection, 0)
        guard defensive >= 0 else {
            throw DatabaseError(resultCode: .SQLITE_MISUSE, message: "cannot leave SQLite's defensive mode")
        }
        defer { if defensive == 1 { _ = notes_sqlite_set_defensive(db.sqliteConnection, 1) } }
        let version = try Int.fetchOne(db, sql: "PRAGMA schema_version")!
        try db.execute(sql: "PRAGMA writable_schema = ON")
        // Off again whatever happens: the setting outlives the transaction.
        defer { try? db.execute(sql: "PRAGMA writable_schema = OFF") }
        for edit in edits {
            try db.execute(
                sql: "UPDATE sqlite_schema SET sql = ? WHERE type = 'table' AND name = ?",
                arguments: [edit.sql, edit.name])
        }
        try db.execute(sql: "PRAGMA schema_version = \(version + 1)")
        try db.execute(sql: "PRAGMA writable_schema = OFF")
        db.clearSchemaCache()
        // Each statement reads the schema again first: a text SQLite cannot parse fails here,
        // and the transaction with it.
        for edit in edits { try db.execute(sql: "SELECT 1 FROM \(edit.name.quotedDatabaseIdentifier) LIMIT 0") }
    }
}
