import GRDB

/// The store's schema and its migrations, one per model version.
///
/// Storage follows Core Data's single table per entity hierarchy: the `item` table holds notes
/// and collections, told apart by `kind`. Dates are whole milliseconds since 1970 (UTC).
/// The model version is kept in `metadata` and travels with every change recorded in `outbox`.
enum StoreSchema {
    /// The model version this build writes.
    static let currentModelVersion = 10

    /// Past this many items, a store that gets a derived index (the link index, the trigram
    /// index), as one made from a baseline does, builds it a part at a time after it opens
    /// rather than at once (``LinkIndex/build(notes:_:)``, ``TrigramIndex/build(items:_:)``).
    static let buildAtOnceLimit = 5_000

    /// Whether the store holds more items than ``buildAtOnceLimit``, counted no further.
    static func buildsInParts(_ db: Database) throws -> Bool {
        try Bool.fetchOne(
            db, sql: "SELECT (SELECT COUNT(*) FROM (SELECT 1 FROM item LIMIT ?)) > ?",
            arguments: [buildAtOnceLimit + 1, buildAtOnceLimit])!
    }
    /// The model versions of stores, in order: 9 is a version of logs only.
    static let storeModelVersions = [1, 2, 3, 4, 5, 6, 7, 8, 10]

    /// A migration: its identifier in `grdb_migrations`, whether foreign keys stay on while it
    /// runs (else they are off, and checked before it commits), and what it does.
    struct Migration: Sendable {
        let identifier: String
        let keepsForeignKeys: Bool
        let run: @Sendable (Database) throws -> Void

        init(_ identifier: String, keepsForeignKeys: Bool = false, _ run: @escaping @Sendable (Database) throws -> Void)
        {
            self.identifier = identifier
            self.keepsForeignKeys = keepsForeignKeys
            self.run = run
        }
    }

    /// Every migration, in order.
    static let migrations: [Migration] = [
        Migration("v1", createVersion1),
        Migration("v2", addAttachments),
        Migration("v3", addChangeStamps),
        Migration("v4", addHistory),
        Migration("v5", addTags),
        Migration("v6", compactHistory),
        // A table of its own, which no key refers to: foreign keys stay on, so that opening a
        // store of model 6 (a new device's, made from a baseline) does not check every key of
        // the database, as a migration with them off does when it ends.
        Migration("v7", keepsForeignKeys: true, addHistoryCuts),
        // As v7: tables of their own, foreign keys left on.
        Migration("v8", keepsForeignKeys: true, addHistoryLines),
        // As v7: tables of their own, foreign keys left on. Before the link index, so that a
        // store of each model version is its migrations up to that version's.
        Migration("v10", keepsForeignKeys: true, addModel10),
        // Derived tables, not a model version: a baseline leaves them out (and the record of
        // this migration), and a store made from one builds them when it opens.
        Migration(linksMigration, keepsForeignKeys: true, addLinkIndex),
        // As the link index: derived, left out of baselines.
        Migration(trigramsMigration, keepsForeignKeys: true, addTrigramIndex),
        // Sync's records, typed; not a model version either: a baseline leaves them out, as
        // the link index.
        Migration(syncStateMigration, keepsForeignKeys: true, addSyncRecords),
        // As the trigram index: derived, left out of baselines.
        Migration(trigramsWithoutPositionsMigration, keepsForeignKeys: true, dropTrigramPositions),
        // A setting of a derived index: left out of baselines as the trigram index.
        Migration(wordIndexHashSizeMigration, keepsForeignKeys: true, enlargeWordIndexHash),
        // Derived, as the trigram index: left out of baselines.
        Migration(bodyPartsMigration, keepsForeignKeys: true, addBodyParts),
        // Where the store keeps long contents of history: left out of baselines, whose lines
        // hold them, as every build reads them.
        Migration(historyTextsMigration, keepsForeignKeys: true, addHistoryTexts),
        // Derived, as the trigram index: left out of baselines.
        Migration(listingIndexMigration, keepsForeignKeys: true, addListingIndex),
        // The schema's text alone, left out of baselines: their schema is a model version's.
        Migration(deferredReferencesMigration, keepsForeignKeys: true, deferReferences),
    ]

    static var migrator: DatabaseMigrator { migrator(of: migrations) }

    /// The migrations for a baseline of an older model upgraded to be read
    /// (``BaselineDatabase/upgradeToCurrentModel(file:)``): all but the deferral of references,
    /// an edit of the schema's text, which would turn off the defensive mode that its
    /// connection keeps against the baseline's contents, and which a database only read needs
    /// not.
    static var baselineUpgradeMigrator: DatabaseMigrator {
        migrator(of: migrations.filter { $0.identifier != deferredReferencesMigration })
    }

