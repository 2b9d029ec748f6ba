import GRDB

extension StoreSchema {
    /// Version 10: properties of notes (docs/sync-format.md, "Properties"), and attachments of
    /// any kind. `property` holds
    /// the dots of each key on each item: the stamp of the save that set a value, the value as
    /// JSON and its place among the item's properties (a key's value is that of its latest
    /// dot); `property_removal`, per item, key and device, the greatest clock of that device's
    /// dots a later change of the key had seen. Neither refers to `item`, as for tags: they
    /// merge whether or not the item is there. `file_attachment` holds the attachments that are
    /// not PNG, JPEG, GIF or WebP images (entity `FileAttachment`): a table of its own, so that
    /// the `attachment` of earlier models, and what builds of those models read in it, stay as
    /// they were. Model version 9 is a version of logs only.
    static func addModel10(_ db: Database) throws {
        try db.execute(
            sql: """
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
                CREATE TABLE file_attachment (
                    id TEXT PRIMARY KEY NOT NULL,
                    note TEXT NOT NULL REFERENCES item(id) ON DELETE CASCADE,
                    sha256 TEXT NOT NULL CHECK (length(sha256) = 64),
                    media_type TEXT NOT NULL CHECK (length(media_type) >= 3),
                    name TEXT,
                    width INTEGER CHECK (width > 0),
                    height INTEGER CHECK (height > 0),
                    bytes INTEGER NOT NULL CHECK (bytes >= 0),
                    caption TEXT,
                    created INTEGER NOT NULL,
                    stamps TEXT NOT NULL DEFAULT '{}'
                );
                CREATE INDEX file_attachment_on_note ON file_attachment(note, created);
                CREATE INDEX file_attachment_on_sha256 ON file_attachment(sha256);
                UPDATE metadata SET value = '10' WHERE key = 'model_version';
                """)
    }

    /// Takes the tables of model 10 out of a copy of a store that has no property (set or
    /// removed) and no file attachment, and the record of their migration: the copy is then a
    /// store of model version 8, which builds of models 8 and 9 read. True when it did.
    static func dropUnusedModel10Tables(_ db: Database) throws -> Bool {
        guard try db.tableExists("property"),
            try !Bool.fetchOne(
                db,
                sql: """
                    SELECT EXISTS (SELECT 1 FROM property) OR EXISTS (SELECT 1 FROM property_removal)
                        OR EXISTS (SELECT 1 FROM file_attachment)
                    """)!
        else { return false }
        try db.execute(
            sql: """
                DROP TABLE property;
                DROP TABLE property_removal;
                DROP TABLE file_attachment;
                DELETE FROM grdb_migrations WHERE identifier = 'v10';
                UPDATE metadata SET value = '8' WHERE key = 'model_version';
                """)
        return true
    }
}
