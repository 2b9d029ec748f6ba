import Crypto
import Foundation
import NoteFiles
import NoteStore

/// Attachment bytes, content-addressed: `blobs/<sha256>`.
///
/// A blob is published before any log that references it, created exclusively (a blob of
/// that name is the same bytes, so there is nothing to do when it exists) and verified against
/// its name whenever it is read: a damaged blob is an error, never imported.
extension CloudContainer {
    /// The most bytes a blob may have: the largest file attachment any store accepts.
    public static let blobSizeLimit = Int(Attachment.maximumFileBytes)

    /// The SHA-256 of `data`, in 64 lowercase hex digits, as blobs are named.
    public static func sha256(of data: Data) -> String {
        HexText.lowercase(SHA256.hash(data: data))
    }

    /// The names of the blobs in `blobs/`, sorted, and the files that were skipped: their
    /// SHA-256 in a plain container, ``blobFileName(_:)`` of it in an encrypted one.
    ///
    /// Skipped and reported: names that are not 64 lowercase hex digits, links, folders and
    /// other non-files. Names starting with `.` are ignored. Contents are not verified here
    /// (``readBlob(_:limit:)`` does).
    public func blobs() throws(SyncError) -> (blobs: [String], skipped: [SkippedFile]) {
        var blobs: [String] = []
        var skipped: [SkippedFile] = []
        for entry in try visibleEntries(of: CloudName.blobs) {
            let reason = BlobName.isValid(entry.name) ? SkippedFile.Reason(entry, expected: .file) : .badlyNamed
            if let reason {
                skipped.append(SkippedFile(path: CloudName.blobs + "/" + entry.name, reason: reason))
            } else {
                blobs.append(entry.name)
            }
        }
        return (blobs, skipped)
    }

    /// Whether a blob of that name is in the container as a regular file. Throws when that
    /// cannot be known.
    public func hasBlob(_ sha256: String) throws(SyncError) -> Bool {
        try CloudName.requireSHA256(sha256)
        do {
            return try fileSystem.entry(at: path(blobPath(sha256))).kind == .file
        } catch {
            if case .missing = error { return false }
            throw error
        }
    }

    /// Publishes a blob unless it is there already.
    ///
    /// The bytes are checked against `sha256` before anything is written. The blob is created
    /// exclusively (a file without a name or a temporary file, fsync, `link(2)`), so two
    /// devices publishing one blob at once leave one whole file. `blobs/` is never made here.
    public func publishBlob(_ data: Data, sha256: String) throws(SyncError) {
        try CloudName.requireSHA256(sha256)
        let relative = blobPath(sha256)
        guard Self.sha256(of: data) == sha256 else {
            throw .invalidName(sha256, reason: "it is not the SHA-256 of the blob's bytes")
        }
        guard data.count <= Self.blobSizeLimit else {
            throw .tooLarge(path: absolutePath(relative), limit: Self.blobSizeLimit)
        }
        if try fileSystem.create(sealed(data, relative), at: path(relative)) { return }
        // Something has the name: a blob (the same bytes, by its name) unless it is no file.
        let existing = try fileSystem.entry(at: path(relative))
        if let reason = SkippedFile.Reason(existing, expected: .file) {
            throw .io(path: absolutePath(relative), reason: "something that is not a blob has its name: \(reason)")
        }
    }

    /// The bytes of a blob, verified against its name.
    ///
    /// Throws ``SyncError/damagedBlob(path:)`` when they do not match, and refuses a blob over
    /// `limit` bytes, or a link, without reading it.
    public func readBlob(_ sha256: String, limit: Int = blobSizeLimit) throws(SyncError) -> Data {
        try CloudName.requireSHA256(sha256)
        let relative = blobPath(sha256)
        let data: Data
        do {
            data = try opened(fileSystem.read(path(relative), limit: storedLimit(limit, relative)), relative)
        } catch {
            if case .damaged = error { throw .damagedBlob(path: absolutePath(relative)) }
            throw error
        }
        guard Self.sha256(of: data) == sha256 else { throw .damagedBlob(path: absolutePath(relative)) }
        return data
    }

