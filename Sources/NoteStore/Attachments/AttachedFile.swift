import Foundation

/// Reads any file offered as an attachment: an image (PNG, JPEG, GIF, WebP) as ``ImageFile``
/// does, checked whole, in memory; any other file streamed into the store's blob folder in
/// bounded memory, hashed on the way, and named by a media type sniffed from its first bytes
/// (an SVG checked as XML first). Refuses it with a reason when it cannot be one.
enum AttachedFile {
    /// The bytes of a prepared attachment: in memory (an image as read), or in a temporary
    /// file of the blob folder (any other file, and an image that
    /// ``Store/prepareFile(_:fileName:limit:)`` wrote there), linked into place by the save.
    enum Bytes: Sendable {
        case data(Data)
        case temporary(String)

        /// The bytes held in memory.
        var inMemory: Int {
            if case let .data(data) = self { return data.count }
            return 0
        }
    }

    /// Why a file cannot be attached.
    struct Refusal: Error, Sendable {
        let reason: String
    }

    /// What reading a file found, before it is attached to a note: the attachment's fields
    /// that come from the file, and its bytes.
    struct Read: Sendable {
        var kind: Attachment.Kind
        var sha256: String
        var format: ImageFormat?
        var mediaType: String?
        var fileName: String?
        var width: Int?
        var height: Int?
        var bytes: Int64
        var content: Bytes
    }

    /// The attachment `file` makes for `note`, created `now`, and its bytes; refuses a file of
    /// more than `limit` bytes.
    static func prepare(
        _ file: URL, for note: Item, caption: String?, fileName: String? = nil, limit: Int64, now: Date,
        blobs: BlobStore
    ) throws -> (Attachment, Bytes) {
        let caption = try Attachment.checkedCaption(caption, for: note)
        do {
            let read = try read(file, fileName: fileName, limit: limit, blobs: blobs)
            return (attachment(of: read, for: note, caption: caption, now: now), read.content)
        } catch {
            throw StoreError.cannotAttach(file: file.relativePath, note: note.label, reason: error.reason)
        }
    }

    /// The attachment of `note` that `read` makes, with a caption checked already.
    static func attachment(of read: Read, for note: Item, caption: String?, now: Date) -> Attachment {
        Attachment(
            id: UUID(), kind: read.kind, note: note.id, sha256: read.sha256, format: read.format,
            mediaType: read.mediaType, fileName: read.fileName, width: read.width, height: read.height,
            bytes: read.bytes, caption: caption, created: now)
    }

    /// Reads `file` as an attachment: an image checked whole in memory, any other file
    /// streamed into a temporary file of `blobs` (which the caller removes unless the save
    /// links it), refused when it has more than `limit` bytes. Needs no note and no database:
    /// it may run on any thread.
    static func read(_ file: URL, fileName: String?, limit: Int64, blobs: BlobStore) throws(Refusal) -> Read {
        func refuse(_ reason: String) -> Refusal { Refusal(reason: reason) }
        let fd = open(file.path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { throw refuse(StoreFolder.errnoText()) }
        defer { close(fd) }
        var info = stat()
        guard fstat(fd, &info) == 0 else { throw refuse(StoreFolder.errnoText()) }
        guard (info.st_mode & S_IFMT) == S_IFREG else { throw refuse("it is not a regular file") }
        var head = [UInt8](repeating: 0, count: 16)
        let headCount = pread(fd, &head, head.count, 0)
        if headCount > 0, isImage(Array(head[0..<headCount])) {
            let (data, image) = try ImageFile.read(file)
            return Read(
                kind: .image, sha256: BlobStore.sha256(of: data), format: image.format, width: image.width,
                height: image.height, bytes: Int64(data.count), content: .data(data))
        }
        guard Int64(info.st_size) <= limit else { throw refuse(tooLarge(Int64(info.st_size), limit: limit)) }
        let streamed: BlobStore.StreamedFile
        do {
            streamed = try blobs.stream(from: fd, limit: limit)
        } catch {
            switch error {
            case .tooLarge: throw refuse(tooLarge(nil, limit: limit))
            case let .io(reason): throw refuse("it could not be read: \(reason)")
            }
        }
        let name = fileName.flatMap { Attachment.isValidFileName($0) ? $0 : nil } ?? file.lastPathComponent
        let ext = (name as NSString).pathExtension.lowercased()
        let isWhole = streamed.bytes <= Int64(streamed.sample.count)
        let isText = MediaTypeSniffer.isText(streamed.sample, isWhole: isWhole)
        var mediaType = MediaTypeSniffer.mediaType(of: streamed.sample, fileExtension: ext, isWhole: isWhole)
        var size: SVGInspector.Size?
        if ext == "svg" || (isText && SVGInspector.looksLikeSVG(streamed.sample)) {
            do {
                size = try SVGInspector.inspect(fileAt: streamed.temporary, sample: streamed.sample, isWhole: isWhole)
            } catch {
                unlink(streamed.temporary)
                throw refuse(error.description)
            }
            mediaType = "image/svg+xml"
        }
        return Read(
            kind: .file, sha256: streamed.sha256, mediaType: mediaType,
            fileName: Attachment.isValidFileName(name) ? name : nil, width: size?.width, height: size?.height,
            bytes: streamed.bytes, content: .temporary(streamed.temporary))
    }

    /// Whether the first bytes announce one of the four checked image formats (or start one
    /// cut short): such a file is an image or nothing, as it always was.
    private static func isImage(_ head: [UInt8]) -> Bool {
        let announced = Result { () throws(ImageProblem) -> ImageFormat in
            try ImageInspector.format(announcedBy: head)
        }
        switch announced {
        case .success: return true
        case .failure(.truncated): return true
        case .failure: return false
        }
    }

    private static func tooLarge(_ size: Int64?, limit: Int64) -> String {
        let limitText = Attachment.sizeText(limit)
        guard let size else { return "it has more than the limit of \(limitText)" }
        return "it has \(size) bytes, more than the limit of \(limitText)"
    }
}
