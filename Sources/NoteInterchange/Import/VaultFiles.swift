import Foundation
import NoteFiles
import NoteStore
import Synchronization

/// The files of a folder being imported, looked up as Obsidian finds the file of an embed or
/// an image link: by its path from the note's folder, then from the top of the vault, then in
/// the attachment folder that `.obsidian/app.json` names (`attachmentFolderPath`), then by its
/// name (or the end of its path) anywhere in the vault, the shortest path first.
///
/// The names are listed once, on the first lookup by name, without hidden folders (`.git`,
/// `.obsidian`, `.trash`); every file found is resolved through ``ImportedTree``, so that a
/// link out of the vault is never followed. Shared by the walk's notes: lookups are locked.
final class VaultFiles: Sendable {
    let root: URL
    let tree: ImportedTree
    /// The attachment folder as the vault's settings give it: relative to the note's folder
    /// when it starts with `./`, else to the top of the vault; nil when there is none.
    let attachmentFolder: String?
    /// Per lowercased file name, the paths relative to the root of the files of that name.
    private let byName = Mutex<[String: [String]]?>(nil)

    /// The most files listed for lookups by name: past it, the rest are not found by name.
    static let listingLimit = 1_000_000

    init(root: URL, tree: ImportedTree) {
        self.root = root
        self.tree = tree
        attachmentFolder = Self.attachmentFolder(in: root)
    }

    /// What a lookup found.
    enum Found: Equatable {
        case file(URL)
        /// The path is outside what is imported.
        case outside
        /// The path is inside, and a symbolic link on it leads out.
        case linkOutside
        case missing
    }

    /// The file that `target` (a path as a link writes it, decoded, without its fragment)
    /// names, from a note in `folder`.
    func find(_ target: String, from folder: URL) -> Found {
        if target.hasPrefix("/") { return check(URL(fileURLWithPath: target).standardizedFileURL) }
        var candidates = [folder.appendingPathComponent(target), root.appendingPathComponent(target)]
        if let attachments = attachmentFolder {
            let base =
                attachments.hasPrefix("./")
                ? folder.appendingPathComponent(String(attachments.dropFirst(2)))
                : root.appendingPathComponent(attachments)
            candidates.append(base.appendingPathComponent((target as NSString).lastPathComponent))
        }
        var refused: Found?
        for candidate in candidates {
            switch check(candidate.standardizedFileURL) {
            case let .file(url): return .file(url)
            case .linkOutside: refused = .linkOutside
            case .outside: refused = refused ?? .outside
            case .missing: continue
            }
        }
        if let path = byNameLookup(target) {
            return check(root.appendingPathComponent(path).standardizedFileURL)
        }
        // The first place looked, the note's folder, says what the link means when nothing was
        // found.
        return refused == .linkOutside
            ? .linkOutside : check(candidates[0].standardizedFileURL) == .outside ? .outside : .missing
    }

    /// Whether `url` is a regular file inside what is imported.
    private func check(_ url: URL) -> Found {
        guard url.path.hasPrefix(root.path + "/") else { return .outside }
        switch tree.resolve(url.path) {
        case let .inside(resolved):
            var info = stat()
            guard stat(resolved, &info) == 0, info.st_mode & S_IFMT == S_IFREG else { return .missing }
            return .file(URL(fileURLWithPath: resolved))
        case .outside: return .linkOutside
        case .missing: return .missing
        }
    }

    /// The path of the file whose path ends with `target` (a whole name or more, its `.` and
    /// `..` left out), the shortest first, then in the order of names.
    private func byNameLookup(_ target: String) -> String? {
        let parts = target.split(separator: "/").filter { $0 != "." && $0 != ".." && !$0.isEmpty }
        guard let name = parts.last?.lowercased() else { return nil }
        let suffix = parts.joined(separator: "/").lowercased()
        let paths: [String] = byName.withLock { byName in
            if byName == nil { byName = listNames() }
            return byName?[name] ?? []
        }
        return paths.first { path in
            let lower = path.lowercased()
            return lower == suffix || lower.hasSuffix("/" + suffix)
        }
    }

    /// Every file of the vault by lowercased name, the paths of each name shortest first.
    private func listNames() -> [String: [String]] {
        var names: [String: [String]] = [:]
        var count = 0
        var folders = [""]
        while let relative = folders.popLast(), count < Self.listingLimit {
            let path = relative.isEmpty ? root.path : root.path + "/" + relative
            for entry in (try? FolderListing.entries(of: path)) ?? [] where !entry.name.hasPrefix(".") {
                let child = relative.isEmpty ? entry.name : relative + "/" + entry.name
                switch entry.kind {
                case .folder: folders.append(child)
                case .file, .other:
                    names[entry.name.lowercased(), default: []].append(child)
                    count += 1
                }
            }
        }
        for key in names.keys {
            names[key]?.sort { ($0.utf8.count, $0) < ($1.utf8.count, $1) }
        }
        return names
    }

    /// `attachmentFolderPath` of the vault's `.obsidian/app.json`, when it names a folder
    /// (`/` and an empty value mean the top of the vault, which every lookup tries).
    private static func attachmentFolder(in root: URL) -> String? {
        guard case let .bytes(bytes) = RawFiles.contents(of: root.path + "/.obsidian/app.json", limit: 1 << 20),
            let object = try? JSONSerialization.jsonObject(with: Data(bytes)) as? [String: Any],
            let folder = object["attachmentFolderPath"] as? String
        else { return nil }
        let trimmed = folder.hasSuffix("/") ? String(folder.dropLast()) : folder
        return trimmed.isEmpty || trimmed == "." || trimmed == "/" ? nil : trimmed
    }
}
