import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// Creation of the store folder and its private files, with the modes the store promises.
enum StoreFolder {
    /// Creates `path` and any missing parents with mode 0700, and checks that it is a
    /// writable folder.
    static func prepare(_ path: String) throws {
        var isFolder: ObjCBool = false
        if FileManager.default.fileExists(atPath: path, isDirectory: &isFolder) {
            guard isFolder.boolValue else {
                throw StoreError.cannotOpen(path: path, reason: "it is not a folder")
            }
        } else {
            try createFolders(path)
        }
        if access(path, W_OK | X_OK) != 0 {
            throw StoreError.cannotOpen(path: path, reason: "the folder is not writable")
        }
    }

    private static func createFolders(_ path: String) throws {
        var current = path.hasPrefix("/") ? "" : "."
        for component in path.split(separator: "/") {
            current += "/" + component
            if mkdir(current, 0o700) != 0 && errno != EEXIST {
                throw StoreError.cannotOpen(path: path, reason: errnoText())
            }
        }
    }

    /// Creates an empty file with mode 0600 unless it exists.
    static func createPrivateFile(_ file: String, storePath: String) throws {
        let fd = open(file, O_CREAT | O_RDWR | O_CLOEXEC, 0o600)
        if fd < 0 {
            throw StoreError.cannotOpen(path: storePath, reason: errnoText())
        }
        close(fd)
    }

    /// Whether the file system holding `path` has no room left for a page of the store.
    static func isFull(_ path: String) -> Bool {
        var info = statvfs()
        guard statvfs(path, &info) == 0 else { return false }
        return UInt64(info.f_bavail) * UInt64(info.f_frsize) < 64 * 1024
    }

    static func errnoText(_ code: Int32 = errno) -> String {
        String(cString: strerror(code)).lowercased()
    }
}
