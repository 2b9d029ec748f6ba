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

    /// A runner of the `notes` binary.
    func notes() throws -> ProcessRunner {
        ProcessRunner(executable: notesBinary, scratch: try makeFolder("process"))
    }

    func progress(_ message: String) {
        FileHandle.standardError.write(Data("notes-bench: \(message)\n".utf8))
    }
}

/// How big each scenario runs: full for the figures in docs/benchmarks.md, quick for a check
/// that the benchmark still works.
struct BenchSizes: Sendable {
    /// `local-save`: saves through the store API, and `notes add` runs.
    var saves: Int
    var addRuns: Int
    /// `listing`: notes in the store, collections, and rounds of the four commands.
    var libraryNotes: Int
    var collections: Int
    var listingRounds: Int
    /// `insert`: notes inserted in one save, and repetitions of each variant.
    var insertNotes: Int
    var insertRepetitions: Int

    static let full = BenchSizes(
        saves: 500, addRuns: 30, libraryNotes: 100_000, collections: 100, listingRounds: 30,
        insertNotes: 100_000, insertRepetitions: 3)

    static let quick = BenchSizes(
        saves: 40, addRuns: 5, libraryNotes: 10_000, collections: 100, listingRounds: 5,
        insertNotes: 5_000, insertRepetitions: 2)
}
