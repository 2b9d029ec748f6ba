import Foundation

/// A git repository of Markdown notes synced through a bare repository: the peer that the
/// sync of `notes` is compared with.
///
/// Many people who want their notes synced in a terminal keep one Markdown file per note in
/// git, and sync by commit and push on one device and pull on another. The peer models that on
/// one machine: a bare repository, `origin.git`, stands for the server, and each device is a
/// clone of it in a folder of its own (``GitDevice``). Clones and fetches go through git's
/// pack protocol (`--no-local`), as over a network, rather than by linking object files.
///
/// Git runs with its defaults, with two exceptions: it reads no system or user configuration
/// (`GIT_CONFIG_NOSYSTEM`, `GIT_CONFIG_GLOBAL`), so that figures do not depend on whose
/// machine runs it, and no repository collects garbage or runs maintenance on its own
/// (`gc.auto=0`, `maintenance.auto=false`, `receive.autogc=false`), so that no run pays for
/// housekeeping another left behind. Its durability is the default one: git syncs packs to
/// disk, but not loose objects, refs or the index (`core.fsync`, git-config(1)).
struct GitPeer {
    /// The folder holding the bare repository and the devices' clones.
    let folder: URL
    private let git: ProcessRunner

    /// The bare repository that devices push to and pull from.
    var origin: URL { folder.appendingPathComponent("origin.git") }

    /// Makes the bare repository `folder/origin.git`, empty, with `main` as its initial branch;
    /// throws ``BenchError/missingTool(_:)`` when git is not on `PATH`.
    init(folder: URL, bench: Workbench) throws {
        guard let executable = Self.findOnPath("git") else { throw BenchError.missingTool("git") }
        self.folder = folder
        git = ProcessRunner(
            executable: executable, scratch: try bench.makeFolder("git-process"), environment: Self.environment)
        try git.run(["init", "-q", "--bare", "--initial-branch=main", origin.path])
        for (key, value) in Self.housekeeping {
            try git.run(["-C", origin.path, "config", key, value])
        }
    }

    /// A working clone `folder/<name>` of the bare repository, ready to commit to `main`,
    /// whether or not the bare repository has a commit yet.
    func device(_ name: String) throws -> GitDevice {
        let clone = folder.appendingPathComponent(name)
        let settings = (Self.housekeeping + Self.identity).flatMap { ["-c", "\($0.key)=\($0.value)"] }
        try git.run(["clone", "-q", "--no-local"] + settings + [origin.path, clone.path])
        // A clone of an empty repository may have no branch named yet: its first commit
        // starts `main`, which the bare repository's HEAD names.
        try git.run(["-C", clone.path, "symbolic-ref", "HEAD", "refs/heads/main"])
        return GitDevice(folder: clone, git: git)
    }

    /// Puts `notes` into the bare repository as one commit of one Markdown file per note,
    /// `notes/<index>.md`, pushed from a clone that is removed afterwards; returns the time it
    /// took in milliseconds.
    ///
    /// The files are written directly and committed with a single `git add -A`, so that a
    /// hundred thousand notes take seconds, not the hours of a commit each.
    @discardableResult
    func seed(notes: [(name: String, body: String)]) throws -> Double {
        try Stopwatch.milliseconds {
            let seeder = try device("seeding-\(UUID().uuidString.prefix(8))")
            defer { try? FileManager.default.removeItem(at: seeder.folder) }
            for (index, note) in notes.enumerated() {
                try seeder.write(file: String(index), name: note.name, body: note.body)
            }
            try seeder.git(["add", "-A"])
            try seeder.git(["commit", "-q", "-m", "Add \(notes.count) notes"])
            try seeder.git(["push", "-q", "-u", "origin", "main"])
        }
    }

    /// The time in milliseconds a new device takes to join: a clone of the bare repository,
    /// until its working tree is checked out.
    ///
    /// Throws when the clone does not hold `count` note files. The clone is removed afterwards.
    func timeClone(expecting count: Int) throws -> Double {
        let clone = folder.appendingPathComponent("joining-\(UUID().uuidString.prefix(8))")
        defer { try? FileManager.default.removeItem(at: clone) }
        let milliseconds = try git.run(["clone", "-q", "--no-local", origin.path, clone.path]).milliseconds
        let files =
            (try? FileManager.default.contentsOfDirectory(atPath: clone.appendingPathComponent("notes").path)) ?? []
        let found = files.filter { $0.hasSuffix(".md") }.count
        guard found == count else {
            throw BenchError.unexpected("a clone of \(origin.path) holds \(found) note files, not \(count)")
        }
        return milliseconds
    }

    /// Settings for every repository: no garbage collection or maintenance run by git itself.
    private static let housekeeping = [
        (key: "gc.auto", value: "0"), (key: "maintenance.auto", value: "false"),
        (key: "receive.autogc", value: "false"),
    ]

    /// Settings for a device: who commits, and no signing, which would need a key.
    private static let identity = [
        (key: "user.name", value: "Notes Bench"), (key: "user.email", value: "notes-bench@example.invalid"),
        (key: "commit.gpgsign", value: "false"),
    ]

    /// Variables that keep git from reading the configuration of the machine or its user, or
    /// from asking for credentials.
    private static let environment = [
        "GIT_CONFIG_NOSYSTEM": "1", "GIT_CONFIG_GLOBAL": "/dev/null", "GIT_TERMINAL_PROMPT": "0",
    ]

    /// The first executable named `name` in the folders of `PATH`.
    private static func findOnPath(_ name: String) -> URL? {
        let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/local/bin:/usr/bin:/bin"
        return path.split(separator: ":")
            .map { URL(fileURLWithPath: String($0)).appendingPathComponent(name) }
            .first { FileManager.default.isExecutableFile(atPath: $0.path) }
    }
}
