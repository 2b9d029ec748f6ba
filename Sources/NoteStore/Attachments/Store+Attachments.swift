import Foundation
import GRDB

extension Store {
    var blobs: BlobStore { BlobStore(storeFolder: folder) }

    /// Attaches image files to a note, all or none: if one file is refused, nothing is kept
    /// (no row, no blob).
    ///
    /// Format and dimensions come from the bytes, never from the file's name. A file over
    /// 50 MB, one that is not a whole PNG, JPEG, GIF or WebP image, or an image over
    /// 500 megapixels is refused.
    public func attachImages(_ files: [URL], to noteID: UUID, caption: String? = nil) throws -> [Attachment] {
        let note = try attachableNote(noteID)
        let now = wallClock.storeNow()
        let prepared = try files.map { file in
            let (attachment, data) = try Attachment.prepare(file, for: note, caption: caption, now: now)
            return (attachment, AttachedFile.Bytes.data(data))
        }
        return try insertAttachments(prepared, now: now)
    }

    /// Attaches files of any kind to a note, all or none: if one file is refused, nothing is
    /// kept (no row, no blob).
    ///
    /// A file that starts as a PNG, JPEG, GIF or WebP image is an image, checked as
    /// ``attachImages(_:to:caption:)`` checks it (refused when it is not a whole one, over
    /// 50 MB or over 500 megapixels). An SVG (by its first element, or its name) must be
    /// well-formed XML with an `svg` root, and has the size its `width` and `height` say. Any
    /// other file is kept as opaque bytes, with a media type sniffed from its content and its
    /// extension as a hint. Files other than images are streamed into the store in bounded
    /// memory, never read whole; a file of more than `limit` bytes (at most
    /// ``Attachment/maximumFileBytes``) is refused.
    public func attach(
        _ files: [URL], to noteID: UUID, caption: String? = nil, limit: Int64 = Attachment.defaultFileLimit
    ) throws -> [Attachment] {
        let note = try attachableNote(noteID)
        let now = wallClock.storeNow()
        let limit = min(limit, Attachment.maximumFileBytes)
        var prepared: [(Attachment, AttachedFile.Bytes)] = []
        defer { Self.removeTemporaries(prepared.map(\.1)) }
        for file in files {
            prepared.append(
                try AttachedFile.prepare(file, for: note, caption: caption, limit: limit, now: now, blobs: blobs))
        }
        return try insertAttachments(prepared, now: now)
    }

    private func attachableNote(_ noteID: UUID) throws -> Item {
        let note = try item(noteID, includingBody: false)
        guard note.isNote else {
            throw StoreError.invalidOperation(item: note.label, reason: "a collection has no attachments")
        }
        guard !note.isTrashed else {
            throw StoreError.invalidOperation(item: note.label, reason: "it is in the trash")
        }
        return note
    }

    private func insertAttachments(_ prepared: [(Attachment, AttachedFile.Bytes)], now: Date) throws -> [Attachment] {
        do {
            try write { db in
                try SaveWriter.writing(db, now: now, device: deviceID) { writer in
                    try writer.begin()
                    for (attachment, bytes) in prepared {
                        // Written inside the transaction: a concurrent release of the same blob
                        // waits for it, and then sees the new reference.
                        try writeBlob(bytes, sha256: attachment.sha256)
                        try writer.insert(attachment)
                    }
                    try writer.finish()
                }
            }
        } catch {
            try? releaseBlobs(prepared.map(\.0.sha256))
            throw error
        }
        return prepared.map(\.0)
    }

    /// Removes the temporary files of prepared bytes.
    static func removeTemporaries(_ bytes: [AttachedFile.Bytes]) {
        for case let .temporary(path) in bytes { unlink(path) }
    }

    /// Puts the bytes of many attachments in place: one by one when there is one, else with
    /// one wait for the disk (``BlobStore/putAll(_:)``).
    func writeBlobs(_ staged: [(bytes: AttachedFile.Bytes, sha256: String)]) throws {
        guard staged.count > 1 else {
            for (bytes, sha256) in staged { try writeBlob(bytes, sha256: sha256) }
            return
        }
        do {
            try blobs.putAll(
                staged.map { bytes, sha256 in
                    switch bytes {
                    case let .data(data): return (.data(data), sha256)
                    case let .temporary(path): return (.temporary(path), sha256)
                    }
                })
        } catch BlobError.io(let path, let reason) {
            throw StoreError.cannotOpen(path: path, reason: reason)
        }
    }

    func writeBlob(_ bytes: AttachedFile.Bytes, sha256: String) throws {
        do {
            switch bytes {
            case let .data(data): try blobs.write(data, sha256: sha256)
            case let .temporary(path): try blobs.link(path, sha256: sha256)
            }
        } catch BlobError.io(let path, let reason) {
            throw StoreError.cannotOpen(path: path, reason: reason)
        }
    }

    func writeBlob(_ data: Data, sha256: String) throws {
        do {
            try blobs.write(data, sha256: sha256)
        } catch BlobError.io(let path, let reason) {
            throw StoreError.cannotOpen(path: path, reason: reason)
        }
    }

    /// The attachments of a note, oldest first.
    public func attachments(of note: UUID) throws -> [Attachment] {
        try read { db in try Attachment.fetchAll(db, note: note) }
    }

    /// Whether the store holds the bytes of an attachment. An attachment that came by sync
    /// while its blob could not be had (missing or damaged in the cloud folder) waits for
    /// them until sync fetches them.
    public func hasBytes(of attachment: Attachment) -> Bool {
        blobs.exists(attachment.sha256)
    }

