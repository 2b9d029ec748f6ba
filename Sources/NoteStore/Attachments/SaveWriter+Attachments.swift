import Foundation
import GRDB

extension SaveWriter {
    /// Inserts an attachment row and records it in the outbox, with the blob's hash so that
    /// sync can publish the blob before the log that needs it.
    mutating func insert(_ attachment: Attachment) throws {
        // Cached statements with placeholders: an import inserts many attachments through them.
        if attachment.kind == .image {
            let statement = try db.cachedStatement(
                sql: """
                    INSERT INTO attachment (\(Attachment.imageColumns), stamps) \
                    VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
                    """
            )
            try statement.execute(arguments: [
                attachment.id.storeString, attachment.kind.rawValue, attachment.note.storeString,
                attachment.sha256, attachment.format?.rawValue, attachment.width, attachment.height,
                attachment.bytes, attachment.caption, attachment.created.storeMilliseconds, insertionStamps,
            ])
        } else {
            let statement = try db.cachedStatement(
                sql: """
                    INSERT INTO file_attachment (\(Attachment.fileColumns), stamps) \
                    VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
                    """
            )
            try statement.execute(arguments: [
                attachment.id.storeString, attachment.note.storeString, attachment.sha256, attachment.mediaType,
                attachment.fileName, attachment.width, attachment.height, attachment.bytes, attachment.caption,
                attachment.created.storeMilliseconds, insertionStamps,
            ])
        }
        outbox.record(.insert, entity: attachment.entity, object: attachment.id, changes: attachment.insertionChanges)
        attached.append(attachment.id)
    }

    /// Deletes attachments, records each deletion, and marks their blobs for release once
    /// the save has committed.
    mutating func delete(_ attachments: [Attachment]) throws {
        for attachment in attachments {
            try db.execute(
                literal:
                    "DELETE FROM \(sql: Attachment.table(of: attachment.kind)) WHERE id = \(attachment.id.storeString)")
            try db.execute(literal: "INSERT OR IGNORE INTO blob_release(sha256) VALUES (\(attachment.sha256))")
            try recordTombstone(
                attachment.id, entity: attachment.entity, state: TombstoneRecord.attachmentState(note: attachment.note))
            var changes = OutboxChanges()
            changes.set("note", .id(attachment.note))
            changes.set("sha256", .text(attachment.sha256))
            outbox.record(.delete, entity: attachment.entity, object: attachment.id, changes: changes)
            detached.append(attachment.id)
        }
    }

    /// Deletes the attachments of notes that are being purged.
    mutating func deleteAttachments(ofNotes ids: [String]) throws {
        var attachments: [Attachment] = []
        try IDList.forEachChunk(of: ids) { chunk in
            attachments += try SQLRequest<Attachment>(
                literal: "SELECT \(sql: Attachment.columns) FROM \(sql: Attachment.source) WHERE note IN \(chunk)"
            ).fetchAll(db)
        }
        try delete(attachments)
    }

    /// Keeps the purge of an object, so that sync never brings back what it had seen; for a
    /// note or collection, with what it had seen and its state.
    mutating func recordTombstone(_ object: UUID, entity: Entity, seen: [UUID: UInt64]? = nil, state: String? = nil)
        throws
    {
        guard entity.isItem else {
            try db.execute(
                literal: """
                    INSERT OR REPLACE INTO tombstone(object, entity, stamp, state)
                    VALUES (\(object.storeString), \(entity.rawValue), \(stamp.text), \(state))
                    """)
            return
        }
        // Joined with the purges of it seen before (an item kept for a change they had not seen).
        try Replica(db: db).recordPurge(of: object, entity: entity, stamp: stamp, seen: seen)
        if let state {
            try db.execute(literal: "UPDATE tombstone SET state = \(state) WHERE object = \(object.storeString)")
        }
    }
}
