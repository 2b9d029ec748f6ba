import Foundation
@testable import NoteInterchange
import NoteStore
import NoteTestSupport
import Testing

/// Export to Markdown or JSON, then import into an empty store: the same items, ids, dates,
/// bodies, places, tags and attachment bytes; a second import changes nothing.
@Suite struct RoundTripTests {
    let folder = TemporaryFolder("notes-interchange")

    func makeSource() throws -> Store {
        let store = try Store(folder: folder.appending("source"))
        let work = try store.addCollection(named: "Work", in: nil)
        let deep = try store.addCollection(named: "Deep: nested / folder", in: work.id)
        let odd = [
            "Soup / ideas", "Soup _ ideas", "soup _ IDEAS", ".hidden", "CON", "a: b? c*", "Ünïcödé ✓",
            String(repeating: "x", count: 300), "trailing dot.",
        ]
        for (index, name) in odd.enumerated() {
            _ = try store.addNote(
                named: name, body: "body \(index)\n---\nnot front matter\n", in: index % 2 == 0 ? nil : work.id)
        }
        _ = try store.addNote(named: "Empty", body: "", in: deep.id)
        _ = try store.addNote(named: "No newline", body: "last line", in: deep.id)
        let pictured = try store.addNote(
            named: "Pictured", body: "see ![link](https://example.com/a.png)\n", in: deep.id)
        _ = try store.attachImages(
            [sampleImages.appendingPathComponent("plain.png")], to: pictured.id, caption: "a [bracketed] caption")
        _ = try store.attachImages([sampleImages.appendingPathComponent("indexed.png")], to: pictured.id)
        try store.tag(pictured.id, with: ["photo", "c++", "ünï", "a:b", "quote\"d", "[x]"])
        // Properties of every kind of value, and text that plain YAML would read otherwise.
        let tricky: [PropertyValue] = [
            .string("12:30"), .string("yes"), .string("3"), .string(""), .string(" padded"), .string("- dash"),
            .string("two\nlines"),
            .string("#not a comment"), .string("[not a list]"), .string("null"), .string("2024-03-01"),
            .string("Ünïcödé ✓"),
        ]
        try store.setProperty(pictured.id, "texts", to: .list(tricky))
        try store.setProperty(pictured.id, "title: odd", to: .string("a: b"))
        try store.setProperty(
            pictured.id, "numbers", to: .list([.integer(-3), .number(2.5), .number(3), .integer(Int64.max)]))
        try store.setProperty(pictured.id, "empty", to: .null)
        try store.setProperty(pictured.id, "flag", to: .bool(false))
        try store.setProperty(
            pictured.id, "nested", to: .map([("z", .map([("b", .list([.map([("k", .null)])]))])), ("a", .list([]))]))
        try store.setProperty(pictured.id, "date", to: .string("2001-02-03"))
        let other = try store.addNote(named: "Pictured", body: "same name, other note", in: deep.id)
        try store.setProperty(other.id, "aliases", to: .list([.string("Other picture")]))
        try store.tag(other.id, with: ["photo"])
        let trashed = try store.addNote(named: "Trashed", body: "gone", in: nil)
        _ = try store.trash(trashed.id)
        return store
    }

    /// The source exported as Markdown into `out`, and imported into a new store.
    func exportedAndImported() throws -> (out: URL, target: Store) {
        let source = try makeSource()
        let out = folder.appending("out")
        _ = try MarkdownExporter(store: source).export(to: out)
        let target = try Store(folder: folder.appending("target"))
        _ = try Importer(store: target).run(path: out, into: nil, dryRun: false)
        return (out, target)
    }

