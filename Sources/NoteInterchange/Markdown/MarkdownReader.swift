import Foundation
import NoteStore

/// Reads a Markdown file, or a folder tree of them, as ``MarkdownExporter`` writes it or as
/// other tools do (an Obsidian vault, a git repository of notes).
///
/// A folder with notes at any depth becomes a collection (its `.collection.md`, when there,
/// gives its id, dates and name, and makes it a collection even when empty); a `.md` or `.markdown` file becomes a note, named by its front matter's `name` or
/// else its file name; its `id`, `created` and `modified` are used when valid; other keys of
/// the front matter are ignored, and the block is not kept in the body. Image links to local
/// files inside what is imported become attachments (the link stays in the body, except the
/// block an export writes after the body). Hidden files and folders (a name starting with
/// `.`) and files of other kinds are passed over. A file that is not UTF-8 is reported.
public struct MarkdownReader: Sendable {
    public init() {}

    /// The entries of `path` (a file or a folder) and the problems met.
    public func read(_ path: URL) throws -> (entries: [ImportEntry], problems: [String]) {
        var problems: [String] = []
        let root = path.standardizedFileURL
        var isFolder: ObjCBool = false
        guard FileManager.default.fileExists(atPath: root.path, isDirectory: &isFolder) else {
            throw InterchangeError.io(path: root.path, reason: "no such file or directory")
        }
        if !isFolder.boolValue {
            guard Self.isMarkdown(root.lastPathComponent) else {
                throw InterchangeError.notAnExport(path: root.path, reason: "it is not a Markdown (.md) or JSON export file")
            }
            let folder = root.deletingLastPathComponent()
            let place = Place(folder: folder, source: "", root: folder)
            return (readNote(named: root.lastPathComponent, in: place, problems: &problems).map { [$0] } ?? [], problems)
        }
        // The notes are read on a thread of their own, ahead of the import, while it saves.
        let reads = PrefetchedReads()
        return (try readFolder(root, base: root, within: root, reads: reads, problems: &problems), problems)
    }

    /// Where the notes of one folder are, shared by their entries until they are read.
    final class Place: Sendable {
        let folder: URL
        /// The folder's path relative to what is imported, with a slash at its end ("" at the
        /// top): the start of its notes' sources.
        let source: String
        let root: URL

        init(folder: URL, source: String, root: URL) {
            self.folder = folder
            self.source = source
            self.root = root
        }
    }

    static func isMarkdown(_ name: String) -> Bool {
        let lower = name.lowercased()
        return lower.hasSuffix(".md") || lower.hasSuffix(".markdown")
    }

    private func readFolder(
        _ folder: URL, base: URL, within root: URL, reads: PrefetchedReads, problems: inout [String]
    ) throws -> [ImportEntry] {
        let listed: [FolderListing.Entry]
        do {
            listed = try FolderListing.entries(of: folder.path).sorted { $0.name < $1.name }
        } catch {
            throw InterchangeError.io(path: error.path, reason: error.reason)
        }
        var entries: [ImportEntry] = []
        let place = Place(folder: folder, source: relative(folder, to: base).map { $0 + "/" } ?? "", root: root)
        for entry in listed where !entry.name.hasPrefix(".") {
            let name = entry.name
            switch entry.kind {
            case .folder:
                let url = folder.appendingPathComponent(name, isDirectory: true)
                var collection = ImportEntry(source: place.source + name, kind: .collection, name: name)
                let marker = url.appendingPathComponent(MarkdownExporter.collectionFile)
                let marked = FileManager.default.fileExists(atPath: marker.path)
                // The collection's front matter: what an export writes is a few lines.
                if marked, case let .bytes(data) = RawFiles.contents(of: marker.path, limit: 1 << 20),
                    let text = String(validating: data, as: UTF8.self), case let (matter?, _) = FrontMatter.split(text)
                {
                    apply(matter, to: &collection)
                }
                do {
                    collection.children = try readFolder(url, base: base, within: root, reads: reads, problems: &problems)
                } catch {
                    problems.append("\(collection.source): \(error), skipped")
                    continue
                }
                // A folder with no note at any depth (images, attachments) is no collection,
                // unless an export made it.
                if marked || !collection.children.isEmpty { entries.append(collection) }
            case .file where Self.isMarkdown(name):
                // Read when the import comes to it: a tree of 100,000 notes is never in memory
                // whole, and until then a note is its file name and its folder, shared.
                var note = ImportEntry(source: name, kind: .note, name: name)
                let reader = self
                let number = reads.add { [place] in
                    var problems: [String] = []
                    let entry = reader.readNote(named: name, in: place, problems: &problems)
                    return (entry, problems)
                }
                note.reading = { reads.take(number) }
                entries.append(note)
            case .file, .other:
                continue
            }
        }
        return entries
    }

