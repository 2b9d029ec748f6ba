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
            let base = root.deletingLastPathComponent()
            return (readNote(root, base: base, within: base, problems: &problems).map { [$0] } ?? [], problems)
        }
        return (try readFolder(root, base: root, within: root, problems: &problems), problems)
    }

    /// Where the notes of one folder are, shared by their entries until they are read.
    final class Place: Sendable {
        let folder: URL
        let base: URL
        let root: URL

        init(folder: URL, base: URL, root: URL) {
            self.folder = folder
            self.base = base
            self.root = root
        }
    }

    static func isMarkdown(_ name: String) -> Bool {
        let lower = name.lowercased()
        return lower.hasSuffix(".md") || lower.hasSuffix(".markdown")
    }

    private func readFolder(_ folder: URL, base: URL, within root: URL, problems: inout [String]) throws -> [ImportEntry] {
        let names: [String]
        do {
            names = try FileManager.default.contentsOfDirectory(atPath: folder.path).sorted()
        } catch {
            throw InterchangeError.io(folder, error)
        }
        var entries: [ImportEntry] = []
        var place: Place?
        for name in names where !name.hasPrefix(".") {
            let url = folder.appendingPathComponent(name)
            var info = stat()
            guard lstat(url.path, &info) == 0 else { continue }
            if (info.st_mode & S_IFMT) == S_IFDIR {
                var collection = ImportEntry(source: relative(url, to: base), kind: .collection, name: name)
                let marker = url.appendingPathComponent(MarkdownExporter.collectionFile)
                let marked = FileManager.default.fileExists(atPath: marker.path)
                if let data = FileManager.default.contents(atPath: marker.path), let text = String(data: data, encoding: .utf8),
                    case let (matter?, _) = FrontMatter.split(text)
                {
                    apply(matter, to: &collection)
                }
                do {
                    collection.children = try readFolder(url, base: base, within: root, problems: &problems)
                } catch {
                    problems.append("\(relative(url, to: base)): \(error), skipped")
                    continue
                }
                // A folder with no note at any depth (images, attachments) is no collection,
                // unless an export made it.
                if marked || !collection.children.isEmpty { entries.append(collection) }
            } else if (info.st_mode & S_IFMT) == S_IFREG, Self.isMarkdown(name) {
                // Read when the import comes to it: a tree of 100,000 notes is never in memory
                // whole, and until then a note is its file name and its folder, shared.
                if place == nil { place = Place(folder: folder, base: base, root: root) }
                var note = ImportEntry(source: name, kind: .note, name: name)
                let reader = self
                note.reading = { [place] in
                    guard let place else { return (nil, []) }
                    var problems: [String] = []
                    let entry = reader.readNote(place.folder.appendingPathComponent(name), base: place.base, within: place.root, problems: &problems)
                    return (entry, problems)
                }
                entries.append(note)
            }
        }
        return entries
    }

    private func readNote(_ file: URL, base: URL, within root: URL, problems: inout [String]) -> ImportEntry? {
        let source = relative(file, to: base)
        guard let data = FileManager.default.contents(atPath: file.path) else {
            problems.append("\(source): cannot be read, skipped")
            return nil
        }
        guard let text = String(validating: data, as: UTF8.self) else {
            problems.append("\(source): not UTF-8, skipped")
            return nil
        }
        let stem = (file.lastPathComponent as NSString).deletingPathExtension
        var note = ImportEntry(source: source, kind: .note, name: stem)
        let (matter, rest) = FrontMatter.split(text)
        if let matter { apply(matter, to: &note) }
        var body = rest
        // The block an export writes after the body: its links are the note's images.
        let marker = "\n\n" + MarkdownExporter.imagesMarker + "\n"
        if let range = body.ranges(of: marker).last,
            body[range.upperBound...].split(separator: "\n").allSatisfy({ $0.hasPrefix("![") })
        {
            let links = MarkdownLinks.images(in: body[range.upperBound...])
            body = body[..<range.lowerBound]
            attach(links, from: file, base: base, within: root, to: &note, problems: &problems)
        }
        attach(MarkdownLinks.images(in: body), from: file, base: base, within: root, to: &note, problems: &problems)
        note.body = String(body)
        return note
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
        _ links: [MarkdownLinks.ImageLink], from file: URL, base: URL, within root: URL, to note: inout ImportEntry,
        problems: inout [String]
    ) {
        for link in links {
            let destination = link.destination
            if destination.isEmpty || destination.contains("://") || destination.hasPrefix("data:") || destination.hasPrefix("#") { continue }
            let target = (destination.hasPrefix("/") ? URL(fileURLWithPath: destination)
                : file.deletingLastPathComponent().appendingPathComponent(destination)).standardizedFileURL
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

    private func relative(_ url: URL, to base: URL) -> String {
        let path = url.standardizedFileURL.path
        let prefix = base.standardizedFileURL.path + "/"
        return path.hasPrefix(prefix) ? String(path.dropFirst(prefix.count)) : path
    }
}
