/// What each watch descriptor of a watcher stands for.
///
/// The kernel reports a watch descriptor with every event; this table turns it into a folder.
/// Descriptors are not reused soon (the kernel allocates them cyclically), so an event of a
/// watch that was removed finds no entry and is dropped.
struct WatchTable {
    /// The jobs of a folder watched on its own (not as part of the tree): one folder can have
    /// several, and then has one watch with the union of their masks.
    struct FolderRoles: OptionSet {
        let rawValue: UInt8
        static let wake = FolderRoles(rawValue: 1 << 0)
        static let modifications = FolderRoles(rawValue: 1 << 1)
        static let rootParent = FolderRoles(rawValue: 1 << 2)
    }

    enum Role: Equatable {
        /// A folder of the watched tree, by its path relative to the root ("" for the root).
        case tree(String)
        case folder(FolderRoles)
    }

    private var roles: [Int32: Role] = [:]
    /// The watch of the root folder, while the root is watched.
    private(set) var rootWatch: Int32?

    subscript(watch: Int32) -> Role? { roles[watch] }

    mutating func setTree(_ watch: Int32, path relative: String) {
        roles[watch] = .tree(relative)
        if relative.isEmpty { rootWatch = watch }
    }

    mutating func setFolder(_ watch: Int32, roles folderRoles: FolderRoles) {
        roles[watch] = .folder(folderRoles)
    }

    mutating func forget(_ watch: Int32) {
        roles[watch] = nil
        if watch == rootWatch { rootWatch = nil }
    }

    /// The watches of the tree folder at `relative` and of every folder below it; all of the
    /// tree for "".
    func treeWatches(under relative: String) -> [Int32] {
        roles.compactMap { watch, role in
            guard case let .tree(path) = role else { return nil }
            let below = relative.isEmpty || path == relative || path.hasPrefix(relative + "/")
            return below ? watch : nil
        }
    }
}
