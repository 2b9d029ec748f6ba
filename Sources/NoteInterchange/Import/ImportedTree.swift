import Foundation

/// The folder an import reads, as the file system resolves it: where a path leads once every
/// symbolic link on it is followed (realpath(3)), and whether that is still inside. A link
/// that leads inside is followed; one that leads out is not, so that a cloned repository's
/// `pic.png -> ../private/photo.png` cannot bring a private file in, and with it to every
/// device.
struct ImportedTree: Sendable {
    /// The folder's own resolved path.
    let resolvedPath: String

    init(_ folder: URL) {
        resolvedPath = Self.resolve(folder.path) ?? folder.standardizedFileURL.path
    }

    /// Where a path leads.
    enum Resolution: Equatable {
        /// To this path, inside the tree.
        case inside(String)
        /// Out of the tree.
        case outside
        /// Nowhere: nothing is there (or it cannot be looked up).
        case missing

        var insidePath: String? {
            if case let .inside(path) = self { return path }
            return nil
        }
    }

    /// The resolved path of what `path` leads to when inside.
    func resolve(_ path: String) -> Resolution {
        guard let resolved = Self.resolve(path) else { return .missing }
        let prefix = resolvedPath.hasSuffix("/") ? resolvedPath : resolvedPath + "/"
        return resolved == resolvedPath || resolved.hasPrefix(prefix) ? .inside(resolved) : .outside
    }

    private static func resolve(_ path: String) -> String? {
        guard let resolved = realpath(path, nil) else { return nil }
        defer { free(resolved) }
        return String(cString: resolved)
    }
}
