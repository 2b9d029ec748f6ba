import Foundation

/// What one run of the `notes` binary did.
public struct NotesResult: Sendable, CustomStringConvertible {
    public let status: Int32
    public let output: String
    public let error: String

    public var description: String { "status \(status)\nstdout: \(output)\nstderr: \(error)" }

    /// Standard output without its final line break.
    public var line: String { output.trimmingCharacters(in: .newlines) }
}

/// Runs the built `notes` binary as a separate process.
public enum NotesCommand {
    /// The binary: `NOTES_BINARY`, else `notes` beside the test bundle in the build folder.
    public static var binary: URL {
        if let path = ProcessInfo.processInfo.environment["NOTES_BINARY"] { return URL(fileURLWithPath: path) }
        return productsFolder.appendingPathComponent("notes")
    }

    /// The build folder holding the test bundle and the products.
    public static var productsFolder: URL {
        var url = URL(fileURLWithPath: CommandLine.arguments[0]).resolvingSymlinksInPath()
        while url.path != "/" {
            url.deleteLastPathComponent()
            if FileManager.default.isExecutableFile(atPath: url.appendingPathComponent("notes").path) {
                return url
            }
        }
        return URL(fileURLWithPath: FileManager.default.currentDirectoryPath).appendingPathComponent(".build/debug")
    }

    /// Runs `notes` with `arguments` and waits for it.
    ///
    /// Standard input is `input` when given, else /dev/null. With `unprivileged`, a process
    /// running as root runs `notes` without its capabilities, so that file modes bind it as
    /// they bind anyone else. With `clockOffset` (such as `+365d`), `notes` runs under
    /// Debian's `faketime` with its wall clock moved by that much.
    @discardableResult
    public static func run(
        _ arguments: [String], store: URL? = nil, input: Data? = nil,
        environment: [String: String] = [:], unprivileged: Bool = false, clockOffset: String? = nil
    ) throws -> NotesResult {
        let scratch = TemporaryFolder("notes-run")
        let outURL = scratch.appending("out")
        let errURL = scratch.appending("err")
        _ = FileManager.default.createFile(atPath: outURL.path, contents: nil)
        _ = FileManager.default.createFile(atPath: errURL.path, contents: nil)
        let process = makeProcess(arguments, store: store, environment: environment, unprivileged: unprivileged)
        if let clockOffset {
            process.arguments =
                ["-f", clockOffset, process.executableURL?.path ?? binary.path] + (process.arguments ?? [])
            process.executableURL = URL(fileURLWithPath: fakeTimeBinary)
        }
        let out = try FileHandle(forWritingTo: outURL)
        let err = try FileHandle(forWritingTo: errURL)
        process.standardOutput = out
        process.standardError = err
        let inputPipe = Pipe()
        process.standardInput = input == nil ? FileHandle.nullDevice : inputPipe
        try process.run()
        if let input {
            inputPipe.fileHandleForWriting.write(input)
            try inputPipe.fileHandleForWriting.close()
        }
        process.waitUntilExit()
        try out.close()
        try err.close()
        return NotesResult(
            status: process.terminationStatus,
            output: String(decoding: try Data(contentsOf: outURL), as: UTF8.self),
            error: String(decoding: try Data(contentsOf: errURL), as: UTF8.self))
    }

    /// Runs `notes` on a pseudo-terminal made by util-linux's `script`, with only `environment`
    /// (and a PATH and TERM, and an empty NOTES_PAGER, unless given); returns its status and everything it printed.
    /// `input` is typed on the terminal.
    public static func runOnTerminal(
        _ arguments: [String], store: URL, environment: [String: String] = [:], input: Data? = nil
    ) throws -> (status: Int32, output: String) {
        let command = ([binary.path, "--store", store.path] + arguments)
            .map { "'" + $0.replacingOccurrences(of: "'", with: "'\\''") + "'" }.joined(separator: " ")
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/script")
        process.arguments = ["--quiet", "--return", "--command", command, "/dev/null"]
        // No pager unless a test asks for one: the output is read, not paged.
        var env = ["PATH": "/usr/bin:/bin", "TERM": "xterm", "NOTES_PAGER": ""]
        for (key, value) in environment { env[key] = value }
        process.environment = env
        let output = Pipe()
        let typed = Pipe()
        process.standardInput = typed
        process.standardOutput = output
        try process.run()
        if let input {
            typed.fileHandleForWriting.write(input)
        }
        let data = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return (process.terminationStatus, String(decoding: data, as: UTF8.self))
    }

    /// Debian's `faketime`, which `install.sh --test` installs.
    public static let fakeTimeBinary = "/usr/bin/faketime"

    static func makeProcess(
        _ arguments: [String], store: URL?, environment: [String: String], unprivileged: Bool
    ) -> Process {
        let process = Process()
        var full = (store.map { ["--store", $0.path] } ?? []) + arguments
        if unprivileged && geteuid() == 0 {
            process.executableURL = URL(fileURLWithPath: "/usr/bin/setpriv")
            full = ["--bounding-set=-all", "--", binary.path] + full
        } else {
            process.executableURL = binary
        }
        process.arguments = full
        var env = ProcessInfo.processInfo.environment
        env["NOTES_STORE"] = nil
        for (key, value) in environment { env[key] = value }
        process.environment = env
        return process
    }
}
