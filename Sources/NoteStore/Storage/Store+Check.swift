import Foundation
import GRDB

/// What ``Store/inspect()`` found: damage, which loses or hides data, apart from leftovers of
/// work that was interrupted, which only take room.
public struct StoreInspection: Sendable {
    /// One line per problem with the data: the database, a missing or damaged blob.
    public var damage: [String] = []
    /// One line per attachment whose bytes sync has not fetched yet (``SyncSnapshot/awaitedBlobs``):
    /// neither damage nor a leftover, since they arrive once a device publishes them again.
    public var waiting: [String] = []
    /// One line per leftover: an orphan blob (no attachment references it) or a temporary
    /// file, which ``Store/removeLeftovers()`` removes.
    public var leftovers: [String] = []
}

extension Store {
    /// Verifies the store and returns one line per problem, damage then leftovers; an empty
    /// list means all is well. See ``inspect()``.
    public func check() throws -> [String] {
        let inspection = try inspect()
        return inspection.damage + inspection.leftovers
    }

    /// Verifies the store, telling damage from leftovers.
    ///
    /// Damage: SQLite's integrity and foreign keys (https://sqlite.org/pragma.html#pragma_integrity_check),
    /// the full-text index, and every attachment's blob present and matching its hash.
    /// Leftovers: files in `blobs/` that no attachment references (a sync or an import stopped
    /// between writing the bytes and the rows), and temporary files.
    public func inspect() throws -> StoreInspection {
        var inspection = StoreInspection(damage: try databaseProblems())
        let attachments = try read { db in
            try Attachment.fetchAll(db, sql: "SELECT \(Attachment.columns) FROM \(Attachment.source) ORDER BY sha256")
        }
        // The blobs that sync looked for in the cloud folder and could not have (missing or
        // damaged there): their attachments wait.
        let awaited = try syncSnapshot().awaitedBlobs
        var referenced: Set<String> = []
        for attachment in attachments where referenced.insert(attachment.sha256).inserted {
            do {
                // Hashed a chunk at a time: a file attachment may be larger than memory.
                try blobs.verify(attachment.sha256)
            } catch BlobError.missing where awaited.contains(attachment.sha256) {
                inspection.waiting.append(
                    "waiting: blobs/\(attachment.sha256) of attachment \(attachment.id.storeString): "
                        + "its bytes are not in the cloud folder yet"
                )
            } catch BlobError.missing {
                inspection.damage.append(
                    "missing blob: blobs/\(attachment.sha256) of attachment \(attachment.id.storeString)")
            } catch {
                inspection.damage.append(
                    "damaged blob: blobs/\(attachment.sha256) of attachment \(attachment.id.storeString) "
                        + "does not match its hash"
                )
            }
        }
        for name in blobs.names().sorted() where !referenced.contains(name) {
            if name.hasPrefix(BlobStore.temporaryPrefix) {
                inspection.leftovers.append("leftover: blobs/\(name): a temporary file")
            } else {
                inspection.leftovers.append("leftover: blobs/\(name): an orphan blob, referenced by no attachment")
            }
        }
        return inspection
    }

    /// Removes the leftovers ``inspect()`` reports: the files in `blobs/` that no attachment
    /// references, but the temporary files of live processes (a blob being written); returns
    /// how many it removed.
    ///
    /// Runs in a write transaction, so that a save, which writes its blobs inside its
    /// transaction, comes wholly before or after. A sync writes the blobs of the logs it
    /// imports before the transaction that references them: the caller keeps syncs out
    /// meanwhile (`SyncEngine.removeLeftovers()`).
    public func removeLeftovers() throws -> Int {
        try write { db in
            let referenced = Set(
                try String.fetchAll(db, sql: "SELECT sha256 FROM attachment UNION SELECT sha256 FROM file_attachment"))
            var removed = blobs.removeStaleTemporaryFiles().count
            for name in blobs.names() where !referenced.contains(name) && !name.hasPrefix(BlobStore.temporaryPrefix) {
                if blobs.removeFile(name) { removed += 1 }
            }
            return removed
        }
    }

    /// Builds the full-text indexes again from the items: the word index, the parts of long
    /// bodies (``BodyParts``) and the trigram index (``TrigramIndex``), all derived from the
    /// items; and makes the listing index (``ListingIndex``) if it is still to be made.
    /// `notes check --repair`.
    public func rebuildSearchIndexes() throws {
        try write { db in
            try ListingIndex.createIfPending(db)
            try db.execute(sql: "INSERT INTO item_fts(item_fts) VALUES ('rebuild')")
            if try BodyParts.exist(db) {
                try BodyParts.removeAll(db)
                try BodyParts.partLongBodies(trigrams: false, db)
            }
            try TrigramIndex.rebuild(db)
        }
    }

    private func databaseProblems() throws -> [String] {
        try write { db in
            var problems = try String.fetchAll(db, sql: "PRAGMA integrity_check")
                .filter { $0 != "ok" }
                .map { "database: \($0)" }
            for row in try Row.fetchAll(db, sql: "PRAGMA foreign_key_check") {
                let table: String = row["table"]
                let parent: String = row["parent"]
                problems.append("database: a row of '\(table)' refers to a missing row of '\(parent)'")
            }
            // FTS5 compares the word index with the items, where each entry holds its item's
            // text whole: the entries of parted bodies are made so for the check, and undone.
            var matches = true
            try db.inSavepoint {
                try BodyParts.indexWhole(db)
                do {
                    try db.execute(sql: "INSERT INTO item_fts(item_fts, rank) VALUES ('integrity-check', 1)")
                } catch {
                    matches = false
                }
                return .rollback
            }
            let partsMatch = try BodyParts.matchItems(db)
            if !matches || !partsMatch {
                problems.append("database: the full-text index does not match the items")
            }
            if try !LinkIndex.matchesItems(db) {
                problems.append(
                    "database: the link index does not match the notes: 'notes check --repair' builds it again")
            }
            if try !VersionStorage.apartTextsMatchLines(db) {
                problems.append("database: the long texts of history do not match its lines")
            }
            if try !TrigramIndex.matchesItems(db) {
                problems.append(
                    "database: the trigram index does not match the items: 'notes check --repair' builds it again")
            }
            return problems
        }
    }
}
