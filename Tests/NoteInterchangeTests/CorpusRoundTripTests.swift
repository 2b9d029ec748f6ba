import Crypto
import Foundation
import NoteInterchange
import NoteStore
import NoteTestSupport
import Testing

/// Notebooks that nobody here wrote (`../shared/corpora/`, or `$NOTES_CORPORA`): the zk
/// documentation, a zk notebook with wiki links and SVG images, and the Hugo documentation,
/// 992 Markdown files with nested front matter. Both ways round:
/// - `export(import(vault))` gives the vault's files back: every note at its path, its body
///   and its properties identical, its tags and dates, every attached file at the place the
///   body links it with the same bytes;
/// - `import(export(store))` equals the store (ids, names, places, bodies, dates, tags,
///   properties, attachments), every link reaches the same note, and importing the export
///   again changes nothing.
@Suite struct CorpusRoundTripTests {
    let folder = TemporaryFolder("notes-corpus")

    static let corpora: URL = {
        if let path = ProcessInfo.processInfo.environment["NOTES_CORPORA"], !path.isEmpty {
            return URL(fileURLWithPath: path)
        }
        return URL(fileURLWithPath: #filePath).deletingLastPathComponent()
            .appendingPathComponent("../../../shared/corpora").standardizedFileURL
    }()

    /// A corpus, as the files of a vault: each Markdown file read alone, by its path.
    struct Vault {
        let root: URL
        let notes: [String: ImportEntry]

        init(_ root: URL) throws {
            self.root = root
            let (entries, _) = try MarkdownReader().read(root)
            var notes: [String: ImportEntry] = [:]
            func add(_ entry: ImportEntry) {
                if entry.kind == .note { notes[entry.source] = entry }
                entry.children.forEach(add)
            }
            entries.forEach(add)
            self.notes = notes
        }

        /// The files a note attaches, by their path in the vault, with a digest of their bytes.
        func attached(_ entry: ImportEntry) throws -> [String] {
            try entry.images.map { image in
                let path = image.file.standardizedFileURL.path
                let relative =
                    path.hasPrefix(root.standardizedFileURL.path + "/")
                    ? String(path.dropFirst(root.standardizedFileURL.path.count + 1)) : path
                let digest = SHA256.hash(data: try Data(contentsOf: image.file)).map { String(format: "%02x", $0) }
                    .joined()
                return relative + " " + digest
            }.sorted()
        }
    }

    func corpus(_ name: String) throws -> URL {
        let root = Self.corpora.appendingPathComponent(name)
        try #require(
            FileManager.default.fileExists(atPath: root.path),
            "no corpus at \(root.path): put shared/ beside the project's folder, or set NOTES_CORPORA")
        return root
    }

    /// Every link of every note, with the note it reaches.
    func links(_ store: Store) throws -> [String] {
        try store.fetch(ItemRequest()).filter(\.isNote).flatMap { note in
            try store.links(of: note.id).map {
                "\(note.id) \($0.position) \($0.written) -> \($0.resolved?.uuidString ?? "nothing")"
            }
        }.sorted()
    }

    /// Imports the corpus `name`, exports it, compares, imports the export into a new store
    /// and compares again.
    func roundTrip(_ name: String, notes: Int, withProperties: Int, attached: Int) throws {
        let original = try Vault(try corpus(name))
        #expect(original.notes.count == notes)
        #expect(original.notes.values.filter { !($0.properties ?? []).isEmpty }.count == withProperties)

        let store = try Store(folder: folder.appending("store"))
        let first = try Importer(store: store).run(path: original.root, into: nil, dryRun: false)
        #expect(first.images + first.files == attached, "\(first)")
        // The only problems are images that the corpus does not carry.
        #expect(first.problems.allSatisfy { $0.hasSuffix(" not found, not attached") }, "\(first.problems)")
        // The link index holds what the bodies give: the links found as the files were read.
        #expect(try store.check() == [])

        // export(import(vault)) gives the vault's files back.
        let out = folder.appending("out")
        _ = try MarkdownExporter(store: store).export(to: out)
        let exported = try Vault(out)
        #expect(Set(exported.notes.keys) == Set(original.notes.keys))
        var differing: [String] = []
        for (path, note) in original.notes.sorted(by: { $0.key < $1.key }) {
            guard let copy = exported.notes[path] else { continue }
            if copy.body != note.body { differing.append("\(path): body") }
            if Self.text(copy.properties ?? []) != Self.text(note.properties ?? []) {
                differing.append("\(path): properties")
            }
            if Set(copy.tags ?? []) != Set(note.tags ?? []) { differing.append("\(path): tags") }
            if let created = note.created, copy.created != created { differing.append("\(path): created") }
            if try exported.attached(copy) != original.attached(note) { differing.append("\(path): attached files") }
        }
        #expect(differing.isEmpty, "\(differing.prefix(20))")

        // import(export(store)) equals the store, and every link reaches the same note.
        let copy = try Store(folder: folder.appending("copy"))
        let second = try Importer(store: copy).run(path: out, into: nil, dryRun: false)
        #expect(second.created == first.created && second.problems == first.problems, "\(second)")
        #expect(try storeDump(copy, collectionsByPath: true) == storeDump(store, collectionsByPath: true))
        let reached = try links(store)
        #expect(try links(copy) == reached)
        #expect(try copy.check() == [])
        #expect(reached.contains { !$0.hasSuffix("-> nothing") })

        // Importing the export again changes nothing.
        let again = try Importer(store: store).run(path: out, into: nil, dryRun: false)
        #expect(again.created == 0 && again.updated == 0 && again.images == 0 && again.files == 0, "\(again)")
        #expect(again.problems == first.problems)
    }

    static func text(_ properties: [(key: String, value: PropertyValue)]) -> [String] {
        properties.map { "\($0.key)=\($0.value.json)" }
    }

    @Test func theZkNotebookComesBackWithItsLinksAndImages() throws {
        try roundTrip("zk-docs", notes: 32, withProperties: 0, attached: 9)
    }

    @Test func theHugoDocumentationComesBackWithItsFrontMatter() throws {
        try roundTrip("hugo-content/en", notes: 992, withProperties: 991, attached: 0)
    }
}
