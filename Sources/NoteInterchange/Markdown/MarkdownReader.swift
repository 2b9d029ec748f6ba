import Foundation
import NoteFiles
import NoteMarkdown
import NoteStore

/// Reads a Markdown file, or a folder tree of them, as ``MarkdownExporter`` writes it or as
/// other tools do (an Obsidian vault, a git repository of notes).
///
/// A folder with notes at any depth becomes a collection (its `.collection.md`, when there,
/// gives its id, dates and name, and makes it a collection even when empty); a `.md` or `.markdown`
/// file becomes a note, named by its front matter's `name` or else its file name; its `id`,
/// `created` and `modified` are used when valid; other keys of the front matter are ignored, and
/// the block is not kept in the body. Image links to local files inside what is imported become
/// attachments (the link stays in the body, except the block an export writes after the body).
/// Hidden files and folders (a name starting with `.`) and files of other kinds are passed over. A
/// file that is not UTF-8 is reported.
///
/// A symbolic link (a note's file, a folder, an image) is followed when it leads to a place
/// inside what is imported (``ImportedTree``), and refused and reported when it leads out of
/// it; a link to a folder that holds it is reported and not walked again.
public struct MarkdownReader: Sendable {
    /// Whether `#tags` in a body become tags of its note, besides those of its front matter.
    public var inlineTags: Bool
    /// Reads each note's files to attach as the notes are read (``ImportEntry/File/prepared``),
    /// when set: on the thread that reads the tree.
    public var prepare: (@Sendable (_ file: URL, _ fileName: String?) -> PreparedFile)?

    public init(inlineTags: Bool = true) {
        self.inlineTags = inlineTags
    }

    /// The entries of `path` (a file or a folder) and the problems met, as a tree.
    public func read(_ path: URL) throws -> (entries: [ImportEntry], problems: [String]) {
        var items: [(entry: ImportEntry, key: Int?, parent: Int?)] = []
        let problems = try stream(path) { items.append(($0, $1, $2)) }
        var children: [Int: [Int]] = [:]
        var top: [Int] = []
        for (index, item) in items.enumerated() {
            if let parent = item.parent { children[parent, default: []].append(index) } else { top.append(index) }
        }
        func build(_ index: Int) -> ImportEntry {
            var entry = items[index].entry
            if let key = items[index].key { entry.children = (children[key] ?? []).map(build) }
            return entry
        }
        return (top.map(build), problems)
    }

    /// Whether `path` is a folder (true) or a Markdown file (false); throws when it is neither.
    @discardableResult
    public func check(_ path: URL) throws -> Bool {
        let root = path.standardizedFileURL
        var isFolder: ObjCBool = false
        guard FileManager.default.fileExists(atPath: root.path, isDirectory: &isFolder) else {
            throw InterchangeError.io(path: root.path, reason: "no such file or directory")
        }
        guard isFolder.boolValue || Self.isMarkdown(root.lastPathComponent) else {
            throw InterchangeError.notAnExport(
                path: root.path, reason: "it is not a Markdown (.md) or JSON export file")
        }
        guard access(root.path, isFolder.boolValue ? R_OK | X_OK : R_OK) == 0 else {
            throw InterchangeError.io(path: root.path, reason: String(cString: strerror(errno)))
        }
        return isFolder.boolValue
    }

    /// How many notes `path` holds (its Markdown files, those in hidden folders aside),
    /// counted without reading them: for a progress line.
    public func count(_ path: URL) -> Int {
        let root = path.standardizedFileURL
        var isFolder: ObjCBool = false
        guard FileManager.default.fileExists(atPath: root.path, isDirectory: &isFolder) else { return 0 }
        guard isFolder.boolValue else { return Self.isMarkdown(root.lastPathComponent) ? 1 : 0 }
        var notes = 0
        var folders = [root.path]
        while let folder = folders.popLast() {
            for entry in (try? FolderListing.entries(of: folder)) ?? [] {
                switch Self.role(of: entry) {
                case .folder?: folders.append(folder + "/" + entry.name)
                case .note?: notes += 1
                case nil: continue
                }
            }
        }
        return notes
    }

