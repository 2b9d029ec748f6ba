import Foundation

/// A file read to be attached to a note not chosen yet: read, checked and hashed (an image in
/// memory), copied into a temporary file of the store's blob folder, or the reason it cannot
/// be attached. Made by ``Store/prepareFile(_:fileName:limit:)`` on any
/// thread, so that an import reads its files while it saves; attached by
/// ``ObjectContext/attachFile(_:to:caption:unlessMatching:)``, which takes its temporary file
/// over. One that is never attached must be discarded (``discard()``).
public struct PreparedFile: Sendable {
    /// The file read.
    public let file: URL
    let outcome: Result<AttachedFile.Read, AttachedFile.Refusal>

    /// The bytes held in memory until it is attached: an image's whose blob the store has
    /// already (anything else waits in a temporary file of the blob folder, which becomes its
    /// blob).
    public var bytesInMemory: Int {
        guard case let .success(read) = outcome else { return 0 }
        return read.content.inMemory
    }

    /// Removes its temporary file, if it has one: for a file that is not attached.
    public func discard() {
        if case let .success(read) = outcome { Store.removeTemporaries([read.content]) }
    }
}

extension Store {
    /// Reads `file` to be attached later (``PreparedFile``), under `fileName` when it is
    /// valid; a file of more than `limit` bytes (at most ``Attachment/maximumFileBytes``) is
    /// refused when attached. Reads no database: it may run on any thread.
    public func prepareFile(_ file: URL, fileName: String? = nil, limit: Int64 = Attachment.defaultFileLimit)
        -> PreparedFile
    {
        let limit = min(limit, Attachment.maximumFileBytes)
        let blobs = blobs
        return PreparedFile(
            file: file,
            outcome: Result { () throws(AttachedFile.Refusal) -> AttachedFile.Read in
                var read = try AttachedFile.read(file, fileName: fileName, limit: limit, blobs: blobs)
                // An image, checked in memory, waits in a temporary file too, unless its blob
                // is there already: the save links it into place instead of writing it (an
                // import's save is the slower of its two threads), and memory holds no image.
                if case let .data(data) = read.content, !blobs.exists(read.sha256),
                    let temporary = try? blobs.writeTemporary(data)
                {
                    read.content = .temporary(temporary)
                }
                return read
            })
    }
}
