import Foundation
import NoteInterchange
import NoteStore
import NoteTestSupport
import Testing

/// Files as other note tools write them, in the shapes of the importer fixtures of Joplin
/// (front matter with capitalised keys, dates with and without zones, a byte order mark,
/// another tool's ids, tabs where YAML wants spaces; links with titles, angle brackets, escapes,
/// spaces, files without an extension, links to folders, to nothing, to the web, to headings,
/// and links that go round in a circle). Each comes in with nothing lost, or is reported on one
/// line; and what came in goes out and back again unchanged.
@Suite struct OtherToolsImportTests {
    let folder = TemporaryFolder("notes-other-tools")
    var vault: URL { folder.appending("vault") }

    func write(_ text: String, _ path: String) throws {
        try write(Data(text.utf8), path)
    }

    func write(_ data: Data, _ path: String) throws {
        let url = vault.appendingPathComponent(path)
        try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
        try data.write(to: url)
    }

    func copy(_ sample: String, to path: String) throws {
        try write(try Data(contentsOf: sampleImages.appendingPathComponent(sample)), path)
    }

    func importVault(into store: Store) throws -> ImportReport {
        try Importer(store: store).run(path: vault, into: nil, dryRun: false)
    }

    static func date(_ text: String) -> Date? { ISO8601DateFormatter().date(from: text) }

    /// `export(import(vault))` then imported again: nothing changes, and each note's file comes
    /// back with its body.
    func expectRoundTrip(_ store: Store, paths: [String]) throws {
        let out = folder.appending("out")
        _ = try MarkdownExporter(store: store).export(to: out)
        let before = try storeDump(store)
        let again = try Importer(store: store).run(path: out, into: nil, dryRun: false)
        #expect(again.created == 0 && again.updated == 0 && again.images == 0 && again.files == 0, "\(again)")
        #expect(try storeDump(store) == before)
        let (exported, _) = try MarkdownReader().read(out)
        let (original, _) = try MarkdownReader().read(vault)
        func bodies(_ entries: [ImportEntry]) -> [String: String] {
            var found: [String: String] = [:]
            func add(_ entry: ImportEntry) {
                if entry.kind == .note { found[entry.source] = entry.body }
                entry.children.forEach(add)
            }
            entries.forEach(add)
            return found
        }
        let exportedBodies = bodies(exported)
        for (path, body) in bodies(original) where paths.contains(path) {
            #expect(exportedBodies[path] == body, "\(path)")
        }
    }