    /// The blobs that attachments use, sorted.
    public func blobsInUse() throws -> [String] {
        try read { db in
            try String.fetchAll(
                db.cachedStatement(
                    sql: "SELECT sha256 FROM attachment UNION SELECT sha256 FROM file_attachment ORDER BY sha256"))
        }
    }

    /// The blobs that attachments use and that the store does not hold, sorted: the bytes
    /// those attachments wait for.
    public func blobsWithoutBytes() throws -> [String] {
        try blobsInUse().filter { !blobs.exists($0) }
    }

    /// The attachment with this id, or nil.
    public func attachment(_ id: UUID) throws -> Attachment? {
        try read { db in try Attachment.fetchOne(db, id: id) }
    }

    /// Finds an attachment by its full id or a unique id prefix of at least four characters.
    public func resolveAttachment(_ reference: String) throws -> Attachment {
        let text = reference.trimmingCharacters(in: .whitespaces).lowercased()
        guard text.count >= Self.minimumIDPrefix, text.allSatisfy({ $0.isHexDigit || $0 == "-" }) else {
            throw StoreError.unknownAttachment(reference)
        }
        let found = try read { db in
            try SQLRequest<Attachment>(
                literal: """
                    SELECT \(sql: Attachment.columns) FROM \(sql: Attachment.source)
                    WHERE id >= \(text) AND id < \(text + "~") LIMIT 11
                    """
            ).fetchAll(db)
        }
        guard found.count <= 1 else {
            throw StoreError.ambiguousAttachment(reference, candidates: found.map(\.id))
        }
        guard let attachment = found.first else { throw StoreError.unknownAttachment(reference) }
        return attachment
    }

    /// Removes an attachment; its blob goes once no attachment references it.
    public func detach(_ id: UUID) throws {
        try write { db in
            try SaveWriter.writing(db, now: wallClock.storeNow(), device: deviceID) { writer in
                try writer.begin()
                guard let found = try Attachment.fetchOne(db, id: id) else {
                    throw StoreError.unknownAttachment(id.storeString)
                }
                try writer.delete([found])
                try writer.finish()
            }
        }
        try releaseBlobs()
    }

    /// The path of an attachment's bytes in the store, for reading them a chunk at a time
    /// (``copyBytes(of:to:)``); they are not checked here.
    public func blobPath(of attachment: Attachment) -> String {
        blobs.path(for: attachment.sha256)
    }

    /// Writes the original bytes of an attachment into the new file `destination`, a chunk at a
    /// time, checked against their hash on the way: nothing is left at `destination` when they
    /// are missing or damaged, or cannot be written.
    public func copyBytes(of attachment: Attachment, to destination: URL) throws {
        let source = blobs.path(for: attachment.sha256)
        guard FileManager.default.fileExists(atPath: source) else {
            throw StoreError.blob(
                attachment: attachment.id, problem: "its bytes are missing (blobs/\(attachment.sha256))")
        }
        switch BlobCopy.copy(source, to: destination.path, expecting: attachment.sha256) {
        case .copied: return
        case .damaged:
            throw StoreError.blob(
                attachment: attachment.id,
                problem: "its bytes are damaged (blobs/\(attachment.sha256) does not match its hash)")
        case let .failed(path, reason):
            throw StoreError.cannotOpen(path: path, reason: reason)
        }
    }

    /// Writes the original bytes of an attachment to the open file `fd` (at `path`, for
    /// messages), a chunk at a time, checked against their hash: throws when they are missing
    /// or damaged (what was written then is not the attachment's).
    public func writeBytes(of attachment: Attachment, to fd: Int32, path: String) throws {
        let source = blobs.path(for: attachment.sha256)
        let input = open(source, O_RDONLY | O_CLOEXEC)
        guard input >= 0 else {
            throw StoreError.blob(
                attachment: attachment.id, problem: "its bytes are missing (blobs/\(attachment.sha256))")
        }
        defer { close(input) }
        switch BlobCopy.copy(from: input, to: fd, expecting: attachment.sha256) {
        case .copied: return
        case .damaged:
            throw StoreError.blob(
                attachment: attachment.id,
                problem: "its bytes are damaged (blobs/\(attachment.sha256) does not match its hash)")
        case let .failed(_, reason):
            throw StoreError.cannotOpen(path: path, reason: reason)
        }
    }

    /// The original bytes of an attachment, checked against their hash: damaged bytes are
    /// never handed out.
    public func data(of attachment: Attachment) throws -> Data {
        do {
            return try blobs.read(attachment.sha256)
        } catch BlobError.missing {
            throw StoreError.blob(
                attachment: attachment.id, problem: "its bytes are missing (blobs/\(attachment.sha256))")
        } catch {
            throw StoreError.blob(
                attachment: attachment.id,
                problem: "its bytes are damaged (blobs/\(attachment.sha256) does not match its hash)")
        }
    }

    /// Removes the blobs marked for release (and `candidates`) that no attachment references.
    ///
    /// Runs in an immediate transaction, so that an attach of the same bytes in another
    /// process either comes first (and keeps the blob) or after (and writes it again).
    func releaseBlobs(_ candidates: [String] = []) throws {
        try write { db in
            let marked = try String.fetchAll(db, sql: "SELECT sha256 FROM blob_release")
            for sha256 in Set(marked + candidates) {
                let used =
                    try SQLRequest<Bool>(
                        literal: """
                            SELECT EXISTS (SELECT 1 FROM attachment WHERE sha256 = \(sha256))
                                OR EXISTS (SELECT 1 FROM file_attachment WHERE sha256 = \(sha256))
                            """
                    ).fetchOne(db) ?? true
                if !used { blobs.remove(sha256) }
            }
            try db.execute(sql: "DELETE FROM blob_release")
        }
    }
}