    private static func migrator(of migrations: [Migration]) -> DatabaseMigrator {
        var migrator = DatabaseMigrator()
        for migration in migrations {
            migrator.registerMigration(
                migration.identifier, foreignKeyChecks: migration.keepsForeignKeys ? .immediate : .deferred,
                migrate: migration.run)
        }
        return migrator
    }

    /// Makes the current schema in a database without any table, in one transaction: every
    /// migration in order, each recorded in `grdb_migrations` as GRDB's migrator records it,
    /// with foreign keys off while they run and checked before the commit, as the migrator
    /// runs the first ones. The migrator commits each migration apart, each commit synced to
    /// disk; here the schema is one commit. Returns false, changing nothing, when the database
    /// holds a table (another process made it). Foreign keys are as they were afterwards.
    static func createNew(_ db: Database) throws -> Bool {
        let foreignKeys = try Bool.fetchOne(db, sql: "PRAGMA foreign_keys") ?? false
        try db.execute(sql: "PRAGMA foreign_keys = OFF")
        defer { if foreignKeys { try? db.execute(sql: "PRAGMA foreign_keys = ON") } }
        var made = false
        try db.inTransaction(.immediate) {
            guard try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM sqlite_master") == 0 else { return .rollback }
            try db.execute(sql: "CREATE TABLE grdb_migrations (identifier TEXT NOT NULL PRIMARY KEY)")
            for migration in migrations {
                try migration.run(db)
                try db.execute(literal: "INSERT INTO grdb_migrations (identifier) VALUES (\(migration.identifier))")
            }
            try db.checkForeignKeys()
            made = true
            return .commit
        }
        return made
    }

    private static func createVersion1(_ db: Database) throws {
        try db.execute(
            sql: """
                CREATE TABLE metadata (
                    key TEXT PRIMARY KEY NOT NULL,
                    value TEXT NOT NULL
                );
                CREATE TABLE item (
                    id TEXT PRIMARY KEY NOT NULL,
                    kind TEXT NOT NULL CHECK (kind IN ('note', 'collection')),
                    name TEXT NOT NULL CHECK (length(name) >= 1),
                    parent TEXT REFERENCES item(id),
                    created INTEGER NOT NULL,
                    modified INTEGER NOT NULL,
                    trashed INTEGER,
                    body TEXT,
                    CHECK ((kind = 'note') = (body IS NOT NULL))
                );
                CREATE INDEX item_on_parent ON item(parent, name);
                CREATE INDEX item_on_trashed ON item(trashed) WHERE trashed IS NOT NULL;

                CREATE VIRTUAL TABLE item_fts USING fts5(
                    name, body,
                    content = 'item', content_rowid = 'rowid',
                    tokenize = 'unicode61 remove_diacritics 2',
                    prefix = '2 3'
                );
                CREATE TRIGGER item_fts_after_insert AFTER INSERT ON item BEGIN
                    INSERT INTO item_fts(rowid, name, body) VALUES (new.rowid, new.name, new.body);
                END;
                CREATE TRIGGER item_fts_after_delete AFTER DELETE ON item BEGIN
                    INSERT INTO item_fts(item_fts, rowid, name, body)
                    VALUES ('delete', old.rowid, old.name, old.body);
                END;
                CREATE TRIGGER item_fts_after_update AFTER UPDATE OF name, body ON item BEGIN
                    INSERT INTO item_fts(item_fts, rowid, name, body)
                    VALUES ('delete', old.rowid, old.name, old.body);
                    INSERT INTO item_fts(rowid, name, body) VALUES (new.rowid, new.name, new.body);
                END;

                CREATE TABLE outbox (
                    id INTEGER PRIMARY KEY AUTOINCREMENT,
                    save INTEGER NOT NULL,
                    model INTEGER NOT NULL,
                    entity TEXT NOT NULL,
                    object TEXT NOT NULL,
                    operation TEXT NOT NULL CHECK (operation IN ('insert', 'update', 'delete')),
                    changes TEXT NOT NULL,
                    recorded INTEGER NOT NULL
                );
                CREATE INDEX outbox_on_save ON outbox(save);
                """)
        try db.execute(
            sql: "INSERT INTO metadata(key, value) VALUES ('model_version', '1')")
    }

