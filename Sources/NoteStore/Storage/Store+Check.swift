import Foundation
import GRDB

extension Store {
    /// Verifies the store and returns one line per problem; an empty list means all is well.
    ///
    /// Checks SQLite's integrity and foreign keys (https://sqlite.org/pragma.html#pragma_integrity_check),
    /// the full-text index, that every attachment's blob is present and matches its hash, and
    /// that no blob lies in `blobs/` without an attachment.
    public func check() throws -> [String] {
        var problems = try databaseProblems()
        let attachments = try read { db in
            try Attachment.fetchAll(db, sql: "SELECT \(Attachment.columns) FROM attachment ORDER BY sha256", arguments: [])
        }
        var referenced: Set<String> = []
        for attachment in attachments where referenced.insert(attachment.sha256).inserted {
            do {
                _ = try blobs.read(attachment.sha256)
            } catch BlobError.missing {
                problems.append("missing blob: blobs/\(attachment.sha256) of attachment \(attachment.id.storeString)")
            } catch {
                problems.append(
                    "damaged blob: blobs/\(attachment.sha256) of attachment \(attachment.id.storeString) does not match its hash")
            }
        }
        for name in blobs.names().sorted() where !referenced.contains(name) {
            if name.hasPrefix(BlobStore.temporaryPrefix) {
                problems.append("leftover temporary file: blobs/\(name)")
            } else {
                problems.append("orphan blob: blobs/\(name) is not referenced by any attachment")
            }
        }
        return problems
    }

    private func databaseProblems() throws -> [String] {
        try write { db in
            var problems = try String.fetchAll(db, sql: "PRAGMA integrity_check")
                .filter { $0 != "ok" }
                .map { "database: \($0)" }
            for row in try Row.fetchAll(db, sql: "PRAGMA foreign_key_check") {
                let table: String = row[0]
                let parent: String = row[2]
                problems.append("database: a row of '\(table)' refers to a missing row of '\(parent)'")
            }
            do {
                try db.execute(sql: "INSERT INTO item_fts(item_fts, rank) VALUES ('integrity-check', 1)")
            } catch {
                problems.append("database: the full-text index does not match the items")
            }
            return problems
        }
    }
}
