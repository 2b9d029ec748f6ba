import Foundation
import NoteInterchange
import NoteStore
import NoteTestSupport
import Testing

/// Attachments of any kind through export and import: a PDF and an SVG come back with their
/// bytes, names, media types, sizes and captions, in Markdown and in JSON; a vault's embeds
/// and links to local files become attachments.
@Suite struct FileRoundTripTests {
    let folder = TemporaryFolder("notes-interchange-files")
    static let pdf = Data("%PDF-1.7\n% a plan\n1 0 obj << >> endobj\n%%EOF\n".utf8)
    static let svg = Data(
        #"<svg xmlns="http://www.w3.org/2000/svg" width="40" height="30"><path d="M0 0h4"/></svg>"#.utf8)

    /// A note's attachments as comparable text.
    func attachments(_ store: Store, of note: UUID) throws -> [String] {
        try store.attachments(of: note).map {
            "\($0.kind) \($0.sha256) \($0.mediaType) \($0.fileName ?? "-") "
                + "\($0.width ?? 0)x\($0.height ?? 0) \($0.bytes) \($0.caption ?? "-")"
        }.sorted()
    }

    func makeSource() throws -> (Store, UUID) {
        let store = try Store(folder: folder.appending("source"))
        let note = try store.addNote(named: "Plan", body: "The plan, with its files.\n", in: nil).id
        let pdf = folder.appending("the plan.pdf")
        try Self.pdf.write(to: pdf)
        let svg = folder.appending("map.svg")
        try Self.svg.write(to: svg)
        _ = try store.attach([pdf], to: note, caption: "the [plan]")
        _ = try store.attach([svg, SampleFiles.image("plain.png")], to: note)
        return (store, note)
    }

    @Test(arguments: ["md", "json"])
    func filesComeBackWithTheirBytesNamesAndKinds(format: String) throws {
        let (source, note) = try makeSource()
        let out = folder.appending("out")
        let exported =
            format == "md"
            ? try MarkdownExporter(store: source).export(to: out) : try JSONExporter(store: source).export(to: out)
        #expect(exported.images == 1 && exported.files == 2)
        let target = try Store(folder: folder.appending("target"))
        let report = try Importer(store: target).run(path: out, into: nil, dryRun: false)
        #expect(report.problems.isEmpty && report.images == 1 && report.files == 2, "\(report)")
        let expected = try attachments(source, of: note)
        #expect(expected.count == 3)
        let found = try attachments(target, of: note)
        #expect(found == expected, "\(found) \(expected)")
        #expect(try target.item(note).body == "The plan, with its files.\n")
        for attachment in try target.attachments(of: note) {
            #expect(try target.data(of: attachment) == source.data(of: attachment))
        }
        let again = try Importer(store: target).run(path: out, into: nil, dryRun: false)
        #expect(again.unchanged == 1 && again.images == 0 && again.files == 0 && again.problems.isEmpty, "\(again)")
        #expect(try attachments(target, of: note) == expected)
    }

    /// The files in the store's blob folder that are not blobs: temporary copies.
    func temporaries(_ store: Store) throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: store.folder.appendingPathComponent("blobs").path)
            .filter { $0.hasPrefix(".") }
    }

    /// Files and images are read on the reading thread, each copied into the blob folder
    /// before its note is saved: a note skipped, an import that only plans, and a file whose
    /// bytes the note has already leave no copy behind.
    @Test func filesReadAheadAndNotAttachedLeaveNothing() throws {
        let vault = folder.appending("vault")
        try FileManager.default.createDirectory(at: vault, withIntermediateDirectories: true)
        for number in 0..<300 {
            try Data("%PDF-1.7\n% number \(number)\n%%EOF\n".utf8).write(
                to: vault.appendingPathComponent("f\(number).pdf"))
            try Data("[report](f\(number).pdf)\n".utf8).write(to: vault.appendingPathComponent("n\(number).md"))
        }
        let images = ["plain.png", "interlaced.png", "baseline.jpg", "progressive.jpg", "still.gif", "lossy.webp"]
        for (number, image) in images.enumerated() {
            try FileManager.default.copyItem(at: SampleFiles.image(image), to: vault.appendingPathComponent(image))
            try Data("![figure](\(image))\n".utf8).write(to: vault.appendingPathComponent("i\(number).md"))
        }
        // Its name breaks the store's rules: the note is skipped after its files were read.
        try Data("[report](f0.pdf) ![figure](plain.png)\n".utf8).write(
            to: vault.appendingPathComponent("bad\u{7}name.md"))
        let store = try Store(folder: folder.appending("store"))
        let planned = try Importer(store: store).run(path: vault, into: nil, dryRun: true)
        #expect(planned.files == 300 && planned.images == 6 && planned.problems.count == 1, "\(planned.problems)")
        #expect(try temporaries(store) == [])
        #expect(try store.fetch(ItemRequest()).isEmpty)

        let report = try Importer(store: store).run(path: vault, into: nil, dryRun: false)
        #expect(
            report.created == 306 && report.files == 300 && report.images == 6 && report.problems.count == 1,
            "\(report.problems)")
        #expect(try temporaries(store) == [])
        let again = try Importer(store: store).run(path: vault, into: nil, dryRun: false)
        #expect(again.unchanged == 306 && again.files == 0 && again.images == 0, "\(again)")
        #expect(try temporaries(store) == [])
        #expect(try store.check() == [])
    }

    /// Two files of one note (the same id: a copy) that embed the same image give the note
    /// one attachment, whether or not a save falls between them.
    @Test func twoFilesOfOneNoteAttachTheirImageOnce() throws {
        let vault = folder.appending("vault")
        try FileManager.default.createDirectory(at: vault, withIntermediateDirectories: true)
        try FileManager.default.copyItem(at: SampleFiles.image("plain.png"), to: vault.appendingPathComponent("p.png"))
        let id = UUID()
        for name in ["a", "b"] {
            try Data("---\nid: \(id.uuidString)\n---\nThe plan.\n\n![](p.png)\n".utf8).write(
                to: vault.appendingPathComponent("\(name).md"))
        }
        let store = try Store(folder: folder.appending("store"))
        let report = try Importer(store: store).run(path: vault, into: nil, dryRun: false)
        #expect(report.created == 1 && report.images == 1 && report.problems.isEmpty, "\(report)")
        #expect(try store.attachments(of: id).count == 1)
        #expect(try store.check() == [])
    }

    @Test func aVaultsEmbedsAndLinksToLocalFilesAreAttached() throws {
        let vault = folder.appending("vault")
        try FileManager.default.createDirectory(
            at: vault.appendingPathComponent("files"), withIntermediateDirectories: true)
        try Self.pdf.write(to: vault.appendingPathComponent("files/report.pdf"))
        try Self.svg.write(to: vault.appendingPathComponent("diagram.svg"))
        try Data("a,b\n1,2\n".utf8).write(to: vault.appendingPathComponent("files/data.csv"))
        let body = """
            ![[diagram.svg]]
            See [the report](files/report.pdf), [the data](<files/data.csv>) and [another note](Other.md).
            `![[not-here.pdf]]` stays text, and [a missing file](files/none.pdf) a link.

            """
        try Data(body.utf8).write(to: vault.appendingPathComponent("Index.md"))
        try Data("other\n".utf8).write(to: vault.appendingPathComponent("Other.md"))
        let store = try Store(folder: folder.appending("store"))
        let report = try Importer(store: store).run(path: vault, into: nil, dryRun: false)
        #expect(report.files == 3 && report.problems.isEmpty, "\(report)")
        let index = try #require(try store.fetch(ItemRequest()).first { $0.name == "Index" })
        let attached = try store.attachments(of: index.id)
        #expect(Set(attached.map(\.mediaType)) == ["image/svg+xml", "application/pdf", "text/csv"])
        #expect(Set(attached.compactMap(\.fileName)) == ["diagram.svg", "report.pdf", "data.csv"])
        #expect(try store.item(index.id).body == body)
    }
}
