import Foundation
import NoteStore

/// Where a Markdown export puts every item: the folder of each collection and the file of each
/// note, as paths from the top of the export. Links are written as they resolve in this tree
/// (``ExportedBody``), and a note's images are placed where its body links them when the place is
/// free (``place(_:from:sha256:)``).
///
/// The names of a folder are given in one order, whenever they are made: its collections', then
/// its notes' (with `.md`), by name, then the files placed in it as notes are written. So that
/// memory does not grow with the store, the layout keeps the names of a folder only while its
/// notes are written (``notePath(_:in:)``, ``close(_:)``), and makes them again, the same, when a
/// file goes into a folder written before: its items' names, then the files' (``extras``). What
/// links look up, the paths of the notes that a link may name, is decided for every folder
/// before the first file is written.
///
/// A path is its names joined with `/`, without `.md` for a note; lookups that a link makes
/// are without regard to case, as Obsidian's.
struct ExportLayout {
    private let tree: ExportTree
    /// The names given in the folders in use, by the folder's path ("" at the top).
    private var names: [String: FileNames] = [:]
    /// The names given in each folder besides its items': files placed or claimed there, and
    /// folders made, in the order given. Kept to the end of the export, to give them again
    /// when the folder's names are made again.
    private var extras: [String: [String]] = [:]
    /// The paths of the folders made: collections', and those made to hold images.
    private var folders: Set<String> = [""]
    /// The files placed for images, by path, with the SHA-256 of their bytes.
    private var placed: [String: String] = [:]
    /// The paths of the notes of the folders in use, and of the notes links may name.
    private var notes: [UUID: String] = [:]
    /// The notes whose paths stay in ``notes`` when their folder is closed.
    private var kept: Set<UUID> = []
    /// The notes of each folder in use.
    private var opened: [String: [UUID]] = [:]
    /// Each collection's path.
    private(set) var collections: [UUID: String] = [:]
    /// The collection whose folder each path is.
    private var collectionAt: [String: UUID] = [:]
    /// The notes' paths by their last name, lowercased: of the notes that a link may name.
    private var byName: [String: [String]] = [:]
    /// The notes by their lowercased path: of the notes that a link may name.
    private var byPath: [String: UUID] = [:]
    let portable: Bool

    /// The layout of `tree`: everything at the top level, or its root and what it holds.
    /// `linkTargets` are the targets of the wiki links and embeds that may be looked up
    /// (``target(_:from:)``); nil when any may. Only notes whose file or own name is the last
    /// name of one of them are kept in ``byName`` and ``byPath`` (a store of notes without
    /// links holds no table of their paths).
    init(tree: ExportTree, portable: Bool, linkTargets: [String]? = nil) {
        self.tree = tree
        self.portable = portable
        let linkedNames = linkTargets.map { Set($0.map(Self.lookupName)) }
        // Every folder's names, one folder at a time: the collections' paths, and the notes
        // that links may name.
        var pending = [""]
        while let folder = pending.popLast() {
            let (_, children, notes) = contents(of: folder)
            for (collection, path) in children {
                collections[collection] = path
                collectionAt[path] = collection
                folders.insert(path)
                pending.append(path)
            }
            for (id, path, name) in notes {
                let last = Self.lastName(path).lowercased()
                if let linkedNames, !linkedNames.contains(last), !linkedNames.contains(Self.lookupName(name)) {
                    continue
                }
                byName[last, default: []].append(path)
                byPath[path.lowercased()] = id
                self.notes[id] = path
                kept.insert(id)
            }
        }
    }

    /// The names given in `folder` to what the tree puts there, in their order: its
    /// collections (with their paths) and its notes (with their paths and names).
    private func contents(of folder: String) -> (
        FileNames, [(UUID, String)], [(id: UUID, path: String, name: String)]
    ) {
        var given = FileNames(portable: portable)
        let children: [Item]
        let notes: [(id: UUID, name: String)]
        if folder.isEmpty, let root = tree.roots.first {
            (children, notes) = root.isNote ? ([], [(root.id, root.name)]) : ([root], [])
        } else if folder.isEmpty {
            (children, notes) = (tree.collections(in: nil), tree.noteNames(in: nil))
        } else if let collection = collectionAt[folder] {
            (children, notes) = (tree.collections(in: collection), tree.noteNames(in: collection))
        } else {
            (children, notes) = ([], [])
        }
        let collectionPaths = children.map { ($0.id, Self.join(folder, given.claim($0.name))) }
        let notePaths = notes.map { ($0.id, Self.join(folder, given.claim($0.name, suffix: ".md")), $0.name) }
        return (given, collectionPaths, notePaths)
    }

