import GRDB

extension StoreSchema {
    /// The name of the migration that keeps long contents of history apart from their lines.
    static let historyTextsMigration = "history texts"

    /// `history_text`: the contents of versions of ``VersionStorage/apartBytes`` or more, one
    /// row each, which their lines name (docs/sync-format.md, "History in the store"). Not a
    /// model version: a baseline puts them back into their lines and leaves the table out, with
    /// the record of this migration. A line that holds such a content already moves it here
    /// when it is next written.
    static func addHistoryTexts(_ db: Database) throws {
        try db.execute(
            sql: """
                CREATE TABLE history_text (
                    object BLOB NOT NULL,
                    property INTEGER NOT NULL,
                    stamp BLOB NOT NULL,
                    content BLOB NOT NULL,
                    PRIMARY KEY (object, property, stamp)
                );
                """)
    }
}
