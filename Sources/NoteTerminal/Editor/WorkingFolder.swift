import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// A new folder, mode 0700, that holds the editor's copy of a text while it runs.
struct WorkingFolder {
    let url: URL

    /// Makes a new folder with a random name inside `parent`, making `parent` (0700) too.
    init(in parent: URL) throws(TerminalError) {
        if mkdir(parent.path, 0o700) != 0 && errno != EEXIST {
            throw .workingFile(path: parent.path, reason: ForegroundProcess.errnoText())
        }
        let url = parent.appendingPathComponent(UUID().uuidString.prefix(8).lowercased())
        guard mkdir(url.path, 0o700) == 0 else {
            throw .workingFile(path: url.path, reason: ForegroundProcess.errnoText())
        }
        self.url = url
    }

    /// Writes `data` to a new file, mode 0600.
    func write(_ data: Data, to file: URL) throws(TerminalError) {
        guard FileManager.default.createFile(atPath: file.path, contents: data, attributes: [.posixPermissions: 0o600])
        else {
            throw .workingFile(path: file.path, reason: "cannot create it")
        }
    }

    /// Removes the folder and whatever the editor left in it (backup and swap files).
    func remove() {
        try? FileManager.default.removeItem(at: url)
    }
}
