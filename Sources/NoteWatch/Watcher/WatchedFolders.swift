import Foundation

/// The folders one watcher watches, as absolute paths without a trailing `/`.
///
/// - `root`, recursively: the tree whose finished files and removals are reported.
/// - the parent of `root`, for the root's own name only: to arm the root again when it is made
///   again (or made at all, when it did not exist at start).
/// - `modifications`, not recursively: files written there are reported as modified.
/// - `wake`, not recursively: the watcher writes ``wakeFileName`` there to wake its own thread,
///   which is blocked in libinotifytools for whole seconds otherwise.
struct WatchedFolders: Sendable {
    /// The name of the file the watcher writes into the wake folder.
    static let wakeFileName = "watcher.wake"

    let root: String
    let rootParent: String
    let rootName: String
    let modifications: String?
    let wake: String

    var wakeFile: String { wake + "/" + Self.wakeFileName }

    init(root: URL, modifications: URL?, wake: URL) throws(WatchError) {
        let root = Self.path(of: root)
        let slash = root.lastIndex(of: "/") ?? root.startIndex
        self.root = root
        rootParent = slash == root.startIndex ? "/" : String(root[..<slash])
        rootName = String(root[root.index(after: slash)...])
        self.modifications = modifications.map(Self.path(of:))
        self.wake = Self.path(of: wake)
        guard root.hasPrefix("/"), !rootName.isEmpty else {
            throw .cannotWatch(path: self.root, reason: "the root of a watch cannot be '/'")
        }
        for (name, folder) in [("wake", self.wake), ("modified files", self.modifications)] {
            guard let folder, isInsideRoot(folder) else { continue }
            throw .overlappingFolders(self.root, folder, reason: "the \(name) folder must be outside the watched root")
        }
    }

    /// The absolute path of a folder given by a path relative to the root.
    func absolute(_ relative: String) -> String {
        relative.isEmpty ? root : root + "/" + relative
    }

    private func isInsideRoot(_ path: String) -> Bool {
        path == root || path.hasPrefix(root + "/")
    }

    private static func path(of url: URL) -> String {
        var path = url.standardizedFileURL.path
        while path.count > 1 && path.hasSuffix("/") { path.removeLast() }
        return path
    }
}
