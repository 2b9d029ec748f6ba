import Foundation
import NoteInterchange
import NoteStore
import NoteTestSupport
import Testing

/// Symbolic links where an export writes: the export never writes through one.
@Suite struct ExportLinkTests {
    let fixture = LinkFixture()
    var out: URL { fixture.out }
    var outside: URL { fixture.outside }
    var image: URL { fixture.image }
    var folder: TemporaryFolder { fixture.folder }

    func write(_ text: String, _ url: URL) throws { try fixture.write(text, url) }
    func link(_ url: URL, to destination: String) throws { try fixture.link(url, to: destination) }
    func store() throws -> Store { try fixture.store() }
    func contents(_ url: URL) throws -> [String] { try fixture.contents(url) }

    @Test func markdownExportRefusesALinkToAFileOutside() throws {
        let store = try store()
        try write("mine\n", outside.appendingPathComponent("diary.md"))
        try link(out.appendingPathComponent("Home.md"), to: "../outside/diary.md")
        #expect(throws: InterchangeError.symbolicLink(path: out.appendingPathComponent("Home.md").path)) {
            try MarkdownExporter(store: store).export(to: out, force: true)
        }
        #expect(try String(contentsOf: outside.appendingPathComponent("diary.md"), encoding: .utf8) == "mine\n")
        #expect(
            InterchangeError.symbolicLink(path: "out/Home.md").description
                == "cannot export to 'out/Home.md': it is a symbolic link")
    }

    /// The files are written on a thread of their own, a bounded number waiting at a time: a
    /// failure among many more files than wait at once stops the export with that failure, and
    /// leaves nothing written through the link.
    @Test func aFailureAmongManyFilesStopsTheExport() throws {
        let store = try store()
        let context = store.makeContext()
        for index in 0..<1_200 { _ = context.insertNote(named: "n\(index)", body: "note \(index)\n") }
        try context.save()
        try write("mine\n", outside.appendingPathComponent("diary.md"))
        try link(out.appendingPathComponent("n700.md"), to: "../outside/diary.md")
        #expect(throws: InterchangeError.symbolicLink(path: out.appendingPathComponent("n700.md").path)) {
            try MarkdownExporter(store: store).export(to: out, force: true)
        }
        #expect(try String(contentsOf: outside.appendingPathComponent("diary.md"), encoding: .utf8) == "mine\n")
        // The files are written in order, and none after the failure.
        let written = Set(try contents(out))
        #expect(written.contains("n699.md") && !written.contains("n701.md") && !written.contains("n1199.md"))
    }

    @Test func markdownExportRefusesALinkToAFolderOutside() throws {
        let store = try store()
        try FileManager.default.createDirectory(at: outside, withIntermediateDirectories: true)
        try link(out.appendingPathComponent("Work"), to: "../outside")
        #expect(throws: InterchangeError.symbolicLink(path: out.appendingPathComponent("Work").path)) {
            try MarkdownExporter(store: store).export(to: out, force: true)
        }
        #expect(try contents(outside) == [])
    }

    @Test func markdownExportRefusesADanglingLink() throws {
        let store = try store()
        try link(out.appendingPathComponent("Home.md"), to: "../outside/new.md")
        #expect(throws: InterchangeError.symbolicLink(path: out.appendingPathComponent("Home.md").path)) {
            try MarkdownExporter(store: store).export(to: out, force: true)
        }
        #expect(!FileManager.default.fileExists(atPath: outside.path))
    }

    @Test func jsonExportRefusesLinksToTheFileAndTheImagesFolder() throws {
        let store = try store()
        try write("mine\n", outside.appendingPathComponent("kept.txt"))
        try link(out.appendingPathComponent("notes.jsonl"), to: "../outside/kept.txt")
        #expect(throws: InterchangeError.symbolicLink(path: out.appendingPathComponent("notes.jsonl").path)) {
            try JSONExporter(store: store).export(to: out, force: true)
        }
        #expect(try String(contentsOf: outside.appendingPathComponent("kept.txt"), encoding: .utf8) == "mine\n")
        try FileManager.default.removeItem(at: out.appendingPathComponent("notes.jsonl"))
        try link(out.appendingPathComponent("images"), to: "../outside")
        #expect(throws: InterchangeError.symbolicLink(path: out.appendingPathComponent("images").path)) {
            try JSONExporter(store: store).export(to: out, force: true)
        }
        #expect(try contents(outside) == ["kept.txt"])
    }

    /// A file of the export's with a second name outside (a hard link) is replaced, so the
    /// file outside keeps its bytes.
    @Test func exportReplacesAHardLinkInsteadOfWritingThroughIt() throws {
        let store = try store()
        try write("mine\n", outside.appendingPathComponent("diary.md"))
        try FileManager.default.createDirectory(at: out, withIntermediateDirectories: true)
        try FileManager.default.linkItem(
            at: outside.appendingPathComponent("diary.md"), to: out.appendingPathComponent("Home.md"))
        let report = try MarkdownExporter(store: store).export(to: out, force: true)
        #expect(report.notes == 2)
        #expect(try String(contentsOf: outside.appendingPathComponent("diary.md"), encoding: .utf8) == "mine\n")
        #expect(
            try String(contentsOf: out.appendingPathComponent("Home.md"), encoding: .utf8).hasSuffix(
                "water the plants\n"))
    }
}