    /// Reads `path` (a file or a folder) in the order of its tree, giving each note and
    /// collection to `body` as it comes, with a key for a collection (nil for a note) and the
    /// key of the collection it is in (nil at the top); returns the problems met. A collection
    /// comes before what it holds, and only once a note was found in it (at any depth) or its
    /// folder has `.collection.md`. Files are listed and read on a thread of their own
    /// (``ReadAhead``) while `body` runs, at most one save's notes ahead of it: a tree of
    /// 100,000 notes is never in memory whole. A folder whose name the store refuses is
    /// reported once and passed over with everything in it, unread. `whenWaiting` runs when
    /// the next entry is not read yet, before waiting for it.
    public func stream(
        _ path: URL, whenWaiting: () throws -> Void = {},
        _ body: (ImportEntry, _ key: Int?, _ parent: Int?) throws -> Void
    ) throws -> [String] {
        let root = path.standardizedFileURL
        var problems: [String] = []
        if try !check(root) {
            let folder = root.deletingLastPathComponent()
            let tree = ImportedTree(folder)
            let place = Place(
                folder: folder, source: "", root: folder, tree: tree, files: VaultFiles(root: folder, tree: tree))
            if let note = readNote(named: root.lastPathComponent, in: place, problems: &problems) {
                try body(note, nil, nil)
            }
            return problems
        }
        let listed: [FolderListing.Entry]
        do {
            listed = try FolderListing.entries(of: root.path)
        } catch {
            throw InterchangeError.io(path: error.path, reason: error.reason)
        }
        let reader = self
        let prepare = prepare
        // A stack as large as the main thread's: the walk recurses once per folder level.
        let readAhead = ReadAhead<Walked>(
            stackSize: 8 << 20, bytes: { $0.entry?.preparedBytes ?? 0 }, discard: { $0.entry?.discardPreparedFiles() }
        ) { send in
            try withoutActuallyEscaping(send) { send in
                var walk = Walk(reader: reader, root: root) { walked in
                    guard let prepare, case .entry(var entry?, let key, let parent, let problems) = walked else {
                        return send(walked)
                    }
                    entry.prepareFiles(prepare)
                    return send(.entry(entry, key: key, parent: parent, problems: problems))
                }
                try walk.contents(listed, of: root, key: nil)
            }
        }
        while let walked = try readAhead.next(whenWaiting: whenWaiting) {
            switch walked {
            case let .entry(entry, key, parent, found):
                problems += found
                if let entry { try body(entry, key, parent) }
            case let .problem(problem): problems.append(problem)
            }
        }
        return problems
    }

    /// Where the notes of one folder are: what reading a note and its image links needs.
    struct Place {
        let folder: URL
        /// The folder's path relative to what is imported, with a slash at its end ("" at the
        /// top): the start of its notes' sources.
        let source: String
        let root: URL
        let tree: ImportedTree
        /// The files of what is imported, to find the file of an image or an embed.
        let files: VaultFiles
    }

    /// What an entry of a folder is to an import: a folder to walk or a note's file; nil for
    /// what is passed over (hidden, or a file of another kind).
    enum Role {
        case folder, note
    }

    static func role(of entry: FolderListing.Entry) -> Role? {
        guard !entry.name.hasPrefix(".") else { return nil }
        switch entry.kind {
        case .folder: return .folder
        case .file where isMarkdown(entry.name): return .note
        case .file, .other: return nil
        }
    }

    static func isMarkdown(_ name: String) -> Bool {
        let lower = name.lowercased()
        return lower.hasSuffix(".md") || lower.hasSuffix(".markdown")
    }

    /// What the walk of a tree gives, in its order.
    private enum Walked: Sendable {
        /// A note or collection (nil: a note skipped), with the problems its file had.
        case entry(ImportEntry?, key: Int?, parent: Int?, problems: [String])
        case problem(String)

        var entry: ImportEntry? {
            if case let .entry(entry, _, _, _) = self { return entry }
            return nil
        }
    }

    /// Ends the walk once the reader is cancelled.
    private struct Stopped: Error {}

    /// The walk of a folder tree, depth first in the order of names.
    private struct Walk {
        let reader: MarkdownReader
        let root: URL
        let tree: ImportedTree
        let files: VaultFiles
        let send: (Walked) -> Bool
        /// The resolved paths of the folders being walked, outermost first: a link back to one
        /// of them is not walked again.
        var chain: [String]
        var nextKey = 0
        /// Collections entered that no note was found in yet, outermost first: they are given
        /// when their first note is.
        var pending: [Walked] = []