    /// Publishes the local file `file`, whose bytes have the SHA-256 `sha256`, as a blob unless
    /// it is there already: copied (and sealed, in an encrypted container, into the local file
    /// `scratch`, removed after) a chunk at a time, never read whole, so that a file of any
    /// size is published in bounded memory.
    public func publishBlob(file: URL, sha256: String, scratch: URL) throws(SyncError) {
        try CloudName.requireSHA256(sha256)
        let relative = blobPath(sha256)
        if try createCopy(of: file, at: relative, sealedCopy: scratch) { return }
        let existing = try fileSystem.entry(at: path(relative))
        if let reason = SkippedFile.Reason(existing, expected: .file) {
            throw .io(path: absolutePath(relative), reason: "something that is not a blob has its name: \(reason)")
        }
    }

    /// Copies a blob into the new local file `destination`, a chunk at a time (opened, in an
    /// encrypted container, through a sealed copy beside it, removed after), refusing one of
    /// more than `limit` plain bytes, or a link, without reading it. The bytes are not checked
    /// against `sha256` here: the store checks them as it takes the file
    /// (`Store.storeBlob(file:sha256:)`), and a mismatch is a damaged blob.
    public func fetchBlob(_ sha256: String, to destination: URL, limit: Int = blobSizeLimit) throws(SyncError) {
        try CloudName.requireSHA256(sha256)
        let relative = blobPath(sha256)
        do {
            _ = try copyOut(relative, to: destination, limit: limit)
        } catch {
            try? FileManager.default.removeItem(at: destination)
            if case .damaged = error { throw .damagedBlob(path: absolutePath(relative)) }
            throw error
        }
    }

    /// Puts right a blob that is missing or damaged, from the local file `file`, which must
    /// hold its bytes; returns whether it had to. A damaged blob is replaced only after its
    /// bytes were read and found wrong; the blob in the container is checked by copying it, a
    /// chunk at a time, into `scratch` (removed after).
    public func repairBlob(file: URL, sha256: String, scratch: URL) throws(SyncError) -> Bool {
        try CloudName.requireSHA256(sha256)
        defer { try? FileManager.default.removeItem(at: scratch) }
        do {
            try fetchBlob(sha256, to: scratch)
            if Self.sha256(ofFile: scratch) == sha256 { return false }
        } catch {
            switch error {
            case .missing:
                try publishBlob(file: file, sha256: sha256, scratch: scratch)
                return true
            case .damagedBlob: break
            default: throw error
            }
        }
        try? FileManager.default.removeItem(at: scratch)
        // Damaged. A blob of an image's size is replaced with rename(2); a larger one is
        // removed and published again, a chunk at a time: meanwhile, readers find it missing,
        // and wait.
        let size = (try? FileManager.default.attributesOfItem(atPath: file.path)[.size] as? Int) ?? Int.max
        if size <= Int(Attachment.maximumBytes), let data = try? Data(contentsOf: file) {
            try fileSystem.write(sealed(data, blobPath(sha256)), to: path(blobPath(sha256)))
        } else {
            try fileSystem.remove(path(blobPath(sha256)))
            try publishBlob(file: file, sha256: sha256, scratch: scratch)
        }
        return true
    }

    /// The SHA-256 of a local file, read a chunk at a time; nil when it cannot be read.
    static func sha256(ofFile file: URL) -> String? {
        guard let handle = try? FileHandle(forReadingFrom: file) else { return nil }
        defer { try? handle.close() }
        var hash = SHA256()
        while true {
            guard let chunk = try? handle.read(upToCount: 1 << 20) else { return nil }
            if chunk.isEmpty { break }
            hash.update(data: chunk)
        }
        return HexText.lowercase(hash.finalize())
    }

    func blobPath(_ sha256: String) -> String {
        CloudName.blobs + "/" + blobFileName(sha256)
    }
}
