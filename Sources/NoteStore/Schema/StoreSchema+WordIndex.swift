import GRDB

extension StoreSchema {
    /// The name of the migration that gives the word index a larger ``SearchIndex/hashSize``.
    static let wordIndexHashSizeMigration = "word index hash size"

    /// The word index gathers more of a transaction's tokens in memory before writing them
    /// (``SearchIndex/hashSize``); the trigram index is made so (``TrigramIndex/create(_:)``).
    static func enlargeWordIndexHash(_ db: Database) throws {
        try SearchIndex.setHashSize(of: "item_fts", db)
    }
}
