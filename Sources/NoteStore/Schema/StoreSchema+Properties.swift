import GRDB

extension StoreSchema {
    /// Version 10: properties of notes (docs/sync-format.md, "Properties"). `property` holds
    /// the dots of each key on each item: the stamp of the save that set a value, the value as
    /// JSON and its place among the item's properties (a key's value is that of its latest
    /// dot); `property_removal`, per item, key and device, the greatest clock of that device's
    /// dots a later change of the key had seen. Neither refers to `item`, as for tags: they
    /// merge whether or not the item is there. Model version 9 is a version of logs only.
    static func addProperties(_ db: Database) throws {
        try db.execute(sql: """
            CREATE TABLE property (
                item TEXT NOT NULL,
                key TEXT NOT NULL CHECK (length(key) >= 1),
                stamp TEXT NOT NULL,
                value TEXT NOT NULL,
                position INTEGER NOT NULL,
                PRIMARY KEY (item, key, stamp)
            ) WITHOUT ROWID;
            CREATE INDEX property_on_key ON property(key, item);
            CREATE TABLE property_removal (
                item TEXT NOT NULL,
                key TEXT NOT NULL,
                device TEXT NOT NULL,
                clock INTEGER NOT NULL,
                PRIMARY KEY (item, key, device)
            ) WITHOUT ROWID;
            UPDATE metadata SET value = '10' WHERE key = 'model_version';
            """)
    }

    /// Takes the tables of properties out of a copy of a store that has none, and the record of
    /// their migration: the copy is then a store of model version 8, which builds of models 8
    /// and 9 read. True when it did.
    static func dropEmptyProperties(_ db: Database) throws -> Bool {
        guard try db.tableExists("property"),
            try !Bool.fetchOne(db, sql: "SELECT EXISTS (SELECT 1 FROM property) OR EXISTS (SELECT 1 FROM property_removal)")!
        else { return false }
        try db.execute(sql: """
            DROP TABLE property;
            DROP TABLE property_removal;
            DELETE FROM grdb_migrations WHERE identifier = 'v10';
            UPDATE metadata SET value = '8' WHERE key = 'model_version';
            """)
        return true
    }
}