    /// The names of `folder`, made when it has none in use.
    private mutating func open(_ folder: String) {
        guard names[folder] == nil else { return }
        var (given, _, notes) = contents(of: folder)
        for name in extras[folder] ?? [] { given.reserve(name) }
        names[folder] = given
        for (id, path, _) in notes { self.notes[id] = path }
        opened[folder] = notes.map(\.id)
    }

    /// The path of the note `id` of `folder`, whose names are kept in use until ``close(_:)``.
    mutating func notePath(_ id: UUID, in folder: String) -> String? {
        open(folder)
        return notes[id]
    }

    /// Ends the use of `folder`'s names, once its notes are written.
    mutating func close(_ folder: String) {
        guard names[folder] != nil else { return }
        for id in opened[folder] ?? [] where !kept.contains(id) { notes[id] = nil }
        opened[folder] = nil
        names[folder] = nil
    }

    /// The path of a note of the export, wherever it is; nil when the export does not hold it.
    mutating func path(of id: UUID) -> String? {
        if let path = notes[id] { return path }
        guard let item = try? tree.store.item(id, includingBody: false), item.isNote, !item.isTrashed else {
            return nil
        }
        let folder: String
        if let root = tree.roots.first {
            if root.isNote { return nil }
            guard let parent = item.parent, let path = collections[parent] else { return nil }
            folder = path
        } else if let parent = item.parent {
            guard let path = collections[parent] else { return nil }
            folder = path
        } else {
            folder = ""
        }
        guard let path = contents(of: folder).2.first(where: { $0.id == id })?.path else { return nil }
        notes[id] = path
        kept.insert(id)
        return path
    }

    /// The path of the folder of a collection of the export, or of its top (nil).
    func folderPath(of collection: UUID?) -> String {
        collection.flatMap { collections[$0] } ?? ""
    }

    /// The last name of a link's target as the lookups key it: lowercased, without `.md`.
    static func lookupName(_ target: String) -> String {
        var text = Substring(target.trimmingCharacters(in: .whitespaces)).lowercased()
        if text.hasSuffix(".md") { text = String(text.dropLast(3)) }
        return String(lastName(text))
    }

    static func join(_ folder: String, _ name: String) -> String {
        folder.isEmpty ? name : folder + "/" + name
    }

    static func lastName(_ path: String) -> Substring {
        path.split(separator: "/").last ?? Substring(path)
    }

    static func folder(of path: String) -> String {
        path.lastIndex(of: "/").map { String(path[..<$0]) } ?? ""
    }

    /// The name of a collection's folder.
    func folderName(of collection: UUID) -> String? {
        collections[collection].map { String(Self.lastName($0)) }
    }

    // MARK: Files beside the notes

    /// A new name in `folder` for a file (with its extension), unique there.
    mutating func claimFile(_ name: String, in folder: String) -> String {
        open(folder)
        let dot = name.lastIndex(of: ".").flatMap { $0 == name.startIndex ? nil : $0 }
        let stem = dot.map { String(name[..<$0]) } ?? name
        let ext = dot.map { String(name[$0...]) } ?? ""
        let file = names[folder, default: FileNames(portable: portable)].claim(stem, suffix: ext) + ext
        extras[folder, default: []].append(file)
        return Self.join(folder, file)
    }

    /// Records that the file at `path` holds the bytes of `sha256`.
    mutating func record(_ path: String, sha256: String) {
        placed[path] = sha256
    }

    /// What placing an image at a link's place comes to.
    enum Placement: Equatable {
        /// The file is to be written at this path.
        case write(String)
        /// A file of the same bytes is there already.
        case there(String)
        /// The place cannot be used: outside the export, taken, or not a name a file can have.
        case unusable
    }

