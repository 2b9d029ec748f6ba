import Foundation

/// What every scenario runs with: the sizes, the `notes` binary, a scratch folder removed at
/// the end, and a line of progress on standard error now and then.
final class Workbench {
    let sizes: BenchSizes
    let notesBinary: URL
    /// A fresh folder under the system's temporary folder (`TMPDIR`).
    let scratch: URL
    private var folderCount = 0

    init(sizes: BenchSizes, notesBinary: URL) throws {
        self.sizes = sizes
        self.notesBinary = notesBinary
        scratch = URL(fileURLWithPath: NSTemporaryDirectory())
            .appendingPathComponent("notes-bench-\(UUID().uuidString.prefix(8))")
        try FileManager.default.createDirectory(at: scratch, withIntermediateDirectories: true)
    }

    deinit {
        try? FileManager.default.removeItem(at: scratch)
    }

    /// A new empty folder inside the scratch folder.
    func makeFolder(_ label: String) throws -> URL {
        folderCount += 1
        let folder = scratch.appendingPathComponent("\(folderCount)-\(label)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        return folder
    }

    func removeFolder(_ folder: URL) {
        try? FileManager.default.removeItem(at: folder)
    }

    /// Runs of the `notes` binary, with the run's scrypt cost (``BenchSizes/scryptCost``).
    func notes() throws -> ProcessRunner {
        var runner = ProcessRunner(executable: notesBinary, scratch: try makeFolder("process"))
        if let cost = sizes.scryptCost { runner.environment["NOTES_SCRYPT_COST"] = String(cost) }
        return runner
    }

    func progress(_ message: String) {
        FileHandle.standardError.write(Data("notes-bench: \(message)\n".utf8))
    }
}
