import Foundation
import NoteInterchange
import NoteStore
import NoteTestSupport
import Testing

/// Files made by other tools: an Obsidian-style vault, a git repository of notes, and files
/// that cannot be imported whole.
@Suite struct VaultImportTests {
    let folder = TemporaryFolder("notes-vault")
    var vault: URL { folder.appending("vault") }

    func write(_ text: String, _ path: String) throws {
        let url = vault.appendingPathComponent(path)
        try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
        try Data(text.utf8).write(to: url)
    }

    /// Imports the vault as the command does: walked and read a file at a time.
    func importVault(into store: Store) throws -> ImportReport {
        try Importer(store: store).run(path: vault, into: nil, dryRun: false)
    }

    @Test func anObsidianVaultComesInWithItsFoldersImagesAndText() throws {
        try write(
            "---\ntags: [a, b]\naliases:\n  - Home\ncreated: 2024-03-01\n---\n"
                + "See [[Other note]] and ![[pic.png]].\n![diagram](assets/plain%20copy.png)\n",
            "Daily/2024-03-01.md")
        try write("# Other\nplain text, no front matter\n", "Other note.md")
        try write("ignored", ".obsidian/workspace.json")
        try write("not a note", "readme.txt")
        try FileManager.default.createDirectory(
            at: vault.appendingPathComponent("Daily/assets"), withIntermediateDirectories: true)
        try FileManager.default.copyItem(
            at: sampleImages.appendingPathComponent("plain.png"),
            to: vault.appendingPathComponent("Daily/assets/plain copy.png"))
        let store = try Store(folder: folder.appending("store"))
        let report = try importVault(into: store)
        #expect(report.created == 3 && report.images == 1, "\(report)")
        #expect(report.problems == ["Daily/2024-03-01.md: image pic.png not found, not attached"])
        let daily = try store.resolve("Daily/2024-03-01")
        // The front matter is not in the body; wiki links stay as text; the image link stays too.
        #expect(daily.body == "See [[Other note]] and ![[pic.png]].\n![diagram](assets/plain%20copy.png)\n")
        #expect(daily.created == ISO8601DateFormatter().date(from: "2024-03-01T00:00:00Z"))
        #expect(try store.attachments(of: daily.id).map(\.caption) == ["diagram"])
        #expect(try store.tags(of: daily.id) == ["a", "b"])
        #expect(try store.resolve("Other note").body == "# Other\nplain text, no front matter\n")

        // A second import of files without ids matches them by name: no duplicates.
        let again = try importVault(into: store)
        #expect(again.created == 0 && again.unchanged == 3 && again.images == 0, "\(again)")
        #expect(try store.fetch(ItemRequest()).count == 3)
    }