    /// The path, inside `out`, of the first Markdown file whose path or text passes `test`.
    func exportedFile(in out: URL, _ test: (_ path: String, _ text: String) -> Bool) throws -> String {
        let files =
            FileManager.default.enumerator(atPath: out.path)?.compactMap { $0 as? String }.filter {
                $0.hasSuffix(".md")
            } ?? []
        return try #require(
            try files.first { test($0, try String(contentsOf: out.appendingPathComponent($0), encoding: .utf8)) })
    }

    @Test func markdownRoundTripKeepsEverything() throws {
        let source = try makeSource()
        let out = folder.appending("out")
        let exported = try MarkdownExporter(store: source).export(to: out)
        #expect(exported.notes == 13 && exported.collections == 2 && exported.images == 2)
        let target = try Store(folder: folder.appending("target"))
        let (entries, problems) = try MarkdownReader().read(out)
        #expect(problems.isEmpty, "\(problems)")
        #expect(try entries.map(\.name).sorted() == source.fetch(ItemRequest(scope: .topLevel)).map(\.name).sorted())
        let report = try Importer(store: target).run(path: out, into: nil, dryRun: false)
        #expect(report.created == 15 && report.images == 2 && report.problems.isEmpty, "\(report)")
        let live = try storeDump(source, collectionsByPath: true).filter { !$0.contains(" Trashed ") }
        #expect(try storeDump(target, collectionsByPath: true) == live)
        // `Work` needs no `.collection.md`; the folder named otherwise than its collection has one.
        let deep = try source.resolve("Work/Deep: nested \\/ folder")
        #expect(try target.resolve("Work/Deep: nested \\/ folder").id == deep.id)
        #expect(
            try FileManager.default.contentsOfDirectory(atPath: out.appendingPathComponent("Work").path).contains(
                ".collection.md") == false)

        let again = try Importer(store: target).run(path: out, into: nil, dryRun: false)
        #expect(
            again.created == 0 && again.updated == 0 && again.unchanged == 15 && again.images == 0
                && again.problems.isEmpty)
        #expect(try storeDump(target, collectionsByPath: true) == live)
    }

    /// A store whose every item was purged has no item, and still never takes a purged id
    /// again: an import of the same notes gives them new ids.
    @Test(arguments: ["md", "json"])
    func anImportIntoAStoreOfPurgedItemsGivesThemNewIDs(format: String) throws {
        let source = try Store(folder: folder.appending("source"))
        let first = try source.addNote(named: "First", body: "one\n", in: nil)
        let second = try source.addNote(named: "Second", body: "two\n", in: nil)
        let out = folder.appending("out")
        _ =
            format == "md"
            ? try MarkdownExporter(store: source).export(to: out) : try JSONExporter(store: source).export(to: out)
        let target = try Store(folder: folder.appending("target"))
        _ = try Importer(store: target).run(path: out, into: nil, dryRun: false)
        for note in [first, second] { _ = try target.trash(note.id) }
        try target.change { context in
            for note in [first, second] { try context.purge(note.id) }
        }
        #expect(try target.fetch(ItemRequest()).isEmpty)
        let report = try Importer(store: target).run(path: out, into: nil, dryRun: false)
        #expect(report.created == 2 && report.problems.isEmpty, "\(report)")
        let notes = try target.fetch(ItemRequest(kind: .note))
        #expect(Set(notes.map(\.name)) == ["First", "Second"])
        #expect(Set(notes.map(\.id)).isDisjoint(with: [first.id, second.id]), "a purged id is never used again")
    }

    @Test func jsonRoundTripKeepsEverything() throws {
        let source = try makeSource()
        let out = folder.appending("json")
        let exported = try JSONExporter(store: source).export(to: out)
        #expect(exported.notes == 13 && exported.collections == 2 && exported.images == 2)
        #expect(JSONReader.isExport(out) && JSONReader.isExport(out.appendingPathComponent("notes.jsonl")))
        let target = try Store(folder: folder.appending("target"))
        let (entries, problems) = try JSONReader().read(out)
        #expect(problems.isEmpty, "\(problems)")
        #expect(try entries.map(\.name).sorted() == source.fetch(ItemRequest(scope: .topLevel)).map(\.name).sorted())
        let report = try Importer(store: target).run(path: out, into: nil, dryRun: false)
        #expect(report.created == 15 && report.images == 2 && report.problems.isEmpty, "\(report)")
        let live = try storeDump(source).filter { !$0.contains(" Trashed ") }
        #expect(try storeDump(target) == live)
        let again = try Importer(store: target).run(
            path: out.appendingPathComponent("notes.jsonl"), into: nil, dryRun: false)
        #expect(again.created == 0 && again.updated == 0 && again.unchanged == 15 && again.images == 0)
        #expect(try storeDump(target) == live)
    }

    /// Streamed a line at a time, as the command imports it, a JSON export gives the same
    /// store as read whole; an item whose parent the file does not hold goes into the target.
    @Test func aStreamedJSONImportKeepsEverything() throws {
        let source = try makeSource()
        let out = folder.appending("json")
        _ = try JSONExporter(store: source).export(to: out)
        let target = try Store(folder: folder.appending("target"))
        let box = try target.addCollection(named: "Box", in: nil)
        let reader = JSONReader()
        #expect(try reader.count(out) == 13)
        let report = try Importer(store: target).run(path: out, into: box.id, dryRun: false)
        #expect(report.problems.isEmpty && report.created == 15 && report.images == 2, "\(report)")
        let live = try storeDump(source).filter { !$0.contains(" Trashed ") }
        let moved = try storeDump(target).filter { !$0.contains(" Box ") }.map {
            $0.replacingOccurrences(of: " \(box.id.uuidString) ", with: " top ")
        }
        #expect(moved == live)
    }

    @Test func aJSONExportIsCheckedLineByLine() throws {
        let out = folder.appending("json")
        try FileManager.default.createDirectory(at: out, withIntermediateDirectories: true)
        let file = out.appendingPathComponent("notes.jsonl")
        try Data("{\"format\":\"something else\"}\n".utf8).write(to: file)
        #expect(
            throws: InterchangeError.notAnExport(
                path: file.path, reason: "its first line does not say it is a notes export")
        ) {
            try JSONReader().read(out)
        }
        let lines = [
            "{\"exported\":\"2026-11-23T10:00:00Z\",\"format\":\"note-collector-export\",\"formatVersion\":1}",
            "{\"id\":\"6e0c4d2a-1111-4a1b-9c0d-e1f2a3b4c5d6\",\"kind\":\"collection\","
                + "\"name\":\"Box\",\"parent\":null}",
            "not json",
            "{\"kind\":\"note\",\"name\":\"no id\"}",
            "{\"id\":\"6e0c4d2a-2222-4a1b-9c0d-e1f2a3b4c5d6\",\"kind\":\"note\",\"name\":\"Inside\","
                + "\"parent\":\"6e0c4d2a-1111-4a1b-9c0d-e1f2a3b4c5d6\",\"body\":\"b\",\"tags\":[\"ok\",\"not ok\"],"
                + "\"attachments\":[{\"file\":\"../../etc/passwd\"},{\"file\":\"images/none.png\"}]}",
            "{\"id\":\"6e0c4d2a-3333-4a1b-9c0d-e1f2a3b4c5d6\",\"kind\":\"note\",\"name\":\"Orphan\","
                + "\"parent\":\"6e0c4d2a-9999-4a1b-9c0d-e1f2a3b4c5d6\"}",
        ]
        try Data((lines.joined(separator: "\n") + "\n").utf8).write(to: file)
        let (entries, problems) = try JSONReader().read(file)
        #expect(
            problems == [
                "notes.jsonl line 3: not an item, skipped", "notes.jsonl line 4: not an item, skipped",
                "notes.jsonl line 5: an image without a file inside the export, not attached",
            ])
        #expect(entries.map(\.name) == ["Box", "Orphan"] && entries[0].children.map(\.name) == ["Inside"])
        let store = try Store(folder: folder.appending("store"))
        let report = try Importer(store: store).run(path: file, into: nil, dryRun: false)
        // The reader's problems, then the import's.
        #expect(
            report.created == 3 && report.problems.count == 5 && Array(report.problems.prefix(3)) == problems,
            "\(report)")
        #expect(try store.resolve("Orphan").parent == nil)
        #expect(
            report.problems.contains(
                "notes.jsonl line 5: invalid tag 'not ok': a tag cannot contain white space, left out"))
        #expect(report.problems.contains { $0.hasPrefix("notes.jsonl line 5: ") && $0.hasSuffix(", not attached") })
        #expect(try store.tags(of: store.resolve("Box/Inside").id) == ["ok"])
        #expect(try store.check().isEmpty)
    }

    /// A line longer than any note's is reported and passed over without being held, the
    /// lines around it read as usual (a line of the longest length too, and one whose line
    /// break ends a chunk of 1 MiB); a first line that long is no export, found before the rest
    /// is read.
    @Test func aLineLongerThanAnyNoteIsPassedOver() throws {
        let out = folder.appending("long")
        try FileManager.default.createDirectory(at: out, withIntermediateDirectories: true)
        let file = out.appendingPathComponent("notes.jsonl")
        let long = Data(repeating: 0x61, count: JSONReader.maximumLineBytes + 3 * (1 << 20) + 17)
        // Just over the limit, its line break in the chunk that takes it over.
        try (Data(repeating: 0x61, count: JSONReader.maximumLineBytes + 10) + Data("\n{}\n".utf8)).write(to: file)
        #expect(
            throws: InterchangeError.notAnExport(
                path: file.path,
                reason: "its first line is longer than \(JSONReader.maximumLineBytes) bytes, which an export's never is"
            )
        ) {
            try JSONReader().read(out)
        }
        let header =
            "{\"exported\":\"2026-11-23T10:00:00Z\",\"format\":\"note-collector-export\",\"formatVersion\":1}\n"
        func note(_ digit: Int) -> Data {
            Data(
                ("{\"id\":\"6e0c4d2a-\(digit)\(digit)\(digit)\(digit)-4a1b-9c0d-e1f2a3b4c5d6\",\"kind\":\"note\","
                    + "\"name\":\"Note \(digit)\",\"parent\":null,\"body\":\"b\"}\n").utf8)
        }
        let longest = Data(repeating: 0x63, count: JSONReader.maximumLineBytes)
        try
            (Data(header.utf8) + note(1) + long + Data("\n".utf8) + note(2)
            + Data(repeating: 0x62, count: (1 << 20) - 1) + Data("\n".utf8)
            + note(3) + longest + Data("\n".utf8) + note(4))
            .write(to: file)
        let (entries, problems) = try JSONReader().read(file)
        #expect(
            problems == [
                "notes.jsonl line 3: longer than \(JSONReader.maximumLineBytes) bytes, more than a note holds, skipped",
                "notes.jsonl line 5: not an item, skipped",
                "notes.jsonl line 7: not an item, skipped",
            ])
        #expect(entries.map(\.name) == ["Note 1", "Note 2", "Note 3", "Note 4"])
        #expect(try JSONReader().count(file) == 4)
    }

    @Test func reimportMakesTheTagsThoseOfTheFile() throws {
        let (out, target) = try exportedAndImported()
        let path = try exportedFile(in: out) { path, _ in path.hasSuffix("/Empty.md") }
        let text = try String(contentsOf: out.appendingPathComponent(path), encoding: .utf8)
        try text.replacingOccurrences(
            of: "---\n", with: "---\ntags:\n  - later\n  - \"#home\"\n", range: text.range(of: "---\n")
        )
        .write(to: out.appendingPathComponent(path), atomically: true, encoding: .utf8)
        let report = try Importer(store: target).run(path: out, into: nil, dryRun: false)
        #expect(report.updated == 1 && report.created == 0, "\(report)")
        let empty = try target.resolve("Work/Deep: nested \\/ folder/Empty")
        #expect(try target.tags(of: empty.id) == ["home", "later"])
        let pictured = try exportedFile(in: out) { _, text in text.contains("c++") }
        let picturedText = try String(contentsOf: out.appendingPathComponent(pictured), encoding: .utf8)
        #expect(
            picturedText.contains("\ntags: [\"[x]\", \"a:b\", c++, photo, \"quote\\\"d\", ünï]\n"), "\(picturedText)")
        try picturedText.replacingOccurrences(of: "\ntags: [", with: "\ntags: [new, ").write(
            to: out.appendingPathComponent(pictured), atomically: true, encoding: .utf8)
        _ = try Importer(store: target).run(path: out, into: nil, dryRun: false)
        let id = try #require(UUID(uuidString: String(picturedText.split(separator: "\n")[1].dropFirst(4))))
        #expect(try target.tags(of: id) == ["[x]", "a:b", "c++", "new", "photo", "quote\"d", "ünï"])
    }

    @Test func exportOfACollectionIsItsSubtree() throws {
        let source = try makeSource()
        let work = try source.resolve("Work")
        let out = folder.appending("work")
        let report = try MarkdownExporter(store: source).export(to: out, root: work.id)
        #expect(report.collections == 2 && report.notes == 8)
        #expect(!FileManager.default.fileExists(atPath: out.appendingPathComponent("Work/.collection.md").path))
        #expect(
            FileManager.default.fileExists(
                atPath: out.appendingPathComponent("Work/Deep: nested _ folder/.collection.md").path))
    }

    /// Notes are read a page at a time, ahead of the writing: collections of more than a
    /// page, nested, beside collections without notes, come back whole in both formats, each
    /// note with its own tags, properties, links and images, whole or from a collection.
    @Test(arguments: ExportFormat.allCases)
    func pagesOfNotesComeBackWhole(_ format: ExportFormat) throws {
        let source = try Store(folder: folder.appending("source"))
        let context = source.makeContext()
        let outer = context.insertCollection(named: "Outer")
        let inner = context.insertCollection(named: "Inner", in: outer.id)
        _ = context.insertCollection(named: "Empty", in: outer.id)
        let places: [(UUID?, String, Int)] = [
            (nil, "Top", 3), (outer.id, "Outer", ExportTree.pageSize + 7),
            (inner.id, "Inner", 2 * ExportTree.pageSize + 1),
        ]
        var notes: [UUID] = []
        for (parent, label, count) in places {
            for number in 0..<count {
                let body = number % 3 == 0 ? "see [[\(label) \(number + 1)]]\n" : "note \(number)\n"
                notes.append(context.insertNote(named: "\(label) \(number)", body: body, in: parent).id)
            }
        }
        try context.save()
        for (index, id) in notes.enumerated() where index % 97 == 0 {
            try source.tag(id, with: ["t\(index)"])
            try source.setProperty(id, "number", to: .integer(Int64(index)))
        }
        _ = try source.attachImages([sampleImages.appendingPathComponent("plain.png")], to: notes[notes.count - 2])
        for root in [nil, outer.id] {
            let out = folder.appending("out-\(root == nil)")
            let report = try format.export(source, to: out, root: root)
            #expect(report.notes == (root == nil ? notes.count : notes.count - 3) && report.images == 1)
            let target = try Store(folder: folder.appending("target-\(root == nil)"))
            _ = try Importer(store: target).run(path: out, into: nil, dryRun: false)
            var expected = try storeDump(source, collectionsByPath: true)
            if root != nil { expected = expected.filter { !$0.contains(" Top ") } }
            #expect(try storeDump(target, collectionsByPath: true) == expected)
        }
    }

    @Test func aFolderThatIsNotEmptyIsNotWrittenWithoutForce() throws {
        let source = try makeSource()
        let out = folder.appending("full")
        try FileManager.default.createDirectory(at: out, withIntermediateDirectories: true)
        try Data("mine".utf8).write(to: out.appendingPathComponent("keep.txt"))
        #expect(throws: InterchangeError.notEmpty(path: out.path)) {
            try MarkdownExporter(store: source).export(to: out)
        }
        #expect(try MarkdownExporter(store: source).export(to: out, force: true).notes == 13)
        #expect(try String(contentsOf: out.appendingPathComponent("keep.txt"), encoding: .utf8) == "mine")
    }

    @Test func reimportUpdatesWhatChangedInTheFiles() throws {
        let (out, target) = try exportedAndImported()
        let path = try exportedFile(in: out) { path, _ in path.hasSuffix("/Empty.md") }
        let text = try String(contentsOf: out.appendingPathComponent(path), encoding: .utf8)
        try (text + "written in the editor\n").write(
            to: out.appendingPathComponent(path), atomically: true, encoding: .utf8)
        let dry = try Importer(store: target).run(path: out, into: nil, dryRun: true)
        #expect(dry.updated == 1 && dry.plan == ["update note \(path)"], "\(dry.plan)")
        #expect(try target.resolve("Work/Deep: nested \\/ folder/Empty").body == "")
        let report = try Importer(store: target).run(path: out, into: nil, dryRun: false)
        #expect(report.updated == 1 && report.created == 0)
        #expect(try target.resolve("Work/Deep: nested \\/ folder/Empty").body == "written in the editor\n")
    }
}

/// The two exporters, for tests that run on both.
enum ExportFormat: CaseIterable, Sendable {
    case markdown, json

    func export(_ store: Store, to folder: URL, root: UUID?) throws -> ExportReport {
        switch self {
        case .markdown: try MarkdownExporter(store: store).export(to: folder, root: root)
        case .json: try JSONExporter(store: store).export(to: folder, root: root)
        }
    }
}
