import Foundation
import NoteStore
import NoteMarkdown

/// Writes notes as Markdown files: a folder per collection, a `.md` file per note with a front
/// matter block, and each note's images as files beside it, linked at the end of its body.
///
/// A note's file is its front matter (`id`, `created`, `modified`, `tags` when it has some, and `name` when the file's
/// name is not the note's), then its body exactly, then, when it has images, a blank line, the
/// line `<!-- notes: images -->` and one `![caption](<file>)` line per image. A collection's
/// folder holds `.collection.md`, a front matter block alone. ``MarkdownReader`` reads all of it
/// back as it was.
public struct MarkdownExporter {
    public let store: Store
    /// Told the notes written so far and the total, every few hundred notes.
    public var progress: ((Int, Int) -> Void)?

    /// The line before a note's image links.
    static let imagesMarker = "<!-- notes: images -->"
    /// The file that carries a collection's front matter in its folder.
    static let collectionFile = ".collection.md"

    public init(store: Store) {
        self.store = store
    }

    /// Exports everything, or `root` and what it holds, into `folder`.
    public func export(to folder: URL, root: UUID? = nil, force: Bool = false) throws -> ExportReport {
        let tree = try ExportTree(store: store, root: root)
        let folder = try ExportDirectory.prepare(folder, force: force)
        var writer = Writer(store: store, tree: tree, total: tree.noteCount, progress: progress)
        var names = FileNames()
        if root != nil, let item = tree.roots.first {
            if item.isNote {
                try writer.writeNotes(try store.bodies(of: [item.id]), in: folder, names: &names)
            } else {
                try writer.writeCollection(item, in: folder, names: &names)
            }
        } else {
            try writer.writeContents(of: nil, in: folder, names: &names)
        }
        return writer.report
    }

    /// Whether one of `keys` among the properties (compared without regard to case) is a
    /// date that reads as `date`, to the millisecond.
    static func gives(_ properties: [NoteProperty], _ date: Date, among keys: [String]) -> Bool {
        properties.contains { property in
            guard keys.contains(property.key.lowercased()), case let .string(text) = property.value,
                let given = MarkdownReader.date(text)
            else { return false }
            return (given.timeIntervalSince1970 * 1000).rounded() == (date.timeIntervalSince1970 * 1000).rounded()
        }
    }

    struct Writer {
        let store: Store
        let tree: ExportTree
        let total: Int
        let progress: ((Int, Int) -> Void)?
        var report = ExportReport()

        mutating func writeContents(of collection: UUID?, in folder: ExportDirectory, names: inout FileNames) throws {
            for child in tree.collections(in: collection) {
                try writeCollection(child, in: folder, names: &names)
            }
            try tree.notes(in: collection) { page in try writeNotes(Array(page), in: folder, names: &names) }
        }

        mutating func writeCollection(_ collection: Item, in folder: ExportDirectory, names: inout FileNames) throws {
            let name = names.claim(collection.name)
            let inside = try folder.folder(name)
            var matter = FrontMatter()
            matter.append("id", collection.id.uuidString.lowercased())
            matter.append("created", collection.created.isoText)
            matter.append("modified", collection.modified.isoText)
            if name != collection.name { matter.append("name", collection.name) }
            try inside.write(Data(matter.text.utf8), to: MarkdownExporter.collectionFile)
            report.collections += 1
            var inner = FileNames()
            inner.reserve(MarkdownExporter.collectionFile)
            try writeContents(of: collection.id, in: inside, names: &inner)
        }

        mutating func writeNotes(_ notes: [Item], in folder: ExportDirectory, names: inout FileNames) throws {
            let attachments = try store.attachments(ofNotes: notes.map(\.id))
            let tags = try store.tags(ofItems: notes.map(\.id))
            let properties = try store.properties(ofItems: notes.map(\.id))
            for note in notes {
                let stem = names.claim(note.name, suffix: ".md")
                let own = properties[note.id] ?? []
                var matter = FrontMatter()
                matter.append("id", note.id.uuidString.lowercased())
                // A date that a property gives already (Hugo's `date`, `lastmod`) is not
                // written twice.
                if !MarkdownExporter.gives(own, note.created, among: ["date", "created_at"]) { matter.append("created", note.created.isoText) }
                if !MarkdownExporter.gives(own, note.modified, among: ["updated", "lastmod", "updated_at"]) {
                    matter.append("modified", note.modified.isoText)
                }
                if stem != note.name { matter.append("name", note.name) }
                // Tags the body writes as `#tag` are read from it again.
                let inline = Set(MarkdownScanner.tags(in: note.body ?? "").map(Tag.normalized))
                if let tags = tags[note.id]?.filter({ !inline.contains($0) }), !tags.isEmpty { matter.append("tags", list: tags) }
                matter.properties = own.map { FrontMatterYAML.lines($0.key, $0.value) }.joined()
                var text = matter.text + (note.body ?? "")
                if let images = attachments[note.id] {
                    var links: [String] = []
                    for (index, attachment) in images.enumerated() {
                        let ext = attachment.format == .jpeg ? "jpg" : attachment.format.rawValue
                        let file = names.claim("\(stem).\(index + 1)", suffix: ".\(ext)") + ".\(ext)"
                        try folder.write(try store.data(of: attachment), to: file)
                        links.append("![\(MarkdownLinks.escapeText(attachment.caption ?? ""))](<\(file)>)")
                        report.images += 1
                    }
                    text += "\n\n" + MarkdownExporter.imagesMarker + "\n" + links.joined(separator: "\n") + "\n"
                }
                try folder.write(Data(text.utf8), to: stem + ".md")
                report.notes += 1
                if report.notes % 200 == 0 { progress?(report.notes, total) }
            }
        }
    }
}