    /// A git repository of notes: its `.git` folder (hidden) is passed over, its Markdown
    /// files come in with the tags of their front matter, and pulling changes then importing
    /// again updates the notes instead of duplicating them.
    /// A vault in Obsidian's layout: its images in the attachment folder that
    /// `.obsidian/app.json` names, embedded by name with sizes and fragments, linked by path
    /// from the top, by `<img>` and reference style, and mentioned in code, which attaches
    /// nothing. Every image is attached once per note, with its caption; bodies stay as written.
    @Test func embedsFindTheirFilesAsObsidianDoes() throws {
        try write("{\"attachmentFolderPath\": \"Files/attachments\"}", ".obsidian/app.json")
        for (sample, path) in [
            ("plain.png", "Files/attachments/shot.png"), ("baseline.jpg", "Files/attachments/bases.jpg"),
            ("still.gif", "deep/inside/anim.gif"), ("lossy.webp", "b/dup.webp"),
            ("indexed.png", "a/long/path/dup.webp"),
            ("interlaced.png", "top.png"),
        ] {
            try FileManager.default.createDirectory(
                at: vault.appendingPathComponent(path).deletingLastPathComponent(), withIntermediateDirectories: true)
            try FileManager.default.copyItem(
                at: sampleImages.appendingPathComponent(sample), to: vault.appendingPathComponent(path))
        }
        let body = """
            # Daily
            ![[shot.png]] and again ![[shot.png|300]] and ![[bases.jpg#interface|the bases]].
            ![[anim.gif]] ![[dup.webp]] ![[Other note]] ![[Other note#Part]]
            `![[code.png]]` and ![alt][logo] and <img src="/top.png" width=10>

            ```
            ![[fenced.png]] ![](fenced.png)
            ```

            [logo]: ../top.png "Logo"
            ![[missing.png]]

            """
        try write(body, "Journal/2024/Daily.md")
        try write("Other\n", "Other note.md")
        let store = try Store(folder: folder.appending("store"))
        let report = try importVault(into: store)
        #expect(
            report.problems == [
                "Journal/2024/Daily.md: image /top.png is outside what is imported, not attached",
                "Journal/2024/Daily.md: image missing.png not found, not attached",
            ], "\(report)")
        let daily = try store.resolve("Journal/2024/Daily")
        #expect(daily.body == body)
        let attachments = try store.attachments(of: daily.id)
        // shot.png once, bases.jpg with its shown text, anim.gif by name, the shorter dup.webp
        // (the longer one is a PNG), and top.png by name from a path that leads nowhere.
        #expect(
            attachments.compactMap(\.format?.rawValue).sorted() == ["gif", "jpeg", "png", "png", "webp"],
            "\(attachments)")
        #expect(Set(attachments.map(\.caption)) == [nil, "the bases", "alt"])
        #expect(report.images == 5)
    }

    /// Dates from front matter as Obsidian, Joplin and Hugo name and write them, else the
    /// file's time of last change.
    @Test func datesComeFromFrontMatterElseFromTheFile() throws {
        try write("---\nDate: 2021-05-04\nupdated: 2022-01-02 10:30\n---\nA\n", "a.md")
        try write("---\ndate: \"2020-02-03T04:05:06+01:00\"\nlastmod: 2023-01-01T00:00:00-08:00\n---\nB\n", "b.md")
        try write("no front matter\n", "c.md")
        let old = Date(timeIntervalSince1970: 1_609_459_200)  // 2021-01-01T00:00:00Z
        try FileManager.default.setAttributes(
            [.modificationDate: old], ofItemAtPath: vault.appendingPathComponent("c.md").path)
        let store = try Store(folder: folder.appending("store"))
        #expect(try importVault(into: store).problems.isEmpty)
        let iso = ISO8601DateFormatter()
        let a = try store.resolve("a"), b = try store.resolve("b"), c = try store.resolve("c")
        #expect(
            a.created == iso.date(from: "2021-05-04T00:00:00Z") && a.modified == iso.date(from: "2022-01-02T10:30:00Z"))
        #expect(
            b.created == iso.date(from: "2020-02-03T03:05:06Z") && b.modified == iso.date(from: "2023-01-01T08:00:00Z"))
        #expect(c.created == old && c.modified == old)
    }

    /// `#tags` in a body become tags of its note, with those of its front matter, unless
    /// the import is told to keep them as text.
    @Test func inlineTagsBecomeTags() throws {
        try write("---\ntags: [a]\n---\nPlan #work and #projects/notes, not `#code`.\n", "plan.md")
        let store = try Store(folder: folder.appending("store"))
        #expect(try importVault(into: store).problems.isEmpty)
        #expect(try store.tags(of: try store.resolve("plan").id) == ["a", "projects/notes", "work"])
        let plain = try Store(folder: folder.appending("plain"))
        var importer = Importer(store: plain)
        importer.inlineTags = false
        _ = try importer.run(path: vault, into: nil, dryRun: false)
        #expect(try plain.tags(of: try plain.resolve("plan").id) == ["a"])
    }

    @Test func aGitRepositoryOfNotes() throws {
        func git(_ arguments: String...) throws {
            let process = Process()
            process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
            process.arguments =
                ["git", "-C", vault.path, "-c", "user.name=Notes", "-c", "user.email=notes@example.com"] + arguments
            process.standardOutput = FileHandle.nullDevice
            process.standardError = FileHandle.nullDevice
            try process.run()
            process.waitUntilExit()
            #expect(process.terminationStatus == 0, "git \(arguments)")
        }
        try write("# Notes\n", "README.md")
        try write("---\ntags: recipes, winter\n---\nLeeks.\n", "cooking/soup.md")
        try write("Step one.\n", "work/plan.markdown")
        try git("init", "--quiet")
        try git("add", ".")
        try git("commit", "--quiet", "-m", "notes")
        #expect(FileManager.default.fileExists(atPath: vault.appendingPathComponent(".git/HEAD").path))
        let store = try Store(folder: folder.appending("store"))
        let report = try importVault(into: store)
        #expect(report.created == 5 && report.problems.isEmpty, "\(report)")
        #expect(try store.fetch(ItemRequest()).map(\.name).sorted() == ["README", "cooking", "plan", "soup", "work"])
        #expect(try store.tags(of: store.resolve("cooking/soup").id) == ["recipes", "winter"])
        try write("---\ntags: recipes\n---\nLeeks and potatoes.\n", "cooking/soup.md")
        try git("commit", "--quiet", "-am", "more")
        let again = try importVault(into: store)
        #expect(again.created == 0 && again.updated == 1 && again.unchanged == 4, "\(again)")
        let soup = try store.resolve("cooking/soup")
        #expect(try soup.body == "Leeks and potatoes.\n" && store.tags(of: soup.id) == ["recipes"])
    }

    @Test func badFilesAreReportedAndTheRestIsImported() throws {
        try write("fine\n", "good.md")
        try Data([0x66, 0xFF, 0xFE, 0x0A]).write(to: vault.appendingPathComponent("latin1.md"))
        try write("![gone](missing.png)\n", "broken link.md")
        try (Data([0x89]) + Data("PNG, and then not an image".utf8)).write(to: vault.appendingPathComponent("fake.png"))
        try write("![fake](fake.png)\n", "bad image.md")
        try write("![outside](../secret.png)\n", "escape.md")
        try write("x", "../secret.png")
        let store = try Store(folder: folder.appending("store"))
        let report = try importVault(into: store)
        #expect(report.created == 4, "\(report)")
        #expect(report.problems.count == 4, "\(report.problems)")
        #expect(report.problems.contains("latin1.md: not UTF-8, skipped"))
        #expect(report.problems.contains("broken link.md: image missing.png not found, not attached"))
        #expect(report.problems.contains("escape.md: image ../secret.png is outside what is imported, not attached"))
        #expect(report.problems.contains { $0.hasPrefix("bad image.md: ") && $0.hasSuffix(", not attached") })
        #expect(try store.fetch(ItemRequest()).map(\.name).sorted() == ["bad image", "broken link", "escape", "good"])
    }

    /// A file larger than any note's is reported and skipped without being read; one at the
    /// size a body of the store's limit needs is imported.
    @Test func aFileLargerThanAnyNoteIsSkippedUnread() throws {
        try write("fine\n", "good.md")
        try Data(repeating: 0x61, count: MarkdownReader.maximumFileBytes + 1).write(
            to: vault.appendingPathComponent("huge.md"))
        try Data(repeating: 0x62, count: Item.maximumBodyBytes).write(to: vault.appendingPathComponent("largest.md"))
        let store = try Store(folder: folder.appending("store"))
        let report = try importVault(into: store)
        #expect(
            report.problems == [
                "huge.md: larger than \(MarkdownReader.maximumFileBytes) bytes, more than a note's file holds, skipped"
            ])
        #expect(try store.fetch(ItemRequest()).map(\.name).sorted() == ["good", "largest"])
        #expect(try store.item(store.resolve("largest").id).body?.utf8.count == Item.maximumBodyBytes)
    }

    /// A file the store's rules refuse (here a name with an escape character from its front
    /// matter) is reported alone; the other notes of its batch are saved.
    @Test func aNoteTheStoreRefusesDoesNotFailItsBatch() throws {
        try write("---\nname: \"bad\\u001B[31m name\"\n---\nbody\n", "bad.md")
        try write("fine\n", "good.md")
        let store = try Store(folder: folder.appending("store"))
        let report = try importVault(into: store)
        #expect(report.created == 1, "\(report)")
        #expect(
            report.problems.count == 1 && report.problems[0].hasPrefix("bad.md: the name contains "),
            "\(report.problems)")
        #expect(try store.fetch(ItemRequest()).map(\.name) == ["good"])
    }

    @Test func aDryRunChangesNothing() throws {
        try write("one\n", "Folder/one.md")
        let store = try Store(folder: folder.appending("store"))
        let report = try Importer(store: store).run(path: vault, into: nil, dryRun: true)
        #expect(report.plan == ["create collection Folder", "create note Folder/one.md"])
        #expect(try store.fetch(ItemRequest()).isEmpty)
    }

    /// Front matter is kept whole as properties, in order, with nested values; the note's own
    /// keys (`tags`, dates) are its tags and dates. An export writes the properties back in
    /// the same order, and importing that export changes nothing.
    @Test func frontMatterComesInAsPropertiesAndGoesBackOut() throws {
        let matter = """
            ---
            title: "Leek soup: a winter classic"
            aliases:
              - Potage
              - Vichyssoise
            tags: [soup, winter]
            publish: true
            rating: 4.5
            servings: 4
            cssclasses: []
            draft:
            params:
              color: green
              sizes: [small, large]
            date: 2021-03-04
            ---
            Leeks, potatoes. #hot

            """
        try write(matter, "Recipes/Leek soup.md")
        let store = try Store(folder: folder.appending("store"))
        let report = try importVault(into: store)
        #expect(report.problems.isEmpty, "\(report.problems)")
        let soup = try store.resolve("Recipes/Leek soup")
        #expect(soup.body == "Leeks, potatoes. #hot\n")
        #expect(try store.tags(of: soup.id) == ["hot", "soup", "winter"])
        #expect(soup.created == ISO8601DateFormatter().date(from: "2021-03-04T00:00:00Z"))
        let properties = try store.properties(of: soup.id)
        #expect(
            properties.map(\.key) == [
                "title", "aliases", "publish", "rating", "servings", "cssclasses", "draft", "params", "date",
            ])
        #expect(
            properties.map(\.value.json) == [
                #""Leek soup: a winter classic""#, #"["Potage","Vichyssoise"]"#, "true", "4.5", "4", "[]", "null",
                #"{"color":"green","sizes":["small","large"]}"#, #""2021-03-04""#,
            ])

        let out = folder.appending("out")
        _ = try MarkdownExporter(store: store).export(to: out)
        let exported = try String(contentsOf: out.appendingPathComponent("Recipes/Leek soup.md"), encoding: .utf8)
        let lines = exported.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        // Its id and modified date, then the tags the body does not give, then the properties.
        #expect(lines[0] == "---" && lines[1].hasPrefix("id: ") && lines[2].hasPrefix("modified: "))
        #expect(
            Array(lines[3...]).prefix(17) == [
                "tags: [soup, winter]", #"title: "Leek soup: a winter classic""#, "aliases:", "  - Potage",
                "  - Vichyssoise", "publish: true",
                "rating: 4.5", "servings: 4", "cssclasses: []", "draft:", "params:", "  color: green", "  sizes:",
                "    - small", "    - large",
                "date: 2021-03-04", "---",
            ])
        let again = try Importer(store: store).run(path: out, into: nil, dryRun: false)
        #expect(again.updated == 0 && again.created == 0 && again.problems.isEmpty, "\(again)")
        #expect(try store.properties(of: soup.id) == properties)
    }

    /// Front matter that is not YAML, or that expands past the bounds (aliases of aliases), is
    /// reported, and the file comes in whole as the body.
    @Test(arguments: [
        ("---\ntitle: [unclosed\n---\nText\n", "front matter is not YAML"),
        ("---\n- a list\n- not a map\n---\nText\n", "front matter is not a map of keys and values"),
        (
            "---\na: &a [x, x, x, x, x, x, x, x, x, x]\n"
                + "b: &b [*a, *a, *a, *a, *a, *a, *a, *a, *a, *a]\n"
                + "c: &c [*b, *b, *b, *b, *b, *b, *b, *b, *b, *b]\n"
                + "d: &d [*c, *c, *c, *c, *c, *c, *c, *c, *c, *c]\n"
                + "e: [*d, *d, *d, *d, *d, *d, *d, *d, *d, *d]\n---\nText\n",
            "front matter holds more than 20000 values"
        ),
    ])
    func unreadableFrontMatterKeepsTheFileWhole(text: String, problem: String) throws {
        try write(text, "Odd.md")
        let store = try Store(folder: folder.appending("store"))
        let report = try importVault(into: store)
        #expect(report.created == 1)
        #expect(report.problems.count == 1 && report.problems[0].hasPrefix("Odd.md: \(problem)"), "\(report.problems)")
        #expect(report.problems.first?.hasSuffix("; the file is kept whole as the body") == true)
        let odd = try store.resolve("Odd")
        #expect(odd.body == text)
        #expect(try store.properties(of: odd.id).isEmpty)
    }
}
