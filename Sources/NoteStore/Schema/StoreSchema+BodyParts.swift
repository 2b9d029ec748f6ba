import GRDB

extension StoreSchema {
    /// The name of the migration that indexes long bodies in parts.
    static let bodyPartsMigration = "body parts"

    /// The tables of parts (``BodyParts``), derived as the trigram index is: a baseline
    /// leaves them out, with the record of this migration, and holds each entry of the word
    /// index whole; a store made from one parts its long bodies when it opens, as a store
    /// that had them whole does here.
    static func addBodyParts(_ db: Database) throws {
        try BodyParts.create(db)
        try BodyParts.partLongBodies(db)
    }
}
