import Foundation
import NoteFiles
import NoteStore
import NoteMarkdown

/// Writes notes as Markdown files that Obsidian and zk read as a vault: a folder per
/// collection, a `.md` file per note with a front matter block, each note's images where its
/// body links them, and its links as they resolve in the exported tree (``ExportedBody``).
///
/// A note's file is its front matter (`id`, `created`, `modified`, `tags` when it has some the
/// body does not write, `name` when the file's name is not the note's, then its properties),
/// then its body, then, when it has images that no link of the body shows, a blank line, the
/// line `<!-- notes: images -->` and one `![caption](<file>)` line per image. A collection's
/// folder holds `.collection.md`, a front matter block alone, only when an import would not
/// make the collection again from the folder as it is (``needsMarker(_:name:)``).
/// ``MarkdownReader`` reads all of it back as it was.
public struct MarkdownExporter {
    public let store: Store
    /// Told the notes written so far and the total, every few hundred notes.
    public var progress: ((Int, Int) -> Void)?
    /// Whether names are made file names on every common file system (Windows' rules), not
    /// only on this one.
    public var portable = false

    /// The line before a note's image links.
    static let imagesMarker = "<!-- notes: images -->"

    /// The name of an attachment's file beside its note, before it is made unique: a file's
    /// own name (but a Markdown one, which an import would take for a note), else
    /// `<note>.<n>.<ext>`.
    static func fileName(of attachment: Attachment, index: Int, stem: String) -> String {
        if let name = attachment.fileName, !name.lowercased().hasSuffix(".md"),
            !name.lowercased().hasSuffix(".markdown"),
            !name.hasPrefix("."), name.utf8.count <= FileNames.maximumBytes,
            !name.contains(where: { "#|[]^\\<>\n".contains($0) })
        {
            return name
        }
        return "\(stem).\(index + 1).\(attachment.fileExtension)"
    }
    /// The file that carries a collection's front matter in its folder.
    static let collectionFile = ".collection.md"

    public init(store: Store) {
        self.store = store
    }

