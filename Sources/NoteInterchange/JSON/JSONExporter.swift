import Foundation
import NoteStore

/// Writes notes as JSON Lines: `notes.jsonl`, whose first line says what the file is and each
/// next line is one item, collections before what they hold, and `images/`, one file per image
/// (named by its SHA-256, so that bytes two notes share are written once).
///
/// Header: `{"exported":"<ISO 8601>","format":"note-collector-export","formatVersion":1}`.
/// Item: `id`, `kind` (`note` or `collection`), `name`, `parent` (an id, or null for an item
/// at the top of the export), `created`, `modified` (ISO 8601 UTC), and for a note `body`,
/// `properties` when it has some (each: `key`, and `value`, its JSON), `tags` and `attachments`
/// (each: `id`, `file` (relative to the export's folder), `format`,
/// `width`, `height`, `bytes`, `sha256`, `caption`, `created`). Keys are sorted, one object per
/// line, so that the file is read and written a line at a time whatever its size.
/// ``JSONReader`` reads it back.
public struct JSONExporter {
    public let store: Store
    /// Told the notes written so far and the total, every few hundred notes.
    public var progress: ((Int, Int) -> Void)?

    /// The file of the items, in the export's folder.
    public static let fileName = "notes.jsonl"
    static let format = "note-collector-export"
    static let imagesFolder = "images"
    /// Where the files that are not PNG, JPEG, GIF or WebP images go, each named by its SHA-256.
    static let filesFolder = "files"

    public init(store: Store) {
        self.store = store
    }

    /// Exports everything, or `root` and what it holds, into `folder`.
    public func export(to folder: URL, root: UUID? = nil, force: Bool = false) throws -> ExportReport {
        let tree = try ExportTree(store: store, root: root)
        let folder = try ExportDirectory.prepare(folder, force: force)
        let file = folder.url.appendingPathComponent(Self.fileName)
        let handle = try folder.create(Self.fileName)
        defer { try? handle.close() }
        // The attachments' files are written on a thread of their own, while the notes are read
        // and their lines written.
        let behind = WriteBehind(store: store)
        let pages = ExportPage.readAhead(tree.pageOrder { _ in true }, withLinks: false, from: store)
        var writer = Writer(
            store: store, tree: tree, folder: folder, behind: behind, pages: pages, file: file, handle: handle,
            total: tree.noteCount, progress: progress)
        do {
            try writer.line([
                ("exported", .text(Date().isoText)), ("format", .text(Self.format)), ("formatVersion", .integer(1)),
            ])
            if root != nil, let item = tree.roots.first {
                if item.isNote {
                    try writer.writeNotes(try ExportPage.read([item.id], of: nil, withLinks: false, from: store))
                } else {
                    try writer.writeCollection(item, parent: nil)
                }
            } else {
                try writer.writeContents(of: nil)
            }
            try writer.flush()
        } catch {
            // The pages stop being read, and the files handed over are written first, so that no
            // thread is left writing.
            pages.cancel()
            try? behind.finish()
            throw error
        }
        try behind.finish()
        return writer.report
    }

    struct Writer {
        let store: Store
        let tree: ExportTree
        let folder: ExportDirectory
        let behind: WriteBehind
        /// Reads the pages of notes, on a thread of its own, in the order they are written.
        let pages: ReadAhead<ExportPage>
        var images: ExportDirectory?
        var files: ExportDirectory?
        let file: URL
        let handle: FileHandle
        let total: Int
        let progress: ((Int, Int) -> Void)?
        var report = ExportReport()
        var buffer = Data()
        var writtenImages: Set<String> = []

        mutating func writeContents(of collection: UUID?) throws {
            for child in tree.collections(in: collection) { try writeCollection(child, parent: collection) }
            for ids in tree.pages(in: collection) {
                try writeNotes(try ExportPage.next(from: pages, ids, of: collection))
            }
        }

        mutating func writeCollection(_ collection: Item, parent: UUID?) throws {
            try line(common(collection, parent: parent))
            report.collections += 1
            try writeContents(of: collection.id)
        }

