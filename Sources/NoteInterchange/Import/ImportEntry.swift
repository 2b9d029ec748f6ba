import Foundation
import NoteStore

/// One note or collection read from an export or another tool's files, before it is matched
/// with the store: what ``Importer`` brings in.
public struct ImportEntry: Sendable {
    /// Where it was read, for reports: a path relative to what was imported.
    public var source: String
    public var kind: ItemKind
    /// The id an export gave it; a re-import updates the item with this id.
    public var id: UUID?
    public var name: String
    public var body: String?
    /// The links found in the body as it was read (on the thread that reads), for the link
    /// index of a note the import creates.
    public var links: BodyLinks?
    public var created: Date?
    public var modified: Date?
    /// A note's tags; nil when the file does not say (a re-import then leaves them as they are).
    public var tags: [String]?
    /// A note's properties in order; nil when the file does not say (a re-import then leaves
    /// them as they are).
    public var properties: [(key: String, value: PropertyValue)]?
    /// Files to attach (images and files of any other kind).
    public var images: [File] = []
    public var children: [ImportEntry] = []

    /// A file to attach to a note.
    public struct File: Sendable {
        public var file: URL
        public var caption: String?
        /// The name to keep for the file when it is not its own (an export names files by
        /// their hash).
        public var fileName: String?
        /// The file read ahead of the import, when it was (``prepareFiles(_:)``).
        public var prepared: PreparedFile?

        public init(file: URL, caption: String?, fileName: String?) {
            self.file = file
            self.caption = caption
            self.fileName = fileName
        }
    }

    /// Reads the files to attach with `prepare`, which ``Store/prepareFile(_:fileName:limit:)``
    /// does: on the thread that reads the entries, while the import saves.
    mutating func prepareFiles(_ prepare: (_ file: URL, _ fileName: String?) -> PreparedFile) {
        for index in images.indices where images[index].prepared == nil {
            images[index].prepared = prepare(images[index].file, images[index].fileName)
        }
    }

    /// The bytes its prepared files hold in memory.
    var preparedBytes: Int {
        images.reduce(0) { $0 + ($1.prepared?.bytesInMemory ?? 0) }
    }

    /// Removes what its prepared files hold, for an entry that is not imported.
    func discardPreparedFiles() {
        for image in images { image.prepared?.discard() }
    }
}

/// What an import did (or, in a dry run, would do).
public struct ImportReport: Sendable {
    public var created = 0
    public var updated = 0
    public var unchanged = 0
    public var images = 0
    /// The files attached that are not PNG, JPEG, GIF or WebP images.
    public var files = 0
    /// One line per file skipped, or image not attached, with the reason.
    public var problems: [String] = []
    /// One line per item, in a dry run only: `create note PATH`, `update note PATH` ...
    public var plan: [String] = []
}
