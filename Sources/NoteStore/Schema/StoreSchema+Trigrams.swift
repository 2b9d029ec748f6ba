import GRDB

extension StoreSchema {
    /// The name of the migration that adds the trigram index.
    static let trigramsMigration = "trigrams"

    /// The trigram index (``TrigramIndex``), derived from the store and never synced, as the
    /// link index is: a baseline leaves it out, with the record of this migration, and a store
    /// made from one gets it when it opens. Filled here from every item, or, past
    /// ``TrigramIndex/buildAtOnceLimit`` items, built a part at a time later.
    static func addTrigramIndex(_ db: Database) throws {
        try TrigramIndex.create(db)
        let items = try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM item") ?? 0
        if items > TrigramIndex.buildAtOnceLimit {
            try TrigramIndex.startBuilding(db)
        } else {
            try TrigramIndex.rebuild(db)
        }
    }
}
