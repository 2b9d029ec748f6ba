import ArgumentParser
import Foundation
import NoteStore

extension Notes {
    struct Links: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "links",
            abstract: "List the links of a note's body and the note each reaches.",
            discussion: """
                Prints a line per link, in the order of the body: the line it is on, the link as written \
                ([[Name#Heading]], ![[Name]] for an embed, [text](Name.md) for a Markdown link), \
                and the path of the note it reaches, or 'nothing'. docs/links.md says how a link is resolved.
                """)

        @OptionGroup var storeOptions: StoreOptions

        @Argument(
            help: "The note whose links to list (on a terminal, left out: chosen in a picker).",
            completion: ItemCompletion.items)
        var note: String?

        @OptionGroup var pickOptions: PickOptions

        @Flag(help: "Print a JSON array.")
        var json = false

        func run() throws {
            let store = try storeOptions.open(.readOnly)
            let source = try pickOptions.item(note, in: store, scope: .any, kind: .note, json: json, prompt: "links> ")
            let links = try store.links(of: source.id)
            var paths = Paths(store: store)
            if json { return try JSONOutput.print(try links.map { try LinkJSON($0, paths: &paths) }) }
            for link in links {
                print(
                    "\(link.line): \(link.written) -> \(try link.resolved.map { try paths.path(of: $0) } ?? "nothing")")
            }
        }
    }

    struct Backlinks: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "backlinks",
            abstract: "List the notes whose bodies link to a note, with the line of each link.",
            discussion: """
                Prints 'path:line: text' for each link that reaches the note (as grep does), from notes \
                outside the trash. A link reaches a note by its path, its name, one of its aliases, or a name \
                it had before.
                """)

        @OptionGroup var storeOptions: StoreOptions

        @Argument(
            help: "The note linked to (on a terminal, left out: chosen in a picker).", completion: ItemCompletion.items)
        var note: String?

        @OptionGroup var pickOptions: PickOptions

        @Flag(help: "Print a JSON array.")
        var json = false

        func run() throws {
            let store = try storeOptions.open(.readOnly)
            let target = try pickOptions.item(
                note, in: store, scope: .any, kind: .note, json: json, prompt: "backlinks> ")
            let backlinks = try Backlink.all(to: target.id, in: store)
            if json { return try JSONOutput.print(backlinks) }
            for backlink in backlinks { print("\(backlink.path):\(backlink.line): \(backlink.text)") }
        }
    }
}

/// The paths of notes, each looked up once.
struct Paths {
    let store: Store
    private var known: [UUID: String] = [:]

    init(store: Store) {
        self.store = store
    }

    mutating func path(of id: UUID) throws -> String {
        if let path = known[id] { return path }
        let path = try store.path(of: store.item(id, includingBody: false))
        known[id] = path
        return path
    }
}

/// A link as `notes links --json` prints it.
struct LinkJSON: Encodable {
    struct Target: Encodable {
        let id: String
        let path: String
    }

    let line: Int
    let target: String
    let fragment: String?
    let display: String?
    let kind: String
    let resolved: Target?

    init(_ link: NoteLink, paths: inout Paths) throws {
        line = link.line
        target = link.target
        fragment = link.fragment
        display = link.display
        kind = link.kind.rawValue
        resolved = try link.resolved.map { Target(id: $0.storeString, path: try paths.path(of: $0)) }
    }

    func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(line, forKey: .line)
        try container.encode(target, forKey: .target)
        try container.encode(fragment, forKey: .fragment)
        try container.encode(display, forKey: .display)
        try container.encode(kind, forKey: .kind)
        try container.encode(resolved, forKey: .resolved)
    }

    enum CodingKeys: String, CodingKey { case line, target, fragment, display, kind, resolved }
}

/// A link to a note from another note's body: where it is, and its line.
struct Backlink: Encodable {
    let id: String
    let path: String
    let line: Int
    let text: String

    /// The links to `note`, by the path of their note and their line.
    static func all(to note: UUID, in store: Store) throws -> [Backlink] {
        var paths = Paths(store: store)
        var bodies: [UUID: [Substring]] = [:]
        var result: [Backlink] = []
        for link in try store.backlinks(of: note) {
            if bodies[link.source] == nil {
                let body = try store.item(link.source, includingBody: true).body ?? ""
                bodies[link.source] = body.split(separator: "\n", omittingEmptySubsequences: false)
            }
            let lines = bodies[link.source] ?? []
            let text = link.line - 1 < lines.count ? String(lines[link.line - 1]) : ""
            result.append(
                Backlink(
                    id: link.source.storeString, path: try paths.path(of: link.source), line: link.line, text: text))
        }
        // One line per line of a note, however many links to the note it holds.
        var seen: Set<String> = []
        return result.filter { seen.insert("\($0.id):\($0.line)").inserted }
            .sorted { ($0.path, $0.line) < ($1.path, $1.line) }
    }
}