        init(reader: MarkdownReader, root: URL, send: @escaping (Walked) -> Bool) {
            self.reader = reader
            self.root = root
            self.send = send
            tree = ImportedTree(root)
            files = VaultFiles(root: root, tree: tree)
            chain = [tree.resolvedPath]
        }

        mutating func give(_ walked: Walked) throws {
            guard send(walked) else { throw Stopped() }
        }

        /// Gives the collections waiting for their first note.
        mutating func givePending() throws {
            for walked in pending { try give(walked) }
            pending.removeAll()
        }

        mutating func contents(_ listed: [FolderListing.Entry], of folder: URL, key: Int?) throws {
            let source = reader.relative(folder, to: root).map { $0 + "/" } ?? ""
            let place = Place(folder: folder, source: source, root: root, tree: tree, files: files)
            for entry in listed.sorted(by: { $0.name < $1.name }) {
                switch MarkdownReader.role(of: entry) {
                case .folder?: try collection(entry.name, in: folder, source: source, key: key)
                case .note?: try note(entry.name, in: place, key: key)
                case nil:
                    if entry.kind == .other, !entry.name.hasPrefix(".") { try link(entry.name, in: place, key: key) }
                }
            }
        }

        /// A symbolic link met in the walk: a link to a folder or to a Markdown file is taken
        /// as that folder or note when it leads inside what is imported, and reported when it
        /// leads out; other links (an image, nothing) are passed over here.
        mutating func link(_ name: String, in place: Place, key: Int?) throws {
            let path = place.folder.path + "/" + name
            var info = stat()
            guard lstat(path, &info) == 0, info.st_mode & S_IFMT == S_IFLNK, stat(path, &info) == 0 else { return }
            let isFolder = info.st_mode & S_IFMT == S_IFDIR
            guard isFolder || (info.st_mode & S_IFMT == S_IFREG && MarkdownReader.isMarkdown(name)) else { return }
            switch tree.resolve(path) {
            case .missing: return
            case .outside:
                try give(.problem("\(place.source + name): a symbolic link to outside what is imported, skipped"))
            case let .inside(resolved) where isFolder:
                guard !chain.contains(resolved) else {
                    try give(.problem("\(place.source + name): a symbolic link to a folder that holds it, skipped"))
                    return
                }
                try collection(name, in: place.folder, source: place.source, key: key)
            case .inside:
                try note(name, in: place, key: key)
            }
        }

        mutating func note(_ name: String, in place: Place, key: Int?) throws {
            try givePending()
            var problems: [String] = []
            let note = reader.readNote(named: name, in: place, problems: &problems)
            try give(.entry(note, key: nil, parent: key, problems: problems))
        }

        mutating func collection(_ name: String, in folder: URL, source: String, key: Int?) throws {
            let url = folder.appendingPathComponent(name, isDirectory: true)
            var collection = ImportEntry(source: source + name, kind: .collection, name: name)
            let inner: [FolderListing.Entry]
            do {
                inner = try FolderListing.entries(of: url.path)
            } catch {
                try give(
                    .problem(
                        "\(collection.source): \(InterchangeError.io(path: error.path, reason: error.reason)), skipped")
                )
                return
            }
            let marker = url.appendingPathComponent(MarkdownExporter.collectionFile)
            let marked = inner.contains { $0.name == MarkdownExporter.collectionFile }
            // The collection's front matter: what an export writes is a few lines.
            if marked, case let .bytes(data) = RawFiles.contents(of: marker.path, limit: 1 << 20),
                let text = String(validating: data, as: UTF8.self), case let (matter?, _) = FrontMatter.split(text)
            {
                reader.apply(matter, to: &collection)
            }
            // The import would skip it (and what it holds): its files are not read. Like
            // any folder, it is a collection, to be reported, only with notes in it or
            // when an export made it.
            if let problem = Importer.Run.problem(of: collection) {
                if marked || reader.count(url) > 0 { try give(.problem("\(collection.source): \(problem), skipped")) }
                return
            }
            let inside = nextKey
            nextKey += 1
            let walked = Walked.entry(collection, key: inside, parent: key, problems: [])
            // A folder with no note at any depth (images, attachments) is no
            // collection, unless an export made it.
            if marked {
                try givePending()
                try give(walked)
            } else {
                pending.append(walked)
            }
            let depth = pending.count
            chain.append(tree.resolve(url.path).insidePath ?? url.path)
            defer { chain.removeLast() }
            try contents(inner, of: url, key: inside)
            if !marked && pending.count == depth { pending.removeLast() }
        }
    }