    /// Exports everything, or `root` and what it holds, into `folder`.
    public func export(to folder: URL, root: UUID? = nil, force: Bool = false) throws -> ExportReport {
        let tree = try ExportTree(store: store, root: root)
        let layout = ExportLayout(tree: tree, portable: portable, linkTargets: try store.wikiLinkTargets())
        let folder = try ExportDirectory.prepare(folder, force: force)
        let files = WriteBehind(store: store)
        let order = tree.pageOrder { layout.folderName(of: $0) != nil }
        let pages = ExportPage.readAhead(order, withLinks: true, from: store)
        var writer = Writer(
            store: store, tree: tree, layout: layout, top: folder, files: files, pages: pages, total: tree.noteCount,
            progress: progress)
        do {
            if root != nil, let item = tree.roots.first {
                if item.isNote {
                    try writer.writeNotes(
                        try ExportPage.read([item.id], of: nil, withLinks: true, from: store), in: folder, at: "")
                } else {
                    try writer.writeCollection(item, in: folder, siblings: [item])
                }
            } else {
                try writer.writeContents(of: nil, in: folder)
            }
        } catch {
            // The pages stop being read, and the files handed over are written first, so that no
            // thread is left writing.
            pages.cancel()
            try? files.finish()
            throw error
        }
        try files.finish()
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

    /// Whether a body may hold a link to a note (`[[` or `](`): the link index is read for
    /// those alone.
    static func mayLink(_ body: String) -> Bool {
        ByteSearch.contains(Array("[[".utf8), in: body) || ByteSearch.contains(Array("](".utf8), in: body)
    }

    struct Writer {
        let store: Store
        let tree: ExportTree
        var layout: ExportLayout
        /// The top of the export.
        let top: ExportDirectory
        /// Writes the files, on a thread of its own.
        let files: WriteBehind
        /// Reads the pages of notes, on a thread of its own, in the order they are written.
        let pages: ReadAhead<ExportPage>
        /// Folders below the top that attachments were placed in, by their paths.
        var folders: [String: ExportDirectory] = [:]
        let total: Int
        let progress: ((Int, Int) -> Void)?
        var report = ExportReport()

        mutating func writeContents(of collection: UUID?, in folder: ExportDirectory) throws {
            let children = tree.collections(in: collection)
            for child in children {
                try writeCollection(child, in: folder, siblings: children)
            }
            let path = layout.folderPath(of: collection)
            for ids in tree.pages(in: collection) {
                try writeNotes(try ExportPage.next(from: pages, ids, of: collection), in: folder, at: path)
            }
            layout.close(path)
        }

        /// Whether a collection's folder needs `.collection.md` for an import to make it
        /// again as it is: when the folder's name is not the collection's, when another
        /// collection beside it has its name (an import matches a collection by name only
        /// when one has it), or when it holds no note at any depth (an import makes no
        /// collection of a folder without notes). Its id and dates are kept only then.
        func needsMarker(_ collection: Item, name: String, siblings: [Item]) -> Bool {
            name != collection.name || !tree.holdsNotes(collection.id)
                || siblings.contains { $0.id != collection.id && $0.name.lowercased() == collection.name.lowercased() }
        }

        mutating func writeCollection(_ collection: Item, in folder: ExportDirectory, siblings: [Item]) throws {
            guard let name = layout.folderName(of: collection.id) else { return }
            let inside = try folder.folder(name)
            if needsMarker(collection, name: name, siblings: siblings) {
                var matter = FrontMatter()
                matter.append("id", collection.id.uuidString.lowercased())
                matter.append("created", collection.created.isoText)
                matter.append("modified", collection.modified.isoText)
                if name != collection.name { matter.append("name", collection.name) }
                try files.write(Data(matter.text.utf8), to: MarkdownExporter.collectionFile, in: inside)
            }
            report.collections += 1
            try writeContents(of: collection.id, in: inside)
        }

        /// Writes notes of the folder `folder`, whose path from the top of the export is
        /// `folderPath`.
        mutating func writeNotes(_ page: ExportPage, in folder: ExportDirectory, at folderPath: String) throws {
            let (attachments, tags, properties, links) = (page.attachments, page.tags, page.properties, page.links)
            for note in page.notes {
                guard let path = layout.notePath(note.id, in: folderPath) else { continue }
                let stem = String(ExportLayout.lastName(path))
                let own = properties[note.id] ?? []
                var matter = FrontMatter()
                matter.append("id", note.id.uuidString.lowercased())
                // A date that a property gives already (Hugo's `date`, `lastmod`) is not
                // written twice.
                if !MarkdownExporter.gives(own, note.created, among: ["date", "created_at"]) {
                    matter.append("created", note.created.isoText)
                }
                if !MarkdownExporter.gives(own, note.modified, among: ["updated", "lastmod", "updated_at"]) {
                    matter.append("modified", note.modified.isoText)
                }
                if stem != note.name { matter.append("name", note.name) }
                let body = note.body ?? ""
                // Tags the body writes as `#tag` are read from it again.
                let inline = Set(MarkdownScanner.tags(in: body).map(Tag.normalized))
                if let tags = tags[note.id]?.filter({ !inline.contains($0) }), !tags.isEmpty {
                    matter.append("tags", list: tags)
                }
                matter.properties = own.map { FrontMatterYAML.lines($0.key, $0.value) }.joined()
                let exported = ExportedBody(
                    body: body, path: path, links: links[note.id] ?? [], attachments: attachments[note.id] ?? [],
                    layout: &layout,
                    byAlias: { [store] link in (try? store.reachesByAlias(link)) ?? false })
                var text = matter.text + exported.text
                report.images += exported.shared
                for (attachment, file) in exported.files {
                    try write(attachment, at: file)
                    if attachment.kind == .image { report.images += 1 } else { report.files += 1 }
                }
                if !exported.unlinked.isEmpty {
                    var lines: [String] = []
                    for (index, attachment) in exported.unlinked.enumerated() {
                        let name = MarkdownExporter.fileName(of: attachment, index: index, stem: stem)
                        let file = String(
                            ExportLayout.lastName(layout.claimFile(name, in: ExportLayout.folder(of: path))))
                        try files.copy(attachment, to: file, in: folder)
                        // Images (an SVG too) are embedded; other files are linked.
                        let embed = attachment.mediaType.hasPrefix("image/") ? "!" : ""
                        lines.append("\(embed)[\(MarkdownLinks.escapeText(attachment.caption ?? ""))](<\(file)>)")
                        if attachment.kind == .image { report.images += 1 } else { report.files += 1 }
                    }
                    text += "\n\n" + MarkdownExporter.imagesMarker + "\n" + lines.joined(separator: "\n") + "\n"
                }
                try files.write(Data(text.utf8), to: stem + ".md", in: folder)
                report.notes += 1
                if report.notes % 200 == 0 { progress?(report.notes, total) }
            }
        }

        /// Writes a file at `path` from the top of the export, making the folders on the way.
        mutating func write(_ attachment: Attachment, at path: String) throws {
            let folderPath = ExportLayout.folder(of: path)
            let name = String(ExportLayout.lastName(path))
            try files.copy(attachment, to: name, in: try folder(at: folderPath))
        }

        /// The folder at `path` from the top of the export, made when absent.
        mutating func folder(at path: String) throws -> ExportDirectory {
            if path.isEmpty { return top }
            if let known = folders[path] { return known }
            let folder = try self.folder(at: ExportLayout.folder(of: path)).folder(String(ExportLayout.lastName(path)))
            // Each holds a descriptor: a few are kept, not one for every folder of the export.
            if folders.count >= 64 { folders.removeAll() }
            folders[path] = folder
            return folder
        }
    }
}
