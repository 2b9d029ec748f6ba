import Foundation
import NoteStore
import NoteTestSupport
import Testing

/// Files of any kind as attachments: SVG checked as XML, every other file kept opaque with a
/// sniffed media type, streamed into the store, deduplicated, refused over the limit; images
/// keep their checks.
@Suite struct FileAttachmentTests {
    static let pdf = Data("%PDF-1.7\n1 0 obj << /Type /Catalog >> endobj\ntrailer << >>\n%%EOF\n".utf8)
    static let svg = Data(
        (#"<?xml version="1.0"?><svg xmlns="http://www.w3.org/2000/svg" width="120" height="80.4px">"#
            + #"<rect width="10" height="10"/></svg>"#).utf8)

    let fixture: StoreFixture
    let note: Item

    init() throws {
        fixture = try StoreFixture()
        note = try fixture.store.addNote(named: "Files", body: "", in: nil)
    }

    func file(_ name: String, _ data: Data) throws -> URL {
        let url = fixture.folder.appending(name)
        try data.write(to: url)
        return url
    }

    /// Every file in `blobs/`, temporary ones included.
    func blobFolder() -> [String] {
        ((try? FileManager.default.contentsOfDirectory(
            atPath: fixture.store.folder.appendingPathComponent("blobs").path)) ?? []).sorted()
    }

    @Test func anSVGIsCheckedAndKeepsTheSizeItStates() throws {
        let attached = try #require(try fixture.store.attach([file("chart.svg", Self.svg)], to: note.id).first)
        #expect(attached.kind == .file && attached.entity == .fileAttachment)
        #expect(attached.mediaType == "image/svg+xml" && attached.format == nil)
        #expect(attached.width == 120 && attached.height == 80)
        #expect(attached.fileName == "chart.svg")
        let plain = Data(#"<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 10 10" width="50%"><g/></svg>"#.utf8)
        // Found by its root, whatever its name; no size when it states none in pixels.
        let unnamed = try #require(try fixture.store.attach([file("drawing.xml", plain)], to: note.id).first)
        #expect(unnamed.mediaType == "image/svg+xml" && unnamed.width == nil && unnamed.height == nil)
        #expect(try fixture.store.attachments(of: note.id).map(\.id) == [attached.id, unnamed.id])
    }

    @Test(arguments: [
        ("broken.svg", #"<svg xmlns="http://www.w3.org/2000/svg"><g></svg>"#, "not well-formed"),
        ("html.svg", "<html><body/></html>", "not <svg>"),
        ("bomb.svg", #"<?xml version="1.0"?><!DOCTYPE svg [<!ENTITY a "aaaa">]><svg>&a;</svg>"#, "declares entities"),
        ("text.svg", "just words", "not well-formed"),
    ])
    func aBrokenSVGIsRefusedAndLeavesNothing(name: String, text: String, reason: String) throws {
        let error = #expect(throws: StoreError.self) {
            try fixture.store.attach([try file(name, Data(text.utf8))], to: note.id)
        }
        #expect(error?.description.contains(reason) == true, "\(String(describing: error))")
        #expect(error?.description.contains(name) == true)
        #expect(try fixture.store.attachments(of: note.id).isEmpty)
        #expect(blobFolder().isEmpty)
    }

    static let samples: [(String, Data, String)] = [
        ("report.pdf", FileAttachmentTests.pdf, "application/pdf"),
        ("notes.txt", Data("milk, eggs\nbread\n".utf8), "text/plain"),
        ("readme.md", Data("# Title\n\nSome *text* in Markdown, café.\n".utf8), "text/markdown"),
        ("photo.png", Data("not a picture at all".utf8), "text/plain"),
        ("song.mp3", Data("ID3".utf8) + Data(repeating: 0, count: 64), "audio/mpeg"),
        ("clip.mp4", Data([0, 0, 0, 0x18]) + Data("ftypisom".utf8) + Data(repeating: 0, count: 16), "video/mp4"),
        (
            "doc.docx", Data([0x50, 0x4B, 0x03, 0x04]) + Data(repeating: 0, count: 60),
            "application/vnd.openxmlformats-officedocument.wordprocessingml.document"
        ),
        ("archive.zip", Data([0x50, 0x4B, 0x03, 0x04]) + Data(repeating: 0, count: 60), "application/zip"),
        ("blob.bin", Data([0x00, 0xFF, 0x13, 0x37, 0x00, 0x01, 0x80, 0x90]), "application/octet-stream"),
        ("data", Data([0xC3, 0x28, 0x41, 0x42]), "application/octet-stream"),
    ]

    @Test(arguments: FileAttachmentTests.samples)
    func anyOtherFileIsKeptWithASniffedMediaType(name: String, data: Data, mediaType: String) throws {
        let attached = try #require(try fixture.store.attach([file(name, data)], to: note.id, caption: "c").first)
        #expect(attached.kind == .file)
        #expect(attached.mediaType == mediaType)
        #expect(attached.width == nil && attached.height == nil)
        #expect(attached.bytes == Int64(data.count) && attached.caption == "c" && attached.fileName == name)
        #expect(try fixture.store.data(of: attached) == data)
        #expect(blobFolder() == [attached.sha256])
        #expect(try fixture.store.attachment(attached.id) == attached)
    }

    @Test func imagesKeepTheirChecksWhenAttachedAsAnyFile() throws {
        let png = try #require(try fixture.store.attach([SampleFiles.image("plain.png")], to: note.id).first)
        #expect(png.kind == .image && png.format == .png && png.mediaType == "image/png" && png.fileName == nil)
        let cut = try file("cut.png", Data(try Data(contentsOf: SampleFiles.image("plain.png")).prefix(30)))
        let error = #expect(throws: StoreError.self) { try fixture.store.attach([cut], to: note.id) }
        #expect(error?.description.contains("truncated PNG image") == true)
    }

    @Test func equalBytesShareOneBlob() throws {
        let other = try fixture.store.addNote(named: "Other", body: "", in: nil)
        let one = try #require(try fixture.store.attach([file("a.pdf", Self.pdf)], to: note.id).first)
        let two = try #require(try fixture.store.attach([file("b.pdf", Self.pdf)], to: other.id).first)
        #expect(one.sha256 == two.sha256 && one.fileName == "a.pdf" && two.fileName == "b.pdf")
        #expect(blobFolder() == [one.sha256])
        try fixture.store.detach(one.id)
        #expect(blobFolder() == [one.sha256])
        try fixture.store.detach(two.id)
        #expect(blobFolder().isEmpty)
    }

    @Test func aFileOverTheLimitIsRefusedAndAllOrNoneHolds() throws {
        let big = try file("big.bin", Data(repeating: 7, count: 3000))
        let error = #expect(throws: StoreError.self) {
            try fixture.store.attach([try file("a.pdf", Self.pdf), big], to: note.id, limit: 2048)
        }
        #expect(
            error?.description
                == "cannot attach '\(big.relativePath)' to note 'Files': "
                + "it has 3000 bytes, more than the limit of 2 KiB"
        )
        #expect(try fixture.store.attachments(of: note.id).isEmpty)
        #expect(blobFolder().isEmpty)
        #expect(try fixture.store.attach([big], to: note.id, limit: 3000).count == 1)
    }

    @Test func aLargeFileIsStreamedAndCopiedOutWhole() throws {
        // 5 MiB and a bit: several chunks, the last one short.
        var data = Data(count: 5 << 20 + 12345)
        for index in stride(from: 0, to: data.count, by: 4096) { data[index] = UInt8(truncatingIfNeeded: index / 4096) }
        let attached = try #require(try fixture.store.attach([file("big.raw", data)], to: note.id).first)
        #expect(attached.bytes == Int64(data.count) && attached.mediaType == "application/octet-stream")
        let out = fixture.folder.appending("out.raw")
        try fixture.store.copyBytes(of: attached, to: out)
        #expect(try Data(contentsOf: out) == data)
        #expect(try fixture.store.inspect().damage.isEmpty)
        #expect(blobFolder() == [attached.sha256])
    }

    @Test func damagedBytesAreNeverCopiedOut() throws {
        let attached = try #require(try fixture.store.attach([file("a.pdf", Self.pdf)], to: note.id).first)
        let blob = fixture.store.folder.appendingPathComponent("blobs/\(attached.sha256)")
        try Data("%PDF-1.7 changed".utf8).write(to: blob)
        let out = fixture.folder.appending("out.pdf")
        #expect(throws: StoreError.self) { try fixture.store.copyBytes(of: attached, to: out) }
        #expect(!FileManager.default.fileExists(atPath: out.path))
        #expect(try fixture.store.inspect().damage.count == 1)
    }

    @Test func purgingTheNoteRemovesItsFilesAndTheirBlobs() throws {
        let attached = try #require(try fixture.store.attach([file("a.pdf", Self.pdf)], to: note.id).first)
        try fixture.store.trash(note.id)
        try fixture.store.emptyTrash()
        #expect(try fixture.store.attachment(attached.id) == nil)
        #expect(blobFolder().isEmpty)
    }

    @Test func aContextStagesFilesAndRollsBackTheirTemporaryCopies() throws {
        let context = fixture.store.makeContext()
        let staged = try #require(try context.attachFile(file("a.pdf", Self.pdf), to: note, fileName: "kept.pdf"))
        #expect(staged.fileName == "kept.pdf" && context.stagedAttachmentBytes == 0)
        #expect(blobFolder().count == 1 && blobFolder()[0].hasPrefix(".tmp-"))
        context.rollback()
        #expect(blobFolder().isEmpty)
        _ = try context.attachFile(file("a.pdf", Self.pdf), to: note)
        try context.save()
        #expect(blobFolder() == [staged.sha256])
    }

    @Test func mediaTypesAreSniffedFromTheFirstBytes() {
        func type(_ bytes: [UInt8], _ ext: String = "") -> String {
            MediaTypeSniffer.mediaType(of: bytes, fileExtension: ext, isWhole: true)
        }
        #expect(type(Array("%PDF-1.4".utf8), "txt") == "application/pdf")
        #expect(type(Array("OggS".utf8), "ogv") == "video/ogg")
        #expect(type(Array("fLaC".utf8)) == "audio/flac")
        #expect(type([0x1F, 0x8B, 8]) == "application/gzip")
        #expect(type(Array("RIFF\0\0\0\0WAVEfmt ".utf8)) == "audio/wav")
        #expect(type(Array("<!DOCTYPE html><p>".utf8)) == "text/html")
        #expect(type(Array("a,b\n1,2\n".utf8), "csv") == "text/csv")
        // A character cut at the end of a sample is still text; a NUL is not.
        #expect(
            MediaTypeSniffer.mediaType(of: Array("café".utf8).dropLast(), fileExtension: "", isWhole: false)
                == "text/plain")
        #expect(type([0x61, 0x00, 0x62]) == "application/octet-stream")
        #expect(
            MediaTypeSniffer.isValid("image/svg+xml") && !MediaTypeSniffer.isValid("Image/PNG")
                && !MediaTypeSniffer.isValid("text"))
    }
}

extension FileAttachmentTests {
    /// `has:attachment` finds a note with any file; `has:image` one with an SVG too, not one
    /// with a PDF alone.
    @Test func searchFiltersSeeFiles() throws {
        let drawn = try fixture.store.addNote(named: "Drawn", body: "quetzal", in: nil)
        _ = try fixture.store.attach([file("a.svg", Self.svg)], to: drawn.id)
        _ = try fixture.store.attach([file("a.pdf", Self.pdf)], to: note.id)
        try fixture.store.edit(note.id, body: "quetzal")
        #expect(try fixture.store.search("quetzal has:attachment").map(\.item.name).sorted() == ["Drawn", "Files"])
        #expect(try fixture.store.search("quetzal has:image").map(\.item.name) == ["Drawn"])
    }
}