    fileprivate func readNote(named name: String, in place: Place, problems: inout [String]) -> ImportEntry? {
        let source = place.source + name
        let bytes: [UInt8]
        switch RawFiles.contents(of: place.folder.path + "/" + name, limit: Self.maximumFileBytes) {
        case let .bytes(read): bytes = read
        case .tooLarge:
            problems.append(
                "\(source): larger than \(Self.maximumFileBytes) bytes, more than a note's file holds, skipped")
            return nil
        case .failed:
            problems.append("\(source): cannot be read, skipped")
            return nil
        }
        // A byte order mark is a mark of the encoding, not text: the front matter after it is read.
        let byteOrderMark: [UInt8] = [0xEF, 0xBB, 0xBF]
        guard
            let text = String(
                validating: bytes.starts(with: byteOrderMark) ? bytes.dropFirst(3) : bytes[...], as: UTF8.self)
        else {
            problems.append("\(source): not UTF-8, skipped")
            return nil
        }
        var note = ImportEntry(source: source, kind: .note, name: Self.stem(name))
        var (matter, rest) = FrontMatter.split(text)
        if matter != nil {
            do {
                apply(try FrontMatterYAML.read(String(FrontMatter.block(of: text, before: rest))), to: &note)
            } catch {
                problems.append("\(source): \(error); the file is kept whole as the body")
                (matter, rest) = (nil, Substring(text))
            }
        }
        // Without dates in its front matter, a note was last changed when its file was.
        if note.created == nil || note.modified == nil {
            var info = stat()
            if stat(place.folder.path + "/" + name, &info) == 0 {
                let changed = Date(
                    timeIntervalSince1970: Double(info.st_mtim.tv_sec) + Double(info.st_mtim.tv_nsec / 1_000_000) / 1000
                )
                note.modified = note.modified ?? changed
                note.created = note.created ?? min(changed, note.modified ?? changed)
            }
        }
        var body = rest
        // The block an export writes after the body: its links are the note's images.
        if let range = ByteSearch.lastRange(of: Self.imagesMarker, in: body),
            range.lowerBound == body.startIndex || body.utf8[body.utf8.index(before: range.lowerBound)] != 0x0D,
            body[range.upperBound...].split(separator: "\n").allSatisfy({ $0.hasPrefix("![") || $0.hasPrefix("[") })
        {
            let links = MarkdownScanner.references(in: String(body[range.upperBound...]))
            body = body[..<range.lowerBound]
            attach(links, in: place, to: &note, problems: &problems, linkTextIsCaption: true)
        }
        let bodyText = String(body)
        let references = MarkdownScanner.references(in: bodyText)
        attach(references, in: place, to: &note, problems: &problems)
        note.body = bodyText
        note.links = BodyLinks(body: bodyText, references: references)
        if inlineTags {
            let inline = MarkdownScanner.tags(in: note.body ?? "").filter { Tag.problem(Tag.normalized($0)) == nil }
            if !inline.isEmpty { note.tags = (note.tags ?? []) + inline.filter { !(note.tags ?? []).contains($0) } }
        }
        return note
    }

    /// The largest note file read: a body at the store's limit (10 MiB) with 1 MiB for its
    /// front matter and links. A larger file is reported and skipped without being read.
    public static let maximumFileBytes = Item.maximumBodyBytes + (1 << 20)

    /// What precedes the links an export writes after a body (after a line feed that ends no
    /// carriage return: a `\r\n` is one line break, not the first of two).
    private static let imagesMarker = Array(("\n\n" + MarkdownExporter.imagesMarker + "\n").utf8)

    /// A date as front matter gives it (``FrontMatterDate``), quoted or not.
    static func date(_ text: String) -> Date? {
        var text = text.trimmingCharacters(in: .whitespaces)
        if text.count >= 2, text.first == "\"" || text.first == "'", text.last == text.first {
            text = String(text.dropFirst().dropLast())
        }
        return FrontMatterDate.date(text)
    }

