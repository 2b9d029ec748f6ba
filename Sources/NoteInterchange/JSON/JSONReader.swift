import Foundation
import NoteFiles
import NoteStore

/// Reads what ``JSONExporter`` writes: `notes.jsonl` (given itself, or the folder holding it),
/// a line at a time, and its images beside it.
///
/// The first line must say it is such an export, else nothing is read. An item line that is
/// not an object with an `id`, a `kind` and a `name` is reported and skipped, and so is an
/// attachment without a `file` inside the export's folder (a symbolic link that leads out of
/// it is outside); an item whose `parent` is not in the file goes at the top of the import.
public struct JSONReader: Sendable {
    /// Reads each note's files to attach as the lines are read (``ImportEntry/File/prepared``),
    /// when set: on the thread that reads the file.
    public var prepare: (@Sendable (_ file: URL, _ fileName: String?) -> PreparedFile)?

    public init() {}

    /// Whether `path` is a JSON export: a `.jsonl` file, or a folder with `notes.jsonl`.
    public static func isExport(_ path: URL) -> Bool {
        if path.pathExtension.lowercased() == "jsonl" { return true }
        var isFolder: ObjCBool = false
        return FileManager.default.fileExists(atPath: path.path, isDirectory: &isFolder) && isFolder.boolValue
            && FileManager.default.fileExists(atPath: path.appendingPathComponent(JSONExporter.fileName).path)
    }

    /// The entries of the export at `path` and the problems met, as a tree.
    public func read(_ path: URL) throws -> (entries: [ImportEntry], problems: [String]) {
        var items: [(entry: ImportEntry, parent: UUID?)] = []
        let problems = try stream(path) { items.append(($0, $1)) }
        return (Self.tree(items), problems)
    }

