import Foundation
import NoteInterchange
import NoteStore
import NoteTestSupport
import Testing

/// Symbolic links where an import reads: followed only while they lead inside what is
/// imported.
@Suite struct ImportLinkTests {
    let fixture = LinkFixture()
    var out: URL { fixture.out }
    var outside: URL { fixture.outside }
    var vault: URL { fixture.vault }
    var image: URL { fixture.image }
    var folder: TemporaryFolder { fixture.folder }

    func write(_ text: String, _ url: URL) throws { try fixture.write(text, url) }
    func link(_ url: URL, to destination: String) throws { try fixture.link(url, to: destination) }
    func store() throws -> Store { try fixture.store() }
    func contents(_ url: URL) throws -> [String] { try fixture.contents(url) }

    @Test func importRefusesLinksThatLeaveTheFolder() throws {
        try FileManager.default.createDirectory(at: outside, withIntermediateDirectories: true)
        try FileManager.default.copyItem(at: image, to: outside.appendingPathComponent("photo.png"))
        try write("private\n", outside.appendingPathComponent("secret.md"))
        try link(vault.appendingPathComponent("pic.png"), to: "../outside/photo.png")
        try link(vault.appendingPathComponent("assets"), to: "../outside")
        try link(vault.appendingPathComponent("secret.md"), to: "../outside/secret.md")
        try write("![one](pic.png)\n![two](assets/photo.png)\n", vault.appendingPathComponent("note.md"))
        let store = try Store(folder: folder.appending("store"))
        let report = try Importer(store: store).run(path: vault, into: nil, dryRun: false)
        #expect(report.created == 1 && report.images == 0, "\(report)")
        #expect(
            report.problems == [
                "assets: a symbolic link to outside what is imported, skipped",
                "note.md: image pic.png is a symbolic link to outside what is imported, not attached",
                "note.md: image assets/photo.png is a symbolic link to outside what is imported, not attached",
                "secret.md: a symbolic link to outside what is imported, skipped",
            ])
        #expect(try store.fetch(ItemRequest()).map(\.name) == ["note"])
    }

    @Test func importFollowsLinksThatStayInside() throws {
        try FileManager.default.createDirectory(
            at: vault.appendingPathComponent("img"), withIntermediateDirectories: true)
        try FileManager.default.copyItem(at: image, to: vault.appendingPathComponent("img/real.png"))
        try link(vault.appendingPathComponent("pic.png"), to: "img/real.png")
        try write("![one](pic.png)\n", vault.appendingPathComponent("notes/real.md"))
        try link(vault.appendingPathComponent("alias.md"), to: "notes/real.md")
        try link(vault.appendingPathComponent("notes/loop"), to: "..")
        let store = try Store(folder: folder.appending("store"))
        let report = try Importer(store: store).run(path: vault, into: nil, dryRun: false)
        // `pic.png` is not beside `notes/real.md`: it is found at the top, as Obsidian finds it.
        #expect(report.problems == ["notes/loop: a symbolic link to a folder that holds it, skipped"])
        #expect(report.images == 2, "\(report)")
        let alias = try store.resolve("alias")
        #expect(try store.attachments(of: alias.id).count == 1)
        #expect(try store.attachments(of: try store.resolve("notes/real").id).count == 1)
        #expect(try store.resolve("notes/real").body == "![one](pic.png)\n")
    }

    @Test func jsonImportRefusesAnImageLinkedOutOfTheExport() throws {
        let store = try store()
        _ = try JSONExporter(store: store).export(to: out)
        let images = out.appendingPathComponent("images")
        let name = try contents(images)[0]
        try FileManager.default.createDirectory(at: outside, withIntermediateDirectories: true)
        try FileManager.default.moveItem(
            at: images.appendingPathComponent(name), to: outside.appendingPathComponent("photo.png"))
        try link(images.appendingPathComponent(name), to: "../../outside/photo.png")
        let target = try Store(folder: folder.appending("target"))
        let report = try Importer(store: target).run(path: out, into: nil, dryRun: false)
        #expect(report.images == 0, "\(report)")
        #expect(report.problems.count == 1)
        #expect(
            report.problems.first?.hasSuffix(
                ": image images/\(name) is a symbolic link to outside the export, not attached") == true,
            "\(report.problems)")
    }
}
