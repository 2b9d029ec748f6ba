import Foundation
import NoteInterchange
import NoteStore
import NoteTestSupport
import Testing

/// A Markdown export that is a vault again: images where the bodies link them, names as the
/// file system allows, links as they resolve in the exported tree; importing it changes
/// nothing and reports nothing.
@Suite struct VaultExportTests {
    let folder = TemporaryFolder("notes-vault-export")
    var vault: URL { folder.appending("vault") }
    var out: URL { folder.appending("out") }

    func write(_ text: String, _ path: String) throws {
        let url = vault.appendingPathComponent(path)
        try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
        try Data(text.utf8).write(to: url)
    }

    func copy(_ image: String, to path: String) throws {
        let url = vault.appendingPathComponent(path)
        try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
        try FileManager.default.copyItem(at: sampleImages.appendingPathComponent(image), to: url)
    }

    func text(_ path: String) throws -> String {
        try String(contentsOf: out.appendingPathComponent(path), encoding: .utf8)
    }

    func files(_ url: URL) -> [String] {
        (FileManager.default.enumerator(atPath: url.path)?.compactMap { $0 as? String } ?? []).sorted()
    }

    static let anna =
        "See the plan ![plan](../assets/photo.png) and ![[shot.png|300]].\n"
        + "<img src=\"img/b.jpg\" width=\"40\">\nBack to [[Home]].\n"

