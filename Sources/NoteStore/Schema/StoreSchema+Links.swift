import GRDB

extension StoreSchema {
    /// The name of the migration that adds the link index.
    static let linksMigration = "links"

    /// The indexes of the link index's tables by key, which its rebuild makes again after
    /// the rows (``LinkIndex/rebuild(_:)``).
    static let linkKeyIndex = "CREATE INDEX link_on_key ON link(key)"
    static let linkNameKeyIndex = "CREATE INDEX link_name_on_key ON link_name(key, until)"

    /// The link index (docs/links.md), derived from the store and never synced: `link`, the
    /// links of each note's body as written (its target, where it is), and `link_name`, the
    /// names that links resolve by, each folded, for each note: its current name, and the
    /// names it had before with the stamp of the version that replaced each, so that a link to
    /// an old name still reaches its note. Filled here from every note, or, past
    /// ``buildAtOnceLimit`` items (a store made from a baseline of many notes),
    /// built a part at a time later, as the trigram index is.
    static func addLinkIndex(_ db: Database) throws {
        try db.execute(
            sql: """
                CREATE TABLE link (
                    source TEXT NOT NULL REFERENCES item(id) ON DELETE CASCADE,
                    position INTEGER NOT NULL,
                    line INTEGER NOT NULL,
                    kind TEXT NOT NULL CHECK (kind IN ('wiki', 'embed', 'markdown')),
                    target TEXT NOT NULL,
                    fragment TEXT,
                    display TEXT,
                    key TEXT NOT NULL,
                    PRIMARY KEY (source, position)
                ) WITHOUT ROWID;
                \(linkKeyIndex);
                CREATE TABLE link_name (
                    item TEXT NOT NULL REFERENCES item(id) ON DELETE CASCADE,
                    key TEXT NOT NULL,
                    until TEXT NOT NULL,
                    PRIMARY KEY (item, key)
                ) WITHOUT ROWID;
                \(linkNameKeyIndex);
                """)
        if try buildsInParts(db) {
            try LinkIndex.startBuilding(db)
        } else {
            try LinkIndex.rebuild(db)
        }
    }
}
