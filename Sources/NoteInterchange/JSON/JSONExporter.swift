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
        var writer = Writer(store: store, tree: tree, folder: folder, file: file, handle: handle, total: tree.noteCount, progress: progress)
        try writer.line([("exported", .text(Date().isoText)), ("format", .text(Self.format)), ("formatVersion", .integer(1))])
        if root != nil, let item = tree.roots.first {
            if item.isNote {
                try writer.writeNotes(try store.bodies(of: [item.id]), parent: nil)
            } else {
                try writer.writeCollection(item, parent: nil)
            }
        } else {
            try writer.writeContents(of: nil)
        }
        try writer.flush()
        return writer.report
    }

    struct Writer {
        let store: Store
        let tree: ExportTree
        let folder: ExportDirectory
        var images: ExportDirectory?
        let file: URL
        let handle: FileHandle
        let total: Int
        let progress: ((Int, Int) -> Void)?
        var report = ExportReport()
        var buffer = Data()
        var writtenImages: Set<String> = []

        mutating func writeContents(of collection: UUID?) throws {
            for child in tree.collections(in: collection) { try writeCollection(child, parent: collection) }
            try tree.notes(in: collection) { page in try writeNotes(Array(page), parent: collection) }
        }

        mutating func writeCollection(_ collection: Item, parent: UUID?) throws {
            try line(common(collection, parent: parent))
            report.collections += 1
            try writeContents(of: collection.id)
        }

        mutating func writeNotes(_ notes: [Item], parent: UUID?) throws {
            let attachments = try store.attachments(ofNotes: notes.map(\.id))
            let tags = try store.tags(ofItems: notes.map(\.id))
            let properties = try store.properties(ofItems: notes.map(\.id))
            for note in notes {
                var images: [JSONValue] = []
                for attachment in attachments[note.id] ?? [] {
                    let ext = attachment.format == .jpeg ? "jpg" : attachment.format.rawValue
                    let name = "\(JSONExporter.imagesFolder)/\(attachment.sha256).\(ext)"
                    if writtenImages.insert(name).inserted {
                        let images = try self.images ?? folder.folder(JSONExporter.imagesFolder)
                        self.images = images
                        try images.write(try store.data(of: attachment), to: "\(attachment.sha256).\(ext)")
                    }
                    images.append(.object([
                        ("bytes", .integer(Int(attachment.bytes))), ("caption", attachment.caption.map(JSONValue.text) ?? .null),
                        ("created", .text(attachment.created.isoText)), ("file", .text(name)),
                        ("format", .text(attachment.format.rawValue)), ("height", .integer(attachment.height)),
                        ("id", .text(attachment.id.uuidString.lowercased())), ("sha256", .text(attachment.sha256)),
                        ("width", .integer(attachment.width)),
                    ]))
                    report.images += 1
                }
                let own: [(String, JSONValue)] = properties[note.id].map { list in
                    [("properties", .array(list.map { .object([("key", .text($0.key)), ("value", .raw($0.value.json))]) }))]
                } ?? []
                try line([("attachments", .array(images)), ("body", .text(note.body ?? ""))] + common(note, parent: parent) + own
                    + [("tags", .array((tags[note.id] ?? []).map(JSONValue.text)))])
                report.notes += 1
                if report.notes % 200 == 0 { progress?(report.notes, total) }
            }
        }

        /// What every item has, keys in order; `parent` is null at the top of the export.
        func common(_ item: Item, parent: UUID?) -> [(String, JSONValue)] {
            [
                ("created", .text(item.created.isoText)), ("id", .text(item.id.uuidString.lowercased())),
                ("kind", .text(item.kind.rawValue)), ("modified", .text(item.modified.isoText)), ("name", .text(item.name)),
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