    /// A file's name without its extension.
    static func stem(_ name: String) -> String {
        guard let dot = name.lastIndex(of: "."), dot != name.startIndex else { return name }
        return String(name[..<dot])
    }

    /// The keys of front matter that are a note's own, not properties: what an export writes
    /// for every note.
    static let ownKeys: Set<String> = ["id", "name", "created", "modified", "tags"]

    /// A note's id, name, dates and tags from its front matter, read as YAML, and every other
    /// key as a property, in order.
    fileprivate func apply(_ pairs: [(key: String, value: PropertyValue)], to entry: inout ImportEntry) {
        func text(_ key: String) -> String? {
            if case let .string(text)? = pairs.first(where: { $0.key == key })?.value { return text }
            return nil
        }
        // The first of the keys that the block has, each compared without regard to case.
        func date(_ keys: [String]) -> Date? {
            for key in keys {
                guard let value = pairs.first(where: { $0.key.lowercased() == key })?.value else { continue }
                if case let .string(text) = value, let date = Self.date(text) { return date }
            }
            return nil
        }
        if let id = text("id").flatMap(UUID.init(storeText:)) { entry.id = id }
        if let created = date(["created", "date", "created_at"]) { entry.created = created }
        if let modified = date(["modified", "updated", "lastmod", "updated_at"]) { entry.modified = modified }
        if let name = text("name"), !name.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty { entry.name = name }
        guard entry.kind == .note else { return }
        // `tags`, or as Joplin writes it, `Tags`.
        let tagsKey =
            pairs.first { $0.key == Property.tags }?.key ?? pairs.first { $0.key.lowercased() == Property.tags }?.key
        if let tagsKey, let tags = pairs.first(where: { $0.key == tagsKey })?.value { entry.tags = Self.tags(tags) }
        var properties: [(key: String, value: PropertyValue)] = []
        for pair in pairs {
            if pair.key == "id", entry.id == nil, let alias = Self.alias(fromForeignID: pair.value) {
                // Another tool's id (a zk or Zettelkasten `20250821081408`) is how its links
                // name the note: an alias finds it by that name.
                if let index = properties.firstIndex(where: { $0.key == Property.aliases }) {
                    properties[index].value = Self.adding(alias, to: properties[index].value)
                } else if let given = pairs.first(where: { $0.key == Property.aliases })?.value {
                    properties.append((Property.aliases, Self.adding(alias, to: given)))
                } else {
                    properties.append((Property.aliases, .list([.string(alias)])))
                }
                continue
            }
            guard !Self.ownKeys.contains(pair.key), pair.key != tagsKey else { continue }
            if pair.key == Property.aliases, properties.contains(where: { $0.key == Property.aliases }) { continue }
            properties.append(pair)
        }
        entry.properties = properties
    }

    /// The name that an `id` of front matter which is not a note's id gives: its text, or its
    /// digits; nil for an empty one or one of another kind.
    static func alias(fromForeignID value: PropertyValue) -> String? {
        let text: String
        switch value {
        case let .string(string): text = string.trimmingCharacters(in: .whitespaces)
        case .integer: text = value.json
        default: return nil
        }
        return text.isEmpty || UUID(storeText: text) != nil ? nil : text
    }

    /// `aliases` (a list or one text) with `alias` added at its end, unless it has it.
    static func adding(_ alias: String, to aliases: PropertyValue) -> PropertyValue {
        var items: [PropertyValue]
        switch aliases {
        case let .list(list): items = list
        case .null: items = []
        default: items = [aliases]
        }
        if !items.contains(.string(alias)) { items.append(.string(alias)) }
        return .list(items)
    }

    /// The tags front matter gives: a list, or one text of words separated by commas or
    /// spaces (as Obsidian also reads them); numbers are tags too.
    static func tags(_ value: PropertyValue) -> [String] {
        func words(_ value: PropertyValue) -> [String] {
            switch value {
            case let .string(text): return text.split(whereSeparator: { $0 == "," || $0.isWhitespace }).map(String.init)
            case .integer, .number: return [value.json]
            default: return []
            }
        }
        if case let .list(items) = value { return items.flatMap(words) }
        return words(value)
    }

