import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// One device of the ``GitPeer``: a working clone whose notes are Markdown files in `notes/`,
/// saved by commit and push and brought up to date by pull, as a person would at a shell.
struct GitDevice {
    /// The working tree of the clone.
    let folder: URL
    private let runner: ProcessRunner

    init(folder: URL, git runner: ProcessRunner) {
        self.folder = folder
        self.runner = runner
    }

    /// Writes `notes/<file>.md`, then adds, commits and pushes it to `main`; returns the time
    /// all of it took, in milliseconds.
    func save(file: String, name: String, body: String) throws -> Double {
        try Stopwatch.milliseconds {
            try write(file: file, name: name, body: body)
            try git(["add", "notes/\(file).md"])
            try git(["commit", "-q", "-m", "Save \(file).md"])
            try git(["push", "-q", "origin", "main"])
        }
    }

    /// Brings in what the other devices pushed to `main`, fast-forward only; returns the time
    /// it took, in milliseconds.
    func pull() throws -> Double {
        try git(["pull", "-q", "--ff-only", "origin", "main"])
    }

    /// Whether `notes/<file>.md` exists, can be read, and starts as a note does, with a title.
    func has(file: String) -> Bool {
        guard let contents = FileManager.default.contents(atPath: path(of: file).path) else { return false }
        return contents.starts(with: Data("# ".utf8))
    }

    /// Writes a note's Markdown file, `# name`, a blank line and the body, without committing.
    ///
    /// The file is written as a shell redirection writes it, without a sync to disk:
    /// Foundation's `Data.write(to:)` syncs every file, which would make seeding a hundred
    /// thousand notes take minutes, and git syncs no loose object either.
    func write(file: String, name: String, body: String) throws {
        let url = path(of: file)
        var descriptor = open(url.path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
        if descriptor < 0 && errno == ENOENT {
            try FileManager.default.createDirectory(
                at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
            descriptor = open(url.path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
        }
        guard descriptor >= 0 else { throw Self.writeError(url, errno) }
        let handle = FileHandle(fileDescriptor: descriptor, closeOnDealloc: true)
        try handle.write(contentsOf: Data("# \(name)\n\n\(body)\n".utf8))
    }

    /// Runs git in the working tree; returns the time it took, in milliseconds.
    @discardableResult
    func git(_ arguments: [String]) throws -> Double {
        try runner.run(["-C", folder.path] + arguments).milliseconds
    }

    private static func writeError(_ url: URL, _ code: Int32) -> BenchError {
        .unexpected("cannot write \(url.path): " + String(cString: strerror(code)))
    }

    private func path(of file: String) -> URL {
        folder.appendingPathComponent("notes").appendingPathComponent("\(file).md")
    }
}
