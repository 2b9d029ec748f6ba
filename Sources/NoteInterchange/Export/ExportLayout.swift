import Foundation
import NoteStore

/// Where a Markdown export puts every item, decided before it writes a file: the folder of
/// each collection and the file of each note, as paths from the top of the export. Links are
/// written as they resolve in this tree (``ExportLinks``), and a note's images are placed
/// where its body links them when the place is free (``place(_:from:sha256:)``).
///
/// A path is its names joined with `/`, without `.md` for a note; lookups that a link makes
/// are without regard to case, as Obsidian's.
struct ExportLayout {
    /// The names given in each folder, by the folder's path ("" at the top).
    private var names: [String: FileNames] = [:]
    /// The paths of the folders made: collections', and those made to hold images.
    private var folders: Set<String> = [""]
    /// The files placed for images, by path, with the SHA-256 of their bytes.
    private var placed: [String: String] = [:]
    /// Each note's path.
    private(set) var notes: [UUID: String] = [:]
    /// Each collection's path.
    private(set) var collections: [UUID: String] = [:]
    /// The notes' paths by their last name, lowercased: of the notes that a link may name.
    private var byName: [String: [String]] = [:]
    /// The notes by their lowercased path: of the notes that a link may name.
    private var byPath: [String: UUID] = [:]
    /// The last names, lowercased, that the wiki links and embeds of the store name: only
    /// notes whose file or own name is one of them are looked up by links, so only those are
    /// kept in ``byName`` and ``byPath`` (a store of notes without links holds no table of
    /// their paths in memory). Nil: every note.
    private let linkedNames: Set<String>?
    let portable: Bool

    /// The layout of `tree`: everything at the top level, or its root and what it holds.
    /// `linkTargets` are the targets of the wiki links and embeds that may be looked up
    /// (``target(_:from:)``); nil when any may.
    init(tree: ExportTree, portable: Bool, linkTargets: [String]? = nil) {
        self.portable = portable
        linkedNames = linkTargets.map { Set($0.map(Self.lookupName)) }
        if let root = tree.roots.first {
            if root.isNote {
                addNotes([(root.id, root.name)], in: "")
            } else {
                addCollection(root, in: "", tree: tree)
            }
        } else {
            addContents(of: nil, in: "", tree: tree)
        }
    }

    private mutating func addContents(of collection: UUID?, in folder: String, tree: ExportTree) {
        for child in tree.collections(in: collection) { addCollection(child, in: folder, tree: tree) }
        addNotes(tree.noteNames(in: collection), in: folder)
    }

    private mutating func addCollection(_ collection: Item, in folder: String, tree: ExportTree) {
        let path = Self.join(folder, names[folder, default: FileNames(portable: portable)].claim(collection.name))
        collections[collection.id] = path
        folders.insert(path)
        if names[path] == nil { names[path] = FileNames(portable: portable) }
        addContents(of: collection.id, in: path, tree: tree)
    }

    private mutating func addNotes(_ notes: [(id: UUID, name: String)], in folder: String) {
        var given = names[folder] ?? FileNames(portable: portable)
        for (id, name) in notes {
            let path = Self.join(folder, given.claim(name, suffix: ".md"))
            self.notes[id] = path
            let last = Self.lastName(path).lowercased()
            if let linkedNames, !linkedNames.contains(last), !linkedNames.contains(Self.lookupName(name)) { continue }
            byName[last, default: []].append(path)
            byPath[path.lowercased()] = id
        }
        names[folder] = given
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

    /// The name of a collection's folder, or of a note's file without `.md`.
    func fileName(of id: UUID) -> String? {
        (notes[id] ?? collections[id]).map { String(Self.lastName($0)) }
    }

    // MARK: Files beside the notes

    /// A new name in `folder` for a file (with its extension), unique there.
    mutating func claimFile(_ name: String, in folder: String) -> String {
        let dot = name.lastIndex(of: ".").flatMap { $0 == name.startIndex ? nil : $0 }
        let stem = dot.map { String(name[..<$0]) } ?? name
        let ext = dot.map { String(name[$0...]) } ?? ""
        let file = names[folder, default: FileNames(portable: portable)].claim(stem, suffix: ext) + ext
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
        if made.isEmpty, names[current]?.isTaken(file) ?? false { return .unusable }
        if portable, FileNames.portable(file) != file { return .unusable }
        // Claimed from the outermost folder in: each made folder is a name in its parent.
        var parent = made.first.map(Self.folder(of:)) ?? ""
        for folder in made {
            names[parent, default: FileNames(portable: portable)].reserve(String(Self.lastName(folder)))
            folders.insert(folder)
            parent = folder
        }
        names[current, default: FileNames(portable: portable)].reserve(file)
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
    func shortestTarget(of id: UUID, from folder: String) -> String? {
        guard let path = notes[id] else { return nil }
        let name = String(Self.lastName(path))
        if target(name, from: folder) == id { return name }
        return path.contains("/") ? path : "/" + path
    }
}
