import GRDB

extension StoreSchema {
    /// Version 7: `history_cut`, where a store records, for a property of an object whose older
    /// versions a baseline dropped, the version it kept them up to (the *cut*): every version
    /// the store holds of that property descends from it or is it, and a version arriving again
    /// that descends from none of them is one of those dropped (docs/sync-format.md, "Retention
    /// of history"). A store without cuts is a store of model 6 with an empty table.
    static func addHistoryCuts(_ db: Database) throws {
        try db.execute(
            sql: """
                CREATE TABLE history_cut (
                    object BLOB NOT NULL,
                    property INTEGER NOT NULL CHECK (property BETWEEN 0 AND 1),
                    stamp BLOB NOT NULL,
                    PRIMARY KEY (object, property)
                ) WITHOUT ROWID;
                UPDATE metadata SET value = '7' WHERE key = 'model_version';
                """)
    }
}