    /// How many notes the export at `path` lists (lines with `"kind":"note"`), counted without
    /// reading them: for a progress line.
    public func count(_ path: URL) throws -> Int {
        let file = Self.file(path)
        guard let handle = FileHandle(forReadingAtPath: file.path) else {
            throw InterchangeError.io(path: file.path, reason: String(cString: strerror(errno)))
        }
        defer { try? handle.close() }
        let note = Array(#""kind":"note""#.utf8)
        var notes = 0
        try Self.lines(of: handle, file: file) { line in
            if let line, line.withUnsafeBytes({ ByteSearch.firstOffset(of: note, in: $0) }) != nil { notes += 1 }
        }
        return notes
    }

    /// Reads the export at `path` a line at a time, giving each item to `body` with the id of
    /// its parent in the file (nil at the top); returns the problems met. Lines are read and
    /// parsed on a thread of their own (``ReadAhead``) while `body` runs; `whenWaiting` runs
    /// when the next item is not parsed yet, before waiting for it.
    public func stream(
        _ path: URL, whenWaiting: () throws -> Void = {}, _ body: (ImportEntry, UUID?) throws -> Void
    ) throws -> [String] {
        let file = Self.file(path)
        let base = file.deletingLastPathComponent()
        let tree = ImportedTree(base)
        guard let handle = FileHandle(forReadingAtPath: file.path) else {
            throw InterchangeError.io(path: file.path, reason: String(cString: strerror(errno)))
        }
        let prepare = prepare
        let readAhead = ReadAhead<Parsed>(
            bytes: { $0.entry?.preparedBytes ?? 0 }, discard: { $0.entry?.discardPreparedFiles() }
        ) { send in
            defer { try? handle.close() }
            var number = 0
            try Self.lines(of: handle, file: file) { line in
                number += 1
                guard let line else {
                    guard number > 1 else {
                        throw InterchangeError.notAnExport(
                            path: file.path,
                            reason: "its first line is longer than \(Self.maximumLineBytes) bytes, "
                                + "which an export's never is"
                        )
                    }
                    guard
                        send(
                            .problem(
                                "\(file.lastPathComponent) line \(number): longer than \(Self.maximumLineBytes) bytes, "
                                    + "more than a note holds, skipped"
                            ))
                    else {
                        throw Stopped()
                    }
                    return
                }
                guard var parsed = try parse(line, number: number, file: file, base: base, tree: tree) else { return }
                if let prepare, case .item(var entry, let parent, let problems) = parsed {
                    entry.prepareFiles(prepare)
                    parsed = .item(entry, parent: parent, problems: problems)
                }
                guard send(parsed) else { throw Stopped() }
            }
            guard number > 0 else { throw InterchangeError.notAnExport(path: file.path, reason: "it is empty") }
        }
        var problems: [String] = []
        while let parsed = try readAhead.next(whenWaiting: whenWaiting) {
            switch parsed {
            case let .item(entry, parent, found):
                problems += found
                try body(entry, parent)
            case let .problem(problem): problems.append(problem)
            }
        }
        return problems
    }

    /// What a line gives.
    private enum Parsed: Sendable {
        /// An item, with what was wrong in it (an image left out).
        case item(ImportEntry, parent: UUID?, problems: [String])
        case problem(String)

        var entry: ImportEntry? {
            if case let .item(entry, _, _) = self { return entry }
            return nil
        }
    }

    /// Ends the reading of lines once the reader is cancelled.
    private struct Stopped: Error {}

    /// The item of line `number`, or the problems it has; nil for the header and blank lines.
    /// Throws when the header is not an export's.
    private func parse(_ line: Data, number: Int, file: URL, base: URL, tree: ImportedTree) throws -> Parsed? {
        let object = try? JSONSerialization.jsonObject(with: line) as? [String: Any]
        if number == 1 {
            guard let object, object["format"] as? String == JSONExporter.format else {
                throw InterchangeError.notAnExport(
                    path: file.path, reason: "its first line does not say it is a notes export")
            }
            guard (object["formatVersion"] as? NSNumber)?.intValue == 1 else {
                throw InterchangeError.notAnExport(
                    path: file.path, reason: "it is of a format version this build does not read")
            }
            return nil
        }
        let source = "\(file.lastPathComponent) line \(number)"
        var problems: [String] = []
        guard let object, var entry = entry(object, source: source, base: base, tree: tree, problems: &problems) else {
            if !line.allSatisfy({ $0 == 0x20 || $0 == 0x09 || $0 == 0x0D }) {
                return .problem("\(source): not an item, skipped")
            }
            return nil
        }
        // Properties keep the order of their maps' keys, which a dictionary loses: the line is
        // read again, by the reader of properties, when it has some.
        if entry.kind == .note, object["properties"] != nil {
            guard let text = String(data: line, encoding: .utf8),
                let whole = PropertyValue(json: text, maximumBytes: line.count),
                case let .list(items)? = whole["properties"]
            else {
                return .problem("\(source): properties that cannot be read, skipped")
            }
            entry.properties = items.compactMap { item in
                guard case let .string(key)? = item["key"], let value = item["value"] else { return nil }
                return (key, value)
            }
        }
        return .item(entry, parent: (object["parent"] as? String).flatMap(UUID.init(storeText:)), problems: problems)
    }

    /// `notes.jsonl` in a folder, or the file given.
    static func file(_ path: URL) -> URL {
        let file = path.standardizedFileURL
        var isFolder: ObjCBool = false
        if FileManager.default.fileExists(atPath: file.path, isDirectory: &isFolder), isFolder.boolValue {
            return file.appendingPathComponent(JSONExporter.fileName)
        }
        return file
    }

    private func entry(_ object: [String: Any], source: String, base: URL, tree: ImportedTree, problems: inout [String])
        -> ImportEntry?
    {
        guard let id = (object["id"] as? String).flatMap(UUID.init(storeText:)),
            let kind = (object["kind"] as? String).flatMap(ItemKind.init(rawValue:)),
            let name = object["name"] as? String
        else { return nil }
        var entry = ImportEntry(source: source, kind: kind, id: id, name: name)
        entry.created = (object["created"] as? String).flatMap(ISODate.date(fromFrontMatter:))
        entry.modified = (object["modified"] as? String).flatMap(ISODate.date(fromFrontMatter:))
        guard kind == .note else { return entry }
        entry.body = object["body"] as? String ?? ""
        entry.links = entry.body.map { BodyLinks(body: $0) }
        entry.tags = (object["tags"] as? [Any])?.compactMap { $0 as? String }
        for attachment in object["attachments"] as? [[String: Any]] ?? [] {
            guard let name = attachment["file"] as? String, !name.hasPrefix("/"),
                !name.split(separator: "/").contains("..")
            else {
                problems.append("\(source): an image without a file inside the export, not attached")
                continue
            }
            var file = base.appendingPathComponent(name)
            switch tree.resolve(file.path) {
            case let .inside(resolved): file = URL(fileURLWithPath: resolved)
            case .outside:
                problems.append("\(source): image \(name) is a symbolic link to outside the export, not attached")
                continue
            case .missing: break  // Reported when it is attached.
            }
            entry.images.append(
                ImportEntry.File(
                    file: file, caption: attachment["caption"] as? String, fileName: attachment["fileName"] as? String))
        }
        return entry
    }

    /// Items as a tree: each under its parent when the parent is in the file, else at the top.
    static func tree(_ items: [(entry: ImportEntry, parent: UUID?)]) -> [ImportEntry] {
        let ids = Set(items.compactMap { $0.entry.kind == .collection ? $0.entry.id : nil })
        var children: [UUID: [ImportEntry]] = [:]
        var roots: [ImportEntry] = []
        for (entry, parent) in items {
            if let parent, ids.contains(parent), parent != entry.id {
                children[parent, default: []].append(entry)
            } else {
                roots.append(entry)
            }
        }
        var placed: Set<UUID> = []
        func attach(_ entry: ImportEntry) -> ImportEntry {
            var entry = entry
            guard let id = entry.id, placed.insert(id).inserted else { return entry }
            entry.children = (children[id] ?? []).map(attach)
            return entry
        }
        var result = roots.map(attach)
        // Parents that make a cycle (a file written by hand): their items go at the top.
        for (entry, _) in items where entry.kind == .collection && !placed.contains(entry.id!) {
            result.append(attach(entry))
        }
        return result
    }

    /// The longest line read: a note's body at the store's limit (10 MiB), every byte written
    /// as a six-character escape, with room for the rest of the item. A longer line is not
    /// held: it is given as nil and its bytes passed over up to its line break.
    public static let maximumLineBytes = 64 << 20

    /// Calls `body` with each line of the file, without its line break, reading 1 MiB at a
    /// time; with nil for a line longer than ``maximumLineBytes``. Each byte is searched for a
    /// line break once, however long its line.
    static func lines(of handle: FileHandle, file: URL, _ body: (Data?) throws -> Void) throws {
        var pending = Data()
        /// How much of `pending` holds no line break.
        var searched = 0
        /// Within a line too long, until its line break.
        var passingOver = false
        while true {
            let chunk: Data
            do {
                chunk = try handle.read(upToCount: 1 << 20) ?? Data()
            } catch {
                throw InterchangeError.io(file, error)
            }
            if chunk.isEmpty { break }
            pending += chunk
            // Line breaks found with memchr: Data's own search goes a byte at a time, generically.
            let ends: [Int] = pending.withUnsafeBytes { buffer in
                guard let base = buffer.baseAddress else { return [] }
                var ends: [Int] = []
                var offset = searched
                while offset < buffer.count, let found = memchr(base + offset, 0x0A, buffer.count - offset) {
                    let end = base.distance(to: UnsafeRawPointer(found))
                    ends.append(end)
                    offset = end + 1
                }
                return ends
            }
            var start = 0
            for end in ends {
                if passingOver {
                    passingOver = false
                } else if end - start > maximumLineBytes {
                    try body(nil)
                } else {
                    try body(pending.subdata(in: start..<end))
                }
                start = end + 1
            }
            pending = start == 0 ? pending : pending.subdata(in: start..<pending.count)
            searched = pending.count
            if passingOver || pending.count > maximumLineBytes {
                if !passingOver { try body(nil) }
                passingOver = true
                pending = Data()
                searched = 0
            }
        }
        if !pending.isEmpty && !passingOver { try body(pending) }
    }
}