    /// Version 2: image attachments, as Core Data's notes sample grew them: an abstract
    /// `Attachment` with `ImageAttachment` beneath it, stored in one table with a kind column.
    /// The bytes live in `blobs/<sha256>`; `blob_release` lists blobs to remove once no
    /// attachment references them, so that a crash never leaves one behind for good.
    /// Also: the full-text index is written by the store (``SearchIndex``) instead of
    /// triggers, and a covering index over collections makes paths cheap to compute.
    private static func addAttachments(_ db: Database) throws {
        try db.execute(
            sql: """
                CREATE TABLE attachment (
                    id TEXT PRIMARY KEY NOT NULL,
                    kind TEXT NOT NULL CHECK (kind IN ('image')),
                    note TEXT NOT NULL REFERENCES item(id) ON DELETE CASCADE,
                    sha256 TEXT NOT NULL CHECK (length(sha256) = 64),
                    format TEXT NOT NULL CHECK (format IN ('png', 'jpeg', 'gif', 'webp')),
                    width INTEGER NOT NULL CHECK (width > 0),
                    height INTEGER NOT NULL CHECK (height > 0),
                    bytes INTEGER NOT NULL CHECK (bytes >= 0),
                    caption TEXT,
                    created INTEGER NOT NULL
                );
                CREATE INDEX attachment_on_note ON attachment(note, created);
                CREATE INDEX attachment_on_sha256 ON attachment(sha256);
                CREATE TABLE blob_release (
                    sha256 TEXT PRIMARY KEY NOT NULL
                );
                DROP TRIGGER item_fts_after_insert;
                DROP TRIGGER item_fts_after_delete;
                DROP TRIGGER item_fts_after_update;
                CREATE INDEX item_collection ON item(id, name, parent) WHERE kind = 'collection';
                UPDATE metadata SET value = '2' WHERE key = 'model_version';
                """)
    }

    /// Version 3: what sync needs to merge. Every item and attachment keeps the stamp of each
    /// property's last change (`stamps`, a JSON object: property name, or `*` for all the
    /// others, to ``ChangeStamp`` text); purged objects leave a tombstone; every save has the
    /// reading of the store's hybrid logical clock (`outbox.clock`, `metadata.clock`); and
    /// `sync_state` keeps what sync records of its own; `displaced` keeps the merged parent of
    /// an item that is shown elsewhere because that parent is gone or would make a cycle.
    /// Objects made before get the stamp of their creation time on this device. The store has
    /// never synced (there was no sync before this version): the mark that it records no outbox
    /// rows until sync turns recording on (``ChangeRecording``) is written in the transaction that
    /// makes the table, so that no other process can see the table without it.
    private static func addChangeStamps(_ db: Database) throws {
        try db.execute(
            sql: """
                ALTER TABLE item ADD COLUMN stamps TEXT NOT NULL DEFAULT '{}';
                ALTER TABLE attachment ADD COLUMN stamps TEXT NOT NULL DEFAULT '{}';
                ALTER TABLE outbox ADD COLUMN clock INTEGER NOT NULL DEFAULT 0;
                CREATE TABLE tombstone (
                    object TEXT PRIMARY KEY NOT NULL,
                    entity TEXT NOT NULL,
                    stamp TEXT NOT NULL
                );
                CREATE TABLE sync_state (
                    key TEXT PRIMARY KEY NOT NULL,
                    value TEXT NOT NULL
                );
                CREATE TABLE displaced (
                    item TEXT PRIMARY KEY NOT NULL REFERENCES item(id) ON DELETE CASCADE,
                    parent TEXT
                );
                UPDATE item SET stamps = json_object('*',
                    printf('%016x', created << 16) || '/' || (SELECT value FROM metadata WHERE key = 'device_id'));
                UPDATE attachment SET stamps = json_object('*',
                    printf('%016x', created << 16) || '/' || (SELECT value FROM metadata WHERE key = 'device_id'));
                UPDATE outbox SET clock = recorded << 16;
                INSERT OR REPLACE INTO metadata(key, value)
                    VALUES ('clock', (SELECT COALESCE(MAX(modified), 0) << 16 FROM item));
                UPDATE metadata SET value = '3' WHERE key = 'model_version';
                """)
        try ChangeRecording.markNewStore(db)
    }

