import Foundation

/// The files of an encrypted container (docs/sync-format.md, section 16): every file but
/// `container.json` and `key.json` is sealed by ``FileSealing`` for its path before it is
/// published, and opened after it is read; a blob is named by the keyed hash of its SHA-256.
/// In a plain container (``CloudContainer/sealing`` nil) each of these is the identity.
extension CloudContainer {
    /// Whether the file at `relative` is sealed in this container.
    func isSealed(_ relative: String) -> Bool {
        sealing != nil && relative != CloudName.descriptor && relative != CloudName.keyFile
    }

    /// The bytes to publish at `relative` for `plain`.
    func sealed(_ plain: Data, _ relative: String) -> Data {
        guard let sealing, isSealed(relative) else { return plain }
        return sealing.seal(plain, path: relative)
    }

    /// The plain bytes of the file read at `relative`; throws
    /// ``SyncError/damaged(path:reason:)`` when it does not open.
    func opened(_ stored: Data, _ relative: String) throws(SyncError) -> Data {
        guard let sealing, isSealed(relative) else { return stored }
        do {
            return try sealing.open(stored, path: relative)
        } catch {
            throw .damaged(path: absolutePath(relative), reason: error.description)
        }
    }

    /// The most bytes a file at `relative` may have in the folder when its plain bytes may have
    /// `limit`.
    func storedLimit(_ limit: Int, _ relative: String) -> Int {
        guard isSealed(relative), limit < Int.max / 2 else { return limit }
        return Int(FileSealing.sealedSize(ofPlain: Int64(limit)))
    }

    /// The plain size of a file listed with `size` bytes at `relative` (its listed size when
    /// no plain text has an envelope of that size: reading it will say so).
    func plainSize(_ size: Int64, _ relative: String) -> Int64 {
        guard isSealed(relative) else { return size }
        return FileSealing.plainSize(ofSealed: size) ?? size
    }

    /// The name in `blobs/` of the blob whose bytes have the SHA-256 `sha256`.
    public func blobFileName(_ sha256: String) -> String {
        sealing?.blobName(of: sha256) ?? sha256
    }

    /// Copies the file at `relative` out of the container into the new local file
    /// `destination`, opened when sealed (through a sealed copy beside it, removed after).
    func copyOut(_ relative: String, to destination: URL, limit: Int) throws(SyncError) -> Int64 {
        guard let sealing, isSealed(relative) else {
            return try fileSystem.copyOut(path(relative), to: destination, limit: limit)
        }
        let stored = destination.appendingPathExtension("sealed")
        defer { try? FileManager.default.removeItem(at: stored) }
        _ = try fileSystem.copyOut(path(relative), to: stored, limit: storedLimit(limit, relative))
        do {
            return try sealing.open(file: stored, to: destination, path: relative)
        } catch {
            if case let .damaged(_, reason) = error { throw .damaged(path: absolutePath(relative), reason: reason) }
            throw error
        }
    }

    /// Publishes the local file `source` at `relative` unless a file has that name; sealed
    /// first when the container is encrypted (into `sealedCopy`, by default a file beside
    /// `source`, removed after).
    func createCopy(of source: URL, at relative: String, sealedCopy: URL? = nil) throws(SyncError) -> Bool {
        guard let sealing, isSealed(relative) else { return try fileSystem.createCopy(of: source, at: path(relative)) }
        let stored = sealedCopy ?? source.appendingPathExtension("sealed")
        try? FileManager.default.removeItem(at: stored)
        defer { try? FileManager.default.removeItem(at: stored) }
        try sealing.seal(file: source, to: stored, path: relative)
        return try fileSystem.createCopy(of: stored, at: path(relative))
    }
}
