import GRDB

extension StoreSchema {
    /// The name of the migration that adds the listing index.
    static let listingIndexMigration = "listing index"

    /// The listing index (``ListingIndex``), derived, as the trigram index. A store that has a
    /// device id (one that a build before the index made) gets it here, once, whatever its
    /// size. A store made from a baseline has none yet when it migrates: past
    /// ``buildAtOnceLimit`` items, the index is recorded as still to be made, and `notes watch`
    /// makes it, so that joining stays as fast as the copy of the baseline.
    static func addListingIndex(_ db: Database) throws {
        let fromBaseline = try !Bool.fetchOne(
            db, sql: "SELECT EXISTS (SELECT 1 FROM metadata WHERE key = 'device_id')")!
        if fromBaseline, try buildsInParts(db) {
            try ListingIndex.markPending(db)
        } else {
            try ListingIndex.create(db)
        }
    }
}