    /// Version 4: history. Every version of a name and of a note's body stays in `version`,
    /// keyed by its stamp, with the versions it was edited from (`bases`, a JSON array of
    /// stamps; NULL for a version that descends from every version with a smaller stamp, as
    /// sync format 1 ordered them), and whether it is a head (no other version descends from
    /// it). Text is stored whole, or as a ``LineDelta`` against another version (`delta_of`),
    /// at most ``VersionStorage/maximumDepth`` deltas away from a whole text. `conflict` keeps
    /// the concurrent versions that could not merge, and the copy made of the losing one; the
    /// outbox keeps, per change, what sync carries for history (`history`). The current name
    /// and body of every item become its first versions, with their stamps. For causal deletes:
    /// `knowledge` keeps the greatest clock seen of each device, and a tombstone what its purge
    /// had seen (`seen`) and the purged object's merged state (`state`).
    private static func addHistory(_ db: Database) throws {
        try db.execute(
            sql: """
                CREATE TABLE version (
                    object TEXT NOT NULL,
                    property TEXT NOT NULL CHECK (property IN ('name', 'body')),
                    stamp TEXT NOT NULL,
                    origin TEXT NOT NULL CHECK (origin IN ('edit', 'restore', 'conflict')),
                    bases TEXT,
                    restored TEXT,
                    device_name TEXT,
                    context TEXT,
                    head INTEGER NOT NULL,
                    size INTEGER NOT NULL,
                    delta_of TEXT,
                    depth INTEGER NOT NULL,
                    content BLOB NOT NULL,
                    PRIMARY KEY (object, property, stamp)
                ) WITHOUT ROWID;
                CREATE INDEX version_head ON version(object, property) WHERE head;
                CREATE TABLE conflict (
                    object TEXT NOT NULL,
                    property TEXT NOT NULL,
                    loser TEXT NOT NULL,
                    winner TEXT NOT NULL,
                    copy TEXT,
                    PRIMARY KEY (object, property, loser)
                ) WITHOUT ROWID;
                ALTER TABLE outbox ADD COLUMN history TEXT;
                ALTER TABLE tombstone ADD COLUMN seen TEXT;
                ALTER TABLE tombstone ADD COLUMN state TEXT;
                CREATE TABLE knowledge (
                    device TEXT PRIMARY KEY NOT NULL,
                    clock INTEGER NOT NULL
                ) WITHOUT ROWID;
                INSERT INTO version (object, property, stamp, origin, head, size, depth, content)
                    SELECT id, 'name', COALESCE(json_extract(stamps, '$.name'), json_extract(stamps, '$."*"')),
                        'edit', 1, length(CAST(name AS BLOB)), 0, CAST(name AS BLOB)
                    FROM item WHERE COALESCE(json_extract(stamps, '$.name'), json_extract(stamps, '$."*"')) IS NOT NULL;
                INSERT INTO version (object, property, stamp, origin, context, head, size, depth, content)
                    SELECT id, 'body', COALESCE(json_extract(stamps, '$.body'), json_extract(stamps, '$."*"')),
                        'edit', json_object('name', name, 'parent', parent), \
                1, length(CAST(body AS BLOB)), 0, CAST(body AS BLOB)
                    FROM item WHERE kind = 'note' \
                AND COALESCE(json_extract(stamps, '$.body'), json_extract(stamps, '$."*"')) IS NOT NULL;
                UPDATE metadata SET value = '4' WHERE key = 'model_version';
                """)
        try recordKnowledge(db)
    }

    /// Version 5: tags, and merges on merged bases. `tag` holds the dots of each tag on each item:
    /// the stamp of the save that added it (a tag is on the item while one of its dots is);
    /// `tag_removal`, per item, tag and device, the greatest clock of that device's dots a removal
    /// of the tag had seen. Neither refers to `item`: tags merge whether or not the item is there
    /// (a purged item a change brings back has its tags), as tombstones do. `version.from_merge`
    /// marks a body edited from several heads by a build that merges two such versions on the merge
    /// of their common versions (docs/sync-format.md, "History").
    private static func addTags(_ db: Database) throws {
        try db.execute(
            sql: """
                CREATE TABLE tag (
                    item TEXT NOT NULL,
                    name TEXT NOT NULL CHECK (length(name) >= 1),
                    stamp TEXT NOT NULL,
                    PRIMARY KEY (item, name, stamp)
                ) WITHOUT ROWID;
                CREATE INDEX tag_on_name ON tag(name, item);
                CREATE TABLE tag_removal (
                    item TEXT NOT NULL,
                    name TEXT NOT NULL,
                    device TEXT NOT NULL,
                    clock INTEGER NOT NULL,
                    PRIMARY KEY (item, name, device)
                ) WITHOUT ROWID;
                ALTER TABLE version ADD COLUMN from_merge INTEGER NOT NULL DEFAULT 0;
                UPDATE metadata SET value = '5' WHERE key = 'model_version';
                """)
    }

    /// What a store of version 3 had seen of each device, as far as its stamps tell: the
    /// greatest clock of each device among the stamps it keeps.
    private static func recordKnowledge(_ db: Database) throws {
        var clocks: [String: UInt64] = [:]
        for table in ["item", "attachment"] {
            for json in try String.fetchAll(db, sql: "SELECT stamps FROM \(table)") {
                for stamp in Replica.stamps(json).values {
                    clocks[stamp.device.storeString] = max(clocks[stamp.device.storeString] ?? 0, stamp.clock)
                }
            }
        }
        for text in try String.fetchAll(db, sql: "SELECT stamp FROM tombstone") {
            guard let stamp = ChangeStamp(text: text) else { continue }
            clocks[stamp.device.storeString] = max(clocks[stamp.device.storeString] ?? 0, stamp.clock)
        }
        for (device, clock) in clocks {
            try db.execute(
                literal: "INSERT INTO knowledge(device, clock) VALUES (\(device), \(Int64(bitPattern: clock)))")
        }
    }
}