    private func readNote(named name: String, in place: Place, problems: inout [String]) -> ImportEntry? {
        let source = place.source + name
        let bytes: [UInt8]
        switch RawFiles.contents(of: place.folder.path + "/" + name, limit: Self.maximumFileBytes) {
        case let .bytes(read): bytes = read
        case .tooLarge:
            problems.append("\(source): larger than \(Self.maximumFileBytes) bytes, more than a note's file holds, skipped")
            return nil
        case .failed:
            problems.append("\(source): cannot be read, skipped")
            return nil
        }
        guard let text = String(validating: bytes, as: UTF8.self) else {
            problems.append("\(source): not UTF-8, skipped")
            return nil
        }
        var note = ImportEntry(source: source, kind: .note, name: Self.stem(name))
        let (matter, rest) = FrontMatter.split(text)
        if let matter { apply(matter, to: &note) }
        var body = rest
        // The block an export writes after the body: its links are the note's images.
        if let range = ByteSearch.lastRange(of: Self.imagesMarker, in: body),
            range.lowerBound == body.startIndex || body.utf8[body.utf8.index(before: range.lowerBound)] != 0x0D,
            body[range.upperBound...].split(separator: "\n").allSatisfy({ $0.hasPrefix("![") })
        {
            let links = MarkdownLinks.images(in: body[range.upperBound...])
            body = body[..<range.lowerBound]
            attach(links, in: place, to: &note, problems: &problems)
        }
        attach(MarkdownLinks.images(in: body), in: place, to: &note, problems: &problems)
        note.body = String(body)
        return note
    }

    /// The largest note file read: a body at the store's limit (10 MiB) with 1 MiB for its
    /// front matter and links. A larger file is reported and skipped without being read.
    public static let maximumFileBytes = Item.maximumBodyBytes + (1 << 20)

    /// What precedes the links an export writes after a body (after a line feed that ends no
    /// carriage return: a `\r\n` is one line break, not the first of two).
    private static let imagesMarker = Array(("\n\n" + MarkdownExporter.imagesMarker + "\n").utf8)

    /// A file's name without its extension.
    static func stem(_ name: String) -> String {
        guard let dot = name.lastIndex(of: "."), dot != name.startIndex else { return name }
        return String(name[..<dot])
    }

    private func apply(_ matter: FrontMatter, to entry: inout ImportEntry) {
        if let id = matter["id"].flatMap(UUID.init(uuidString:)) { entry.id = id }
        if let created = matter["created"].flatMap(ExportDate.date) { entry.created = created }
        if let modified = matter["modified"].flatMap(ExportDate.date) { entry.modified = modified }
        if let name = matter["name"], !name.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty { entry.name = name }
        if entry.kind == .note, let tags = matter.list("tags") { entry.tags = tags }
    }

    /// Local image links become attachments; links to the web are left as text. A link to a
    /// file outside what is imported, or to none, is reported.
    private func attach(
        _ links: [MarkdownLinks.ImageLink], in place: Place, to note: inout ImportEntry, problems: inout [String]
    ) {
        let root = place.root
        for link in links {
            let destination = link.destination
            if destination.isEmpty || destination.contains("://") || destination.hasPrefix("data:") || destination.hasPrefix("#") { continue }
            let target = (destination.hasPrefix("/") ? URL(fileURLWithPath: destination)
                : place.folder.appendingPathComponent(destination)).standardizedFileURL
            guard target.path.hasPrefix(root.path + "/") || target.path == root.path else {
                problems.append("\(note.source): image \(destination) is outside what is imported, not attached")
                continue
            }
            guard FileManager.default.fileExists(atPath: target.path) else {
                problems.append("\(note.source): image \(destination) not found, not attached")
                continue
            }
            if note.images.contains(where: { $0.file == target }) { continue }
            note.images.append((target, link.text.isEmpty ? nil : link.text))
        }
    }

    /// The path of `url` relative to `base`; nil when it is `base`.
    private func relative(_ url: URL, to base: URL) -> String? {
        let path = url.standardizedFileURL.path
        let basePath = base.standardizedFileURL.path
        if path == basePath { return nil }
        let prefix = basePath.hasSuffix("/") ? basePath : basePath + "/"
        return path.hasPrefix(prefix) ? String(path.dropFirst(prefix.count)) : path
    }
}