    @Test func imagesComeBackWhereTheBodiesLinkThem() throws {
        try write("---\ntags: [trip]\n---\n" + Self.anna, "Trips/Call Anna re: flat viewing.md")
        try write("Start at [[Call Anna re: flat viewing]].\n![](assets/photo.png)\n", "Home.md")
        try copy("plain.png", to: "assets/photo.png")
        try copy("indexed.png", to: "Trips/shot.png")
        try copy("baseline.jpg", to: "Trips/img/b.jpg")
        let store = try Store(folder: folder.appending("store"))
        let first = try Importer(store: store).run(path: vault, into: nil, dryRun: false)
        #expect(first.problems.isEmpty && first.images == 4 && first.created == 3, "\(first)")

        let report = try MarkdownExporter(store: store).export(to: out)
        #expect(report.images == 4 && report.notes == 2 && report.collections == 1, "\(report)")
        #expect(
            files(out) == [
                "Home.md", "Trips", "Trips/Call Anna re: flat viewing.md", "Trips/img", "Trips/img/b.jpg",
                "Trips/shot.png", "assets",
                "assets/photo.png",
            ])
        // The same bytes where both notes link them: written once.
        #expect(
            try Data(contentsOf: out.appendingPathComponent("assets/photo.png"))
                == Data(contentsOf: vault.appendingPathComponent("assets/photo.png")))
        let anna = try text("Trips/Call Anna re: flat viewing.md")
        #expect(
            anna.hasSuffix("\n---\n" + Self.anna) && !anna.contains("notes: images") && !anna.contains("\nname:"),
            "\(anna)")

        let again = try Importer(store: store).run(path: out, into: nil, dryRun: false)
        #expect(
            again.problems.isEmpty && again.created == 0 && again.updated == 0 && again.unchanged == 3
                && again.images == 0, "\(again)")
        let fresh = try Store(folder: folder.appending("fresh"))
        let copied = try Importer(store: fresh).run(path: out, into: nil, dryRun: false)
        #expect(copied.problems.isEmpty && copied.created == 3 && copied.images == 4, "\(copied)")
        let note = try fresh.resolve("Trips/Call Anna re: flat viewing")
        #expect(try fresh.attachments(of: note.id).map(\.sha256) == store.attachments(of: note.id).map(\.sha256))
        #expect(try fresh.links(of: note.id).map(\.resolved) == store.links(of: note.id).map(\.resolved))
    }

    /// Two files of the same bytes that one note links are two attachments, each written back
    /// where its link points; importing again attaches nothing.
    @Test func twoFilesOfTheSameBytesComeBackBoth() throws {
        try write("![first](img/a.png)\n\n![second](img/b.png) and ![[a.png]]\n", "Two.md")
        try copy("plain.png", to: "img/a.png")
        try copy("plain.png", to: "img/b.png")
        let store = try Store(folder: folder.appending("store"))
        let first = try Importer(store: store).run(path: vault, into: nil, dryRun: false)
        #expect(first.problems.isEmpty && first.images == 2, "\(first)")
        let note = try store.resolve("Two")
        #expect(try store.attachments(of: note.id).count == 2)
        let again = try Importer(store: store).run(path: vault, into: nil, dryRun: false)
        #expect(again.problems.isEmpty && again.images == 0 && again.unchanged == 1, "\(again)")

        _ = try MarkdownExporter(store: store).export(to: out)
        #expect(files(out) == ["Two.md", "img", "img/a.png", "img/b.png"], "\(files(out))")
        let original = try Data(contentsOf: vault.appendingPathComponent("img/a.png"))
        #expect(try Data(contentsOf: out.appendingPathComponent("img/b.png")) == original)
        let exported = try Importer(store: store).run(path: out, into: nil, dryRun: false)
        #expect(exported.problems.isEmpty && exported.images == 0 && exported.unchanged == 1, "\(exported)")
    }

    /// A link whose place is outside the export, or taken by other bytes, gets a file beside
    /// its note, and only its target changes; an image no link shows is linked after the body.
    @Test func aPlaceThatCannotBeUsedGivesAFileBesideTheNote() throws {
        let store = try Store(folder: folder.appending("store"))
        let trips = try store.addCollection(named: "Trips", in: nil)
        let body = "far ![up](../../up.png \"title\") and [[Near]]\n"
        let far = try store.addNote(named: "Far: away?", body: body, in: trips.id)
        _ = try store.attachImages([sampleImages.appendingPathComponent("plain.png")], to: far.id)
        _ = try store.attachImages([sampleImages.appendingPathComponent("still.gif")], to: far.id)
        let near = try store.addNote(named: "Near", body: "![[pic.png]]\n", in: trips.id)
        _ = try store.attachImages([sampleImages.appendingPathComponent("indexed.png")], to: near.id)
        _ = try store.attachImages(
            [sampleImages.appendingPathComponent("baseline.jpg")], to: near.id, caption: "extra")
        let report = try MarkdownExporter(store: store).export(to: out)
        #expect(report.images == 4)
        #expect(
            files(out) == [
                "Trips", "Trips/Far: away?.1.gif", "Trips/Far: away?.md", "Trips/Near.1.jpg", "Trips/Near.md",
                "Trips/pic.png", "Trips/up.png",
            ], "\(files(out))")
        // Far's gif is shown by no link: it is linked after the body, as Near's jpg is.
        let farText = try text("Trips/Far: away?.md")
        #expect(
            farText.contains(
                "\n---\nfar ![up](up.png \"title\") and [[Near]]\n\n\n<!-- notes: images -->\n![](<Far: away?.1.gif>)\n"
            ), "\(farText)")
        #expect(
            try text("Trips/Near.md").hasSuffix(
                "\n---\n![[pic.png]]\n\n\n<!-- notes: images -->\n![extra](<Near.1.jpg>)\n"))
        let again = try Importer(store: store).run(path: out, into: nil, dryRun: false)
        #expect(again.problems.isEmpty && again.images == 0 && again.updated == 1, "\(again)")
        #expect(try store.item(far.id).body == "far ![up](up.png \"title\") and [[Near]]\n")
    }

    @Test func portableNamesAreThoseOfEveryFileSystem() throws {
        let store = try Store(folder: folder.appending("store"))
        _ = try store.addNote(named: "Call Anna re: flat viewing", body: "", in: nil)
        _ = try store.addNote(named: "CON", body: "", in: nil)
        _ = try store.addNote(named: "a/b", body: "", in: nil)
        _ = try MarkdownExporter(store: store).export(to: out)
        #expect(files(out) == ["CON.md", "Call Anna re: flat viewing.md", "a_b.md"])
        var portable = MarkdownExporter(store: store)
        portable.portable = true
        _ = try portable.export(to: folder.appending("portable"))
        #expect(files(folder.appending("portable")) == ["CON (2).md", "Call Anna re_ flat viewing.md", "a_b.md"])
    }

    /// Links are written as Obsidian resolves them in the exported tree: a name that two
    /// files have becomes a path, keeping its heading and text; an import resolves them to
    /// the same notes.
    @Test func ambiguousLinksAreWrittenWithAPath() throws {
        let store = try Store(folder: folder.appending("store"))
        let a = try store.addCollection(named: "A", in: nil)
        let b = try store.addCollection(named: "B", in: nil)
        _ = try store.addNote(named: "Index", body: "a\n", in: a.id)
        _ = try store.addNote(named: "Index", body: "b\n", in: b.id)
        _ = try store.addNote(named: "Plan: one", body: "plan\n", in: b.id)
        let body = "[[Index#Top|first]] and [[B/Index]], ![[index.md]], [[Plan: one]], `[[Index]]`\n"
        let home = try store.addNote(named: "Home", body: body, in: nil)
        // Beside the note, a name reaches the same note in Obsidian and in an import: kept.
        _ = try store.addNote(named: "Other", body: "[[Index]]\n", in: a.id)
        let links = try store.links(of: home.id)
        let folder = try #require(links[0].resolved) == (try store.resolve("A/Index")).id ? "A" : "B"
        _ = try MarkdownExporter(store: store).export(to: out)
        let written = try text("Home.md")
        let expected =
            "[[\(folder)/Index#Top|first]] and [[B/Index]], ![[\(folder)/Index.md]], [[Plan: one]], `[[Index]]`\n"
        #expect(written.hasSuffix("\n---\n" + expected), "\(written)")
        #expect(try text("A/Other.md").hasSuffix("\n---\n[[Index]]\n"))

        let fresh = try Store(folder: self.folder.appending("fresh"))
        let report = try Importer(store: fresh).run(path: out, into: nil, dryRun: false)
        #expect(report.problems.isEmpty)
        #expect(try fresh.links(of: home.id).map(\.resolved) == links.map(\.resolved))
        // Into a collection: a path from the top of the export ends the note's path.
        let boxed = try Store(folder: self.folder.appending("boxed"))
        let box = try boxed.addCollection(named: "Box", in: nil)
        _ = try Importer(store: boxed).run(path: out, into: box.id, dryRun: false)
        #expect(try boxed.links(of: home.id).map(\.resolved) == links.map(\.resolved))
    }

    /// A vault's links resolve as Obsidian finds them: the end of a path, a path relative to
    /// the note, a path from the top.
    @Test func importedLinksResolveAsObsidianFindsThem() throws {
        try write("deep\n", "Notes/Deep/Name.md")
        try write("other\n", "Other/Name.md")
        try write("top\n", "Name.md")
        try write("[[Deep/Name]] [[../../Other/Name.md]] [[/Name]] [[Name]]\n", "Notes/Deep/Here.md")
        let store = try Store(folder: folder.appending("store"))
        #expect(try Importer(store: store).run(path: vault, into: nil, dryRun: false).problems.isEmpty)
        let here = try store.resolve("Notes/Deep/Here")
        let expected = try ["Notes/Deep/Name", "Other/Name", "Name", "Notes/Deep/Name"].map { try store.resolve($0).id }
        #expect(try store.links(of: here.id).map(\.resolved) == expected)
    }
}