    /// Joplin's keys as it writes them: `Title`, `Created`, `Updated`, `Tags` with a tag twice.
    /// The dates and tags are the note's; every other key is a property, in order, with its
    /// value's kind; `Tags` is not kept twice.
    @Test func capitalisedKeysGiveDatesAndTags() throws {
        try write(
            """
            ---
            Title: Test Note Title
            Updated: 2019-05-01 16:54
            Created: 2019-05-01 16:50
            Source: https://example.org
            Latitude: 37.084021
            Completed?: false
            due: 2021-08-22 00:00
            Tags:
              - Joplin
              - nOte
              - Joplin
            ---

            This is the note body

            """, "full.md")
        let store = try Store(folder: folder.appending("store"))
        let report = try importVault(into: store)
        #expect(report.problems.isEmpty && report.created == 1, "\(report)")
        let note = try store.resolve("full")
        #expect(note.created == Self.date("2019-05-01T16:50:00Z") && note.modified == Self.date("2019-05-01T16:54:00Z"))
        #expect(try store.tags(of: note.id) == ["Joplin", "nOte"])
        let properties = try store.properties(of: note.id)
        #expect(properties.map(\.key) == ["Title", "Updated", "Created", "Source", "Latitude", "Completed?", "due"])
        #expect(
            properties.map(\.value.json) == [
                #""Test Note Title""#, #""2019-05-01 16:54""#, #""2019-05-01 16:50""#, #""https://example.org""#,
                "37.084021", "false",
                #""2021-08-22 00:00""#,
            ])
        #expect(note.body == "\nThis is the note body\n")
        try expectRoundTrip(store, paths: ["full.md"])
    }

    /// Dates as tools write them: a space for the `T`, a zone or an offset, with or without
    /// seconds; what is not a date (Notesnook's `01-01-2024 01:23 AM`) leaves the file's time
    /// and stays a property.
    @Test(arguments: [
        ("2025-07-22 17:30:44Z", "2025-07-22T17:30:44Z"),
        ("2019-05-01 16:54-07:00", "2019-05-01T23:54:00Z"),
        ("2019-05-01T16:54:00.25+02:00", "2019-05-01T14:54:00.250Z"),
        ("2019-05-01 16:54 +0530", "2019-05-01T11:24:00Z"),
        ("2017-01-01", "2017-01-01T00:00:00Z"),
        ("\"2017-01-01T10:00\"", "2017-01-01T10:00:00Z"),
    ])
    func createdDatesInTheFormsToolsWrite(written: String, expected: String) throws {
        try write("---\ntitle: Date\ncreated: \(written)\n---\nbody\n", "dated.md")
        let store = try Store(folder: folder.appending("store"))
        #expect(try importVault(into: store).problems.isEmpty)
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        let want = try #require(Self.date(expected) ?? formatter.date(from: expected))
        #expect(try store.resolve("dated").created == want)
    }

    @Test func textThatIsNotADateLeavesTheFilesTime() throws {
        try write("---\ncreated_at: 01-01-2024 01:23 AM\ncreated: 2024-02-30\n---\nbody\n", "odd dates.md")
        let file = vault.appendingPathComponent("odd dates.md")
        try FileManager.default.setAttributes(
            [.modificationDate: Self.date("2020-06-01T12:00:00Z")!], ofItemAtPath: file.path)
        let store = try Store(folder: folder.appending("store"))
        #expect(try importVault(into: store).problems.isEmpty)
        let note = try store.resolve("odd dates")
        #expect(note.created == Self.date("2020-06-01T12:00:00Z"))
        #expect(try store.properties(of: note.id).map(\.key) == ["created_at"])
    }

    /// A byte order mark before the front matter; no blank line after its end, or several;
    /// a second block that looks like front matter is the body's.
    @Test func theBlockIsFoundAsToolsWriteIt() throws {
        try write(
            Data([0xEF, 0xBB, 0xBF]) + Data("---\ntitle: Marked\ntags:\n  - tag1\n---\n\nMarked body\n".utf8),
            "marked.md")
        try write("---\ntitle: Tight\n---\nTight body\n", "tight.md")
        try write("---\ntitle: Loose\n---\n\n\n\nLoose body\n", "loose.md")
        try write("---\ntitle: First\n---\n\n---\nauthor: second\n---\n\nbody\n", "split.md")
        let store = try Store(folder: folder.appending("store"))
        #expect(try importVault(into: store).problems.isEmpty)
        let marked = try store.resolve("marked")
        #expect(marked.body == "\nMarked body\n")
        #expect(try store.tags(of: marked.id) == ["tag1"])
        #expect(try store.properties(of: marked.id).map(\.key) == ["title"])
        #expect(try store.resolve("tight").body == "Tight body\n")
        #expect(try store.resolve("loose").body == "\n\n\nLoose body\n")
        let split = try store.resolve("split")
        #expect(split.body == "\n---\nauthor: second\n---\n\nbody\n")
        #expect(try store.properties(of: split.id).map(\.key) == ["title"])
        try expectRoundTrip(store, paths: ["tight.md", "loose.md", "split.md"])
    }

    /// Another tool's `id` (a Zettelkasten `20250821081408`) is how its links name the note: it
    /// becomes an alias, and a link by it reaches the note. An empty key is a property of no
    /// value; a list of maps is kept whole; text that starts with a dash is text.
    @Test func anotherToolsIdBecomesAnAlias() throws {
        try write("---\nid:  20250821081408\ndate: 2025-08-21\nkeywords:\n---\n\n# A zettel\n", "zettel.md")
        try write("---\nid: note-7\naliases: [Seven]\n---\nSeven\n", "seven.md")
        try write("See [[20250821081408]] and [[note-7]].\n", "index.md")
        try write(
            """
            ---
            title: "Distill"
            author:
              - name: "A. Writer"
                url: https://example.org/a
                affiliation: Somewhere
            subtitle: -Start with dash
            ---
            text

            """, "authored.md")
        let store = try Store(folder: folder.appending("store"))
        let report = try importVault(into: store)
        #expect(report.problems.isEmpty, "\(report)")
        let zettel = try store.resolve("zettel")
        #expect(zettel.created == Self.date("2025-08-21T00:00:00Z"))
        #expect(
            try store.properties(of: zettel.id).map { "\($0.key)=\($0.value.json)" } == [
                #"aliases=["20250821081408"]"#, #"date="2025-08-21""#, "keywords=null",
            ])
        let seven = try store.resolve("seven")
        #expect(
            try store.properties(of: seven.id).map { "\($0.key)=\($0.value.json)" } == [#"aliases=["Seven","note-7"]"#])
        let index = try store.resolve("index")
        #expect(try store.links(of: index.id).map(\.resolved) == [zettel.id, seven.id])
        let authored = try store.properties(of: try store.resolve("authored").id)
        #expect(
            authored.map { "\($0.key)=\($0.value.json)" } == [
                #"title="Distill""#,
                #"author=[{"name":"A. Writer","url":"https://example.org/a","affiliation":"Somewhere"}]"#,
                #"subtitle="-Start with dash""#,
            ])
        try expectRoundTrip(store, paths: ["zettel.md", "seven.md", "index.md", "authored.md"])
    }

    /// Tabs where YAML wants spaces: reported on one line, and the file comes in whole.
    @Test func frontMatterWithTabsIsReportedAndKeptWhole() throws {
        let text = "---\ntitle: norm\ntags:\n\t\t- tag1\n- tag2\n---\n\nnote body\n"
        try write(text, "tabs.md")
        let store = try Store(folder: folder.appending("store"))
        let report = try importVault(into: store)
        #expect(report.created == 1)
        #expect(
            report.problems.count == 1 && report.problems[0].hasPrefix("tabs.md: front matter is not YAML"),
            "\(report.problems)")
        #expect(try store.resolve("tabs").body == text)
    }

    /// Links as tools write them: a title, angle brackets around a name with spaces, escapes,
    /// a name in another script, spaces inside the parentheses, a file without an extension,
    /// one file linked twice, a folder, nothing, the web, a malformed escape, a data URL, a
    /// heading of another note, and two notes linking to each other. Every file that is there
    /// is attached once; the folder and the missing file are reported; the body is kept as
    /// written; and the export puts every file back where the body links it.
    @Test func linksAsToolsWriteThem() throws {
        try copy("baseline.jpg", to: "files/photo.jpg")
        try copy("plain.png", to: "files/photo sample.png")
        try copy("indexed.png", to: "files/photo-åäö.png")
        try write("raw bytes\n", "files/file1")
        try write("text\n", "files/file3.text")
        let body = """
            # Links
            ![Alt](files/photo.jpg "Scott Joplin")
            ![Worst](<files/photo sample.png> "title")
            [sample photo](files/photo%20sample.png)
            ![special](files/photo-åäö.png)
            ![spaced](     files/photo.jpg   )
            [file1](./files/file1) and [file3](files/file3.text)
            ![a folder](files) and ![none](does_not_exist.png)
            ![web](https://example.org/a.png) ![malformed](https://malformed_uri/%E0%A4%A.jpg)
            ![data](data:image/png;base64,iVBORw0KGgo=)
            [Section 1](./cycle-b.md#markdown)

            """
        try write(body, "links.md")
        try write("# A\n\n[b](cycle-b.md)\n", "cycle-a.md")
        try write("# Markdown\n\n[a](cycle-a.md)\n", "cycle-b.md")
        let store = try Store(folder: folder.appending("store"))
        let report = try importVault(into: store)
        #expect(
            report.problems == [
                "links.md: image files is a folder, not attached",
                "links.md: image does_not_exist.png not found, not attached",
            ])
        let links = try store.resolve("links")
        #expect(links.body == body)
        let attachments = try store.attachments(of: links.id)
        #expect(
            attachments.map { $0.format?.rawValue ?? $0.fileName ?? "?" } == [
                "jpeg", "png", "png", "file1", "file3.text",
            ])
        #expect(attachments.map(\.caption) == ["Alt", "Worst", "special", nil, nil])
        let a = try store.resolve("cycle-a")
        let b = try store.resolve("cycle-b")
        #expect(try store.links(of: a.id).map(\.resolved) == [b.id])
        #expect(try store.links(of: b.id).map(\.resolved) == [a.id])
        #expect(
            try store.links(of: links.id).filter { $0.kind == .markdown && $0.target.hasSuffix(".md") }.map(\.resolved)
                == [b.id])

        try expectRoundTrip(store, paths: ["links.md", "cycle-a.md", "cycle-b.md"])
        let out = folder.appending("out")
        for path in [
            "files/photo.jpg", "files/photo sample.png", "files/photo-åäö.png", "files/file1", "files/file3.text",
        ] {
            #expect(
                FileManager.default.contentsEqual(
                    atPath: out.appendingPathComponent(path).path, andPath: vault.appendingPathComponent(path).path),
                "\(path)")
        }
        #expect(!FileManager.default.fileExists(atPath: out.appendingPathComponent("does_not_exist.png").path))
    }
}