    fileprivate func apply(_ matter: FrontMatter, to entry: inout ImportEntry) {
        if let id = matter["id"].flatMap(UUID.init(storeText:)) { entry.id = id }
        // As Obsidian, Joplin and Hugo name them.
        if let created = matter.value(ofAny: ["created", "date", "created_at"]).flatMap(Self.date) {
            entry.created = created
        }
        if let modified = matter.value(ofAny: ["modified", "updated", "lastmod", "updated_at"]).flatMap(Self.date) {
            entry.modified = modified
        }
        if let name = matter["name"], !name.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty {
            entry.name = name
        }
        if entry.kind == .note, let tags = matter.list("tags") { entry.tags = tags }
    }

    /// Images and embedded files become attachments, of any kind: `![text](path)` (reference
    /// style too), `<img src>`, Obsidian's `![[file.png]]`, `![[file.png|300]]`, `![[doc.pdf#page=2]]`,
    /// and links to local files that are not notes (`[report](files/report.pdf)`),
    /// found as ``VaultFiles`` finds them, never inside code. The body keeps its text as
    /// written. Links to the web are left as text; an embedded note (`![[Note]]`) is not a
    /// file. A file outside what is imported, or none, is reported.
    private func attach(
        _ references: [MarkdownReference], in place: Place, to note: inout ImportEntry, problems: inout [String],
        linkTextIsCaption: Bool = false
    ) {
        for reference in references {
            let isLink = reference.kind == .link
            guard reference.kind == .image || reference.kind == .htmlImage || reference.kind == .wikiEmbed || isLink,
                !reference.target.isEmpty, !reference.isExternal
            else { continue }
            let written = reference.target
            // An embed of a name without an extension is a note's; a link without one is a
            // file's only when there is such a file (`[build](Makefile)`).
            if reference.kind == .wikiEmbed, Self.isNoteName(written) { continue }
            if isLink, Self.isMarkdown((written as NSString).lastPathComponent) { continue }
            let file: URL
            switch place.files.find(written, from: place.folder) {
            case let .file(found) where isLink && Self.isMarkdown(found.lastPathComponent): continue
            case let .file(found): file = found
            // A link (not an embed) to what is not a file here is a link, not an attachment.
            case _ where isLink: continue
            case .outside:
                problems.append("\(note.source): image \(written) is outside what is imported, not attached")
                continue
            case .linkOutside:
                problems.append(
                    "\(note.source): image \(written) is a symbolic link to outside what is imported, not attached")
                continue
            case .missing:
                var isFolder: ObjCBool = false
                let folder =
                    FileManager.default.fileExists(
                        atPath: place.folder.appendingPathComponent(written).path, isDirectory: &isFolder)
                    && isFolder.boolValue
                problems.append(
                    "\(note.source): image \(written) \(folder ? "is a folder" : "not found"), not attached")
                continue
            }
            if note.images.contains(where: { $0.file == file }) { continue }
            // A link's text is a caption only in the block an export writes after the body.
            note.images.append(
                ImportEntry.File(
                    file: file, caption: isLink && !linkTextIsCaption ? nil : Self.caption(of: reference), fileName: nil
                ))
        }
    }

    /// Whether an embed's target names a note rather than a file: no extension, or a
    /// Markdown one.
    private static func isNoteName(_ target: String) -> Bool {
        let name = (target as NSString).lastPathComponent
        guard let dot = name.lastIndex(of: "."), dot != name.startIndex else { return true }
        return isMarkdown(name)
    }

    /// A Markdown image's text, or an embed's shown text when it is not a size (`300`,
    /// `300x200`); nil when there is none.
    static func caption(of reference: MarkdownReference) -> String? {
        let text = reference.kind == .wikiEmbed ? reference.display ?? "" : reference.text
        let isSize = !text.isEmpty && text.allSatisfy { $0.isASCII && ($0.isNumber || $0 == "x") }
        return text.isEmpty || isSize ? nil : text
    }

    /// The path of `url` relative to `base`; nil when it is `base`.
    fileprivate func relative(_ url: URL, to base: URL) -> String? {
        let path = url.standardizedFileURL.path
        let basePath = base.standardizedFileURL.path
        if path == basePath { return nil }
        let prefix = basePath.hasSuffix("/") ? basePath : basePath + "/"
        return path.hasPrefix(prefix) ? String(path.dropFirst(prefix.count)) : path
    }
}