    /// Claims the place a link in a note of `folder` points to (`target`, decoded, without its
    /// fragment) for a file of the bytes `sha256`: a path inside the export whose folders are
    /// collections' folders or free names (made folders), and whose file name is free or a
    /// file of the same bytes. Names are taken as written: a place that differs from one given
    /// only in case is not used.
    mutating func place(_ target: String, from folder: String, sha256: String) -> Placement {
        guard !target.hasPrefix("/"), !target.contains("\0") else { return .unusable }
        var parts = folder.isEmpty ? [] : folder.split(separator: "/").map(String.init)
        for part in target.split(separator: "/", omittingEmptySubsequences: true) {
            if part == "." { continue }
            if part == ".." {
                guard parts.popLast() != nil else { return .unusable }
                continue
            }
            guard part.utf8.count <= 255 else { return .unusable }
            parts.append(String(part))
        }
        guard let file = parts.popLast() else { return .unusable }
        var current = ""
        var made: [String] = []
        for part in parts {
            let next = Self.join(current, part)
            if folders.contains(current) { open(current) }
            if !folders.contains(next) {
                guard !(names[current]?.isTaken(part) ?? false), !portable || FileNames.portable(part) == part else {
                    return .unusable
                }
                made.append(next)
            }
            current = next
        }
        let path = Self.join(current, file)
        if let there = placed[path] { return there == sha256 ? .there(path) : .unusable }
        if made.isEmpty { open(current) }
        if made.isEmpty, names[current]?.isTaken(file) ?? false { return .unusable }
        if portable, FileNames.portable(file) != file { return .unusable }
        // Claimed from the outermost folder in: each made folder is a name in its parent.
        var parent = made.first.map(Self.folder(of:)) ?? ""
        for folder in made {
            open(parent)
            names[parent, default: FileNames(portable: portable)].reserve(String(Self.lastName(folder)))
            extras[parent, default: []].append(String(Self.lastName(folder)))
            folders.insert(folder)
            parent = folder
        }
        names[current, default: FileNames(portable: portable)].reserve(file)
        extras[current, default: []].append(file)
        placed[path] = sha256
        return .write(path)
    }

    // MARK: Links as Obsidian resolves them

    /// The note a wiki link's target reaches in the exported tree, when Obsidian and an import
    /// find the same one: a relative path (`./`, `../`) from the note's `folder`; a path from
    /// the top (`/Name`, `Folder/Name`), else the one note whose path ends with it; a name:
    /// the file of that name in the note's folder, unless another is at the top (Obsidian
    /// takes the one at the top, an import the one beside), else the one at the top, else the
    /// one of the files of that name that both take (``agreed(_:)``). Nil when none does, or
    /// the two would differ.
    func target(_ target: String, from folder: String) -> UUID? {
        var text = Substring(target.trimmingCharacters(in: .whitespaces))
        if text.lowercased().hasSuffix(".md") { text = text.dropLast(3) }
        if text.hasPrefix("./") || text.hasPrefix("../") {
            var parts = folder.isEmpty ? [] : folder.split(separator: "/").map(String.init)
            for part in text.split(separator: "/") {
                if part == "." { continue }
                if part == ".." {
                    guard parts.popLast() != nil else { return nil }
                } else {
                    parts.append(String(part))
                }
            }
            return byPath[parts.joined(separator: "/").lowercased()]
        }
        let absolute = text.hasPrefix("/")
        while text.hasPrefix("/") { text = text.dropFirst() }
        let path = text.lowercased()
        if absolute || path.contains("/") {
            if let exact = byPath[path] { return exact }
            if absolute { return nil }
        } else {
            let top = byPath[path]
            let beside = byPath[Self.join(folder.lowercased(), path)]
            if let beside { return top == nil || top == beside ? beside : nil }
            if let top { return top }
        }
        let candidates = (byName[String(Self.lastName(path))] ?? []).filter { $0.lowercased().hasSuffix("/" + path) }
        guard let only = Self.agreed(candidates) else { return nil }
        return byPath[only.lowercased()]
    }

    /// Of several paths, the one that Obsidian (the shortest as text, in UTF-16 as
    /// JavaScript counts) and an import (the fewest folders) both take; nil when they may
    /// differ.
    static func agreed(_ paths: [String]) -> String? {
        guard paths.count > 1 else { return paths.first }
        func folders(_ path: String) -> Int { path.split(separator: "/").count }
        let fewest = paths.map(folders).min() ?? 0
        let shortest = paths.map(\.utf16.count).min() ?? 0
        let byFolders = paths.filter { folders($0) == fewest }
        let byLength = paths.filter { $0.utf16.count == shortest }
        return byFolders.count == 1 && byLength == byFolders ? byFolders[0] : nil
    }

    /// How a wiki link in a note of `folder` names the note `id` so that Obsidian and an
    /// import find it: its file's name when that reaches it (``target(_:from:)``), else its
    /// path from the top (`/Name` for a note at the top).
    mutating func shortestTarget(of id: UUID, from folder: String) -> String? {
        guard let path = path(of: id) else { return nil }
        let name = String(Self.lastName(path))
        if target(name, from: folder) == id { return name }
        return path.contains("/") ? path : "/" + path
    }
}