        mutating func writeNotes(_ page: ExportPage) throws {
            let (attachments, tags, properties, parent) = (
                page.attachments, page.tags, page.properties, page.collection
            )
            for note in page.notes {
                var images: [JSONValue] = []
                for attachment in attachments[note.id] ?? [] {
                    images.append(try write(attachment))
                }
                let own: [(String, JSONValue)] =
                    properties[note.id].map { list in
                        [
                            (
                                "properties",
                                .array(list.map { .object([("key", .text($0.key)), ("value", .raw($0.value.json))]) })
                            )
                        ]
                    } ?? []
                try line(
                    [("attachments", .array(images)), ("body", .text(note.body ?? ""))] + common(note, parent: parent)
                        + own
                        + [("tags", .array((tags[note.id] ?? []).map(JSONValue.text)))])
                report.notes += 1
                if report.notes % 200 == 0 { progress?(report.notes, total) }
            }
        }

        /// Writes an attachment's bytes once per content (`images/<sha256>.<ext>`, `files/` for
        /// any other file), through the thread that writes behind; returns its object.
        mutating func write(_ attachment: Attachment) throws -> JSONValue {
            let common: [(String, JSONValue)] = [
                ("bytes", .integer(Int(attachment.bytes))),
                ("caption", attachment.caption.map(JSONValue.text) ?? .null),
                ("created", .text(attachment.created.isoText)),
            ]
            guard let format = attachment.format, let width = attachment.width, let height = attachment.height else {
                let ext =
                    attachment.fileName.map { ($0 as NSString).pathExtension }.flatMap { $0.isEmpty ? nil : $0 }
                    ?? MediaTypeSniffer.fileExtension(for: attachment.mediaType) ?? "bin"
                let name = "\(JSONExporter.filesFolder)/\(attachment.sha256).\(ext)"
                if writtenImages.insert(name).inserted {
                    let files = try self.files ?? folder.folder(JSONExporter.filesFolder)
                    self.files = files
                    try behind.copy(attachment, to: "\(attachment.sha256).\(ext)", in: files)
                }
                report.files += 1
                let size: [(String, JSONValue)] =
                    attachment.width.flatMap { width in
                        attachment.height.map {
                            [
                                ("height", .integer($0)), ("id", .text(attachment.id.uuidString.lowercased())),
                                ("kind", .text("file")), ("mediaType", .text(attachment.mediaType)),
                                ("sha256", .text(attachment.sha256)),
                                ("width", .integer(width)),
                            ]
                        }
                    } ?? [
                        ("id", .text(attachment.id.uuidString.lowercased())), ("kind", .text("file")),
                        ("mediaType", .text(attachment.mediaType)), ("sha256", .text(attachment.sha256)),
                    ]
                return .object(
                    common + [("file", .text(name)), ("fileName", attachment.fileName.map(JSONValue.text) ?? .null)]
                        + size)
            }
            let ext = format == .jpeg ? "jpg" : format.rawValue
            let name = "\(JSONExporter.imagesFolder)/\(attachment.sha256).\(ext)"
            if writtenImages.insert(name).inserted {
                let images = try self.images ?? folder.folder(JSONExporter.imagesFolder)
                self.images = images
                try behind.copy(attachment, to: "\(attachment.sha256).\(ext)", in: images)
            }
            report.images += 1
            return .object(
                common + [
                    ("file", .text(name)), ("format", .text(format.rawValue)), ("height", .integer(height)),
                    ("id", .text(attachment.id.uuidString.lowercased())), ("sha256", .text(attachment.sha256)),
                    ("width", .integer(width)),
                ])
        }

        /// What every item has, keys in order; `parent` is null at the top of the export.
        func common(_ item: Item, parent: UUID?) -> [(String, JSONValue)] {
            [
                ("created", .text(item.created.isoText)), ("id", .text(item.id.uuidString.lowercased())),
                ("kind", .text(item.kind.rawValue)), ("modified", .text(item.modified.isoText)),
                ("name", .text(item.name)),
                ("parent", parent.map { .text($0.uuidString.lowercased()) } ?? .null),
            ]
        }

        /// One line: an object whose members are given in key order.
        mutating func line(_ members: [(String, JSONValue)]) throws {
            var text = ""
            JSONValue.object(members).write(to: &text)
            text += "\n"
            buffer += Data(text.utf8)
            if buffer.count >= 1 << 20 { try flush() }
        }

        mutating func flush() throws {
            do {
                try handle.write(contentsOf: buffer)
            } catch {
                throw InterchangeError.io(file, error)
            }
            buffer.removeAll(keepingCapacity: true)
        }
    }
}
