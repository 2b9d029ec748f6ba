import GRDB

extension StoreSchema {
    /// The name of the migration that adds the trigram index.
    static let trigramsMigration = "trigrams"
    /// The name of the migration that makes the trigram index one without positions.
    static let trigramsWithoutPositionsMigration = "trigrams without positions"

    /// The trigram index (``TrigramIndex``), derived from the store and never synced, as the
    /// link index is: a baseline leaves it out, with the record of this migration, and a store
    /// made from one gets it when it opens. Filled here from every item, or, past
    /// ``buildAtOnceLimit`` items, built a part at a time later.
    static func addTrigramIndex(_ db: Database) throws {
        try TrigramIndex.create(db)
        if try buildsInParts(db) {
            try TrigramIndex.startBuilding(db)
        } else {
            try TrigramIndex.rebuild(db)
        }
    }

    /// A trigram index made with positions (`detail = 'full'`, by builds before the index went
    /// without them) is made again without them, as ``addTrigramIndex(_:)`` makes it: at once,
    /// or a part at a time past ``buildAtOnceLimit`` items. One made by
    /// ``addTrigramIndex(_:)`` already is left as it is.
    static func dropTrigramPositions(_ db: Database) throws {
        let made = try String.fetchOne(
            db, sql: "SELECT sql FROM sqlite_master WHERE name = ?", arguments: [TrigramIndex.table])
        guard let made, !made.contains("detail = 'none'") else { return }
        try db.execute(sql: "DROP TABLE \(TrigramIndex.vocabulary); DROP TABLE \(TrigramIndex.table)")
        try addTrigramIndex(db)
    }
}
