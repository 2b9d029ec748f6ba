import GRDB

extension StoreSchema {
    /// The name of the migration that adds the trigram index.
    static let trigramsMigration = "trigrams"

    /// The trigram index (``TrigramIndex``), derived from the store and never synced, as the
    /// link index is: a baseline leaves it out, with the record of this migration, and a store
    /// made from one builds it when it opens. Filled here from every item.
    static func addTrigramIndex(_ db: Database) throws {
        try TrigramIndex.create(db)
        try TrigramIndex.rebuild(db)
    }
}
