import Foundation
import NoteTestSupport
import Testing

/// A store in a temporary folder of its own, and the `notes` commands run on it.
///
/// Every command gets `--store`; `XDG_DATA_HOME` points at an empty folder beside the store,
/// so that a command that ignored `--store` would write there and never in the home folder.
final class CommandLineFixture {
    let folder: TemporaryFolder
    /// The store folder; it does not exist until the first command makes it.
    let store: URL
    /// The default store folder of the commands run here.
    let defaultDataHome: URL

    init() {
        folder = TemporaryFolder("notes-cli")
        store = folder.appending("store")
        defaultDataHome = folder.appending("data-home")
    }

    /// A path in the temporary folder, outside the store.
    func file(_ name: String) -> URL {
        folder.appending(name)
    }

    /// Writes `contents` to a file in the temporary folder and returns it.
    @discardableResult
    func write(_ contents: Data, to name: String, mode: mode_t = 0o644) throws -> URL {
        let url = file(name)
        try contents.write(to: url)
        chmod(url.path, mode)
        return url
    }

    /// Runs `notes --store STORE arguments...`.
    @discardableResult
    func run(
        _ arguments: [String], input: Data? = nil, environment: [String: String] = [:],
        unprivileged: Bool = false, store: URL? = nil
    ) throws -> NotesResult {
        var environment = environment
        if environment["XDG_DATA_HOME"] == nil { environment["XDG_DATA_HOME"] = defaultDataHome.path }
        return try NotesCommand.run(
            arguments, store: store ?? self.store, input: input, environment: environment,
            unprivileged: unprivileged)
    }

    /// Runs a command that must succeed without a word on standard error.
    @discardableResult
    func succeed(
        _ arguments: [String], input: Data? = nil, environment: [String: String] = [:],
        store: URL? = nil, sourceLocation: SourceLocation = #_sourceLocation
    ) throws -> NotesResult {
        let result = try run(arguments, input: input, environment: environment, store: store)
        try #require(
            result.status == 0, "notes \(arguments.joined(separator: " ")): \(result)", sourceLocation: sourceLocation)
        #expect(
            result.error.isEmpty, "notes \(arguments.joined(separator: " ")): \(result)", sourceLocation: sourceLocation
        )
        return result
    }

    /// Adds a note and returns its id.
    @discardableResult
    func add(_ name: String, in collection: String? = nil, body: String? = nil) throws -> String {
        var arguments = ["add", name]
        if let collection { arguments += ["--in", collection] }
        if let body { arguments += ["--body", body] }
        return try succeed(arguments).line
    }

    /// Makes a collection and returns its id.
    @discardableResult
    func makeCollection(_ name: String, in collection: String? = nil) throws -> String {
        try succeed(["mkcol", name] + (collection.map { ["--in", $0] } ?? [])).line
    }

    /// `ls --json` with more arguments, decoded.
    func list(_ arguments: [String] = []) throws -> [[String: Any]] {
        try JSONChecks.array(succeed(["ls", "--json"] + arguments).output)
    }

    /// `show --json REFERENCE`, decoded.
    func show(_ reference: String) throws -> [String: Any] {
        try JSONChecks.object(succeed(["show", "--json", reference]).output)
    }

    /// Everything in the store, live and trashed, with names, places and dates: equal
    /// snapshots mean that nothing was changed in between.
    func snapshot() throws -> String {
        try succeed(["ls", "--recursive", "--json"]).output
            + succeed(["ls", "--trash", "--recursive", "--json"]).output
    }

    /// Work/ (Plan, Ideas/ (Launch)) and Home, a note at the top level.
    struct Tree {
        let work: String
        let plan: String
        let ideas: String
        let launch: String
        let home: String
    }

    @discardableResult
    func makeTree() throws -> Tree {
        let work = try makeCollection("Work")
        let plan = try add("Plan", in: work, body: "ship it on monday")
        let ideas = try makeCollection("Ideas", in: "Work")
        let launch = try add("Launch", in: "Work/Ideas", body: "a rocket")
        let home = try add("Home", body: "water the plants")
        return Tree(work: work, plan: plan, ideas: ideas, launch: launch, home: home)
    }

    /// Checks a failed command: its status, nothing on standard output, and exactly one line
    /// on standard error, starting with `notes: ` and containing each of `mentioning`.
    func expectFailure(
        _ result: NotesResult, status: Int32, mentioning: [String] = [],
        sourceLocation: SourceLocation = #_sourceLocation
    ) {
        #expect(result.status == status, "\(result)", sourceLocation: sourceLocation)
        #expect(result.output.isEmpty, "\(result)", sourceLocation: sourceLocation)
        #expect(result.error.hasPrefix("notes: "), "\(result)", sourceLocation: sourceLocation)
        // One line: a single line break, at the end; no carriage return or other break within.
        #expect(result.error.hasSuffix("\n"), "\(result)", sourceLocation: sourceLocation)
        let breaksWithin = result.error.dropLast().filter(\.isNewline).count
        #expect(breaksWithin == 0, "not exactly one line: \(result)", sourceLocation: sourceLocation)
        for text in mentioning {
            #expect(result.error.contains(text), "no '\(text)' in: \(result)", sourceLocation: sourceLocation)
        }
    }
}
