import GRDB

/// The index that a listing reads alone: every column of ``ItemFilter/columns(includingBody:)``
/// but the body, keyed by collection and name, so that the contents of a collection are read
/// from a few neighbouring pages of the index rather than from a page of the table for each
/// item (their rows lie wherever their notes were saved, each with its body).
///
/// It is derived, as the trigram index: a baseline leaves it out, and a store made from one of
/// more than ``StoreSchema/buildAtOnceLimit`` items makes it later, when `notes watch` or
/// `notes check --repair` runs (``Store/buildListingIndex()``), in one statement that holds the
/// store for a moment (about 0.3 s at 100,000 items). Until then a listing reads the table's
/// rows through `item_on_parent`.
enum ListingIndex {
    static let name = "item_listing"
    /// Recorded in `metadata` while the index is still to be made.
    static let buildKey = "listing_index_pending"

    static func create(_ db: Database) throws {
        try db.execute(
            sql: """
                CREATE INDEX IF NOT EXISTS \(name) ON item(parent, name, kind, created, modified, trashed, id);
                DELETE FROM metadata WHERE key = '\(buildKey)';
                """)
    }

    static func markPending(_ db: Database) throws {
        try db.execute(sql: "INSERT OR REPLACE INTO metadata(key, value) VALUES ('\(buildKey)', '1')")
    }

    /// Makes the index if it is still to be made.
    static func createIfPending(_ db: Database) throws {
        if try isPending(db) { try create(db) }
    }

    static func isPending(_ db: Database) throws -> Bool {
        try Bool.fetchOne(db, sql: "SELECT EXISTS (SELECT 1 FROM metadata WHERE key = '\(buildKey)')")!
    }
}

extension Store {
    /// Whether the listing index is still to be made (``ListingIndex``): a store made from a
    /// baseline of many items makes it after it opens.
    public func isListingIndexPending() throws -> Bool {
        try read { db in try ListingIndex.isPending(db) }
    }

    /// Makes the listing index, when it is still to be made, in one transaction that a power
    /// cut may undo (the index is derived, and is made again).
    public func buildListingIndex() throws {
        try write(durable: false, ListingIndex.createIfPending)
    }
}
