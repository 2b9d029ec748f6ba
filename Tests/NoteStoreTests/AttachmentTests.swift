import Foundation
import NoteStore
import NoteTestSupport
import Testing

@Suite struct AttachmentTests {
    func blobNames(_ store: Store) -> [String] {
        let folder = store.folder.appendingPathComponent("blobs").path
        return ((try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []).sorted()
    }

    @Test func attachingKeepsFormatDimensionsAndAPrivateBlob() throws {
        let fixture = try StoreFixture()
        let note = try fixture.store.addNote(named: "Photos", body: "", in: nil)
        let attachment = try #require(
            fixture.store.attachImages([SampleFiles.image("plain.png")], to: note.id, caption: " a caption ").first)
        #expect(attachment.format == .png)
        #expect((attachment.width ?? 0) > 0 && (attachment.height ?? 0) > 0)
        #expect(attachment.caption == "a caption")
        let data = try Data(contentsOf: SampleFiles.image("plain.png"))
        #expect(attachment.bytes == Int64(data.count))
        #expect(blobNames(fixture.store) == [attachment.sha256])
        let blob = fixture.store.folder.appendingPathComponent("blobs/\(attachment.sha256)").path
        #expect(try FileManager.default.attributesOfItem(atPath: blob)[.posixPermissions] as? Int == 0o600)
        #expect(try fixture.store.data(of: attachment) == data)
    }

    @Test func outboxRecordsTheAttachmentWithItsBlobHash() throws {
        let fixture = try StoreFixture(recordingChanges: true)
        let note = try fixture.store.addNote(named: "n", body: "", in: nil)
        let attachment = try #require(fixture.store.attachImages([SampleFiles.image("plain.png")], to: note.id).first)
        let entry = try #require(fixture.store.outboxEntries().last)
        #expect(entry.entity == .imageAttachment)
        #expect(entry.object == attachment.id)
        #expect(entry.changes["sha256"] == .text(attachment.sha256))
        #expect(entry.changes["note"] == .text(note.id.uuidString.lowercased()))
        try fixture.store.detach(attachment.id)
        let deletion = try #require(fixture.store.outboxEntries().last)
        #expect(deletion.operation == .delete)
        #expect(deletion.changes["sha256"] == .text(attachment.sha256))
    }

    @Test func equalBytesShareOneBlobUntilTheLastReferenceGoes() throws {
        let fixture = try StoreFixture()
        let first = try fixture.store.addNote(named: "a", body: "", in: nil)
        let second = try fixture.store.addNote(named: "b", body: "", in: nil)
        let one = try fixture.store.attachImages([SampleFiles.image("plain.png")], to: first.id)[0]
        let two = try fixture.store.attachImages([SampleFiles.image("plain.png")], to: second.id)[0]
        #expect(one.sha256 == two.sha256)
        #expect(blobNames(fixture.store).count == 1)
        try fixture.store.detach(one.id)
        #expect(blobNames(fixture.store) == [two.sha256])
        try fixture.store.detach(two.id)
        #expect(blobNames(fixture.store).isEmpty)
    }

    @Test func trashKeepsAttachmentsAndPurgeRemovesThemWithTheirBlobs() throws {
        let fixture = try StoreFixture(recordingChanges: true)
        let tree = try fixture.makeTree()
        let attachment = try fixture.store.attachImages([SampleFiles.image("plain.png")], to: tree.soup)[0]
        let shared = try fixture.store.attachImages([SampleFiles.image("plain.png")], to: tree.launch)[0]
        try fixture.store.trash(tree.home)
        #expect(try fixture.store.attachments(of: tree.soup) == [attachment])
        #expect(blobNames(fixture.store) == [attachment.sha256])
        try fixture.store.emptyTrash()
        #expect(try fixture.store.attachments(of: tree.soup).isEmpty)
        #expect(blobNames(fixture.store) == [shared.sha256], "still used by the launch plan")
        let deletions = try fixture.store.outboxEntries().filter {
            $0.entity == .imageAttachment && $0.operation == .delete
        }
        #expect(deletions.map(\.object) == [attachment.id])
        try fixture.store.trash(tree.work)
        try fixture.store.emptyTrash()
        #expect(blobNames(fixture.store).isEmpty)
    }

    @Test func refusedFileLeavesNothingBehind() throws {
        let fixture = try StoreFixture(recordingChanges: true)
        let note = try fixture.store.addNote(named: "Groceries", body: "", in: nil)
        let text = fixture.folder.appending("photo.png")
        try Data("not an image at all".utf8).write(to: text)
        let error = #expect(throws: StoreError.self) {
            try fixture.store.attachImages([SampleFiles.image("plain.png"), text], to: note.id)
        }
        #expect(try #require(error).description.hasPrefix("cannot attach '\(text.path)' to note 'Groceries': "))
        #expect(try fixture.store.attachments(of: note.id).isEmpty)
        #expect(blobNames(fixture.store).isEmpty)
        #expect(try fixture.store.outboxEntries().count == 1)
    }

    @Test func missingFileAndFolderAreRefused() throws {
        let fixture = try StoreFixture()
        let note = try fixture.store.addNote(named: "n", body: "", in: nil)
        #expect(throws: StoreError.self) {
            try fixture.store.attachImages([fixture.folder.appending("nope.png")], to: note.id)
        }
        #expect(throws: StoreError.self) { try fixture.store.attachImages([fixture.folder.url], to: note.id) }
    }

    @Test func fileOverFiftyMegabytesIsRefusedUnread() throws {
        let fixture = try StoreFixture()
        let note = try fixture.store.addNote(named: "n", body: "", in: nil)
        let big = fixture.folder.appending("big.png")
        var png = try Data(contentsOf: SampleFiles.image("plain.png"))
        png.append(Data(count: Int(NoteStore.Attachment.maximumBytes) + 1 - png.count))
        try png.write(to: big)
        let error = #expect(throws: StoreError.self) { try fixture.store.attachImages([big], to: note.id) }
        #expect(try #require(error).description.contains("more than the limit of 50 MB"))
        #expect(blobNames(fixture.store).isEmpty)
    }

    @Test func imageOverFiveHundredMegapixelsIsRefused() throws {
        let fixture = try StoreFixture()
        let note = try fixture.store.addNote(named: "n", body: "", in: nil)
        let huge = fixture.folder.appending("huge.png")
        try PNGBuilder.image(width: 30_000, height: 20_000).write(to: huge)
        let error = #expect(throws: StoreError.self) { try fixture.store.attachImages([huge], to: note.id) }
        #expect(try #require(error).description.contains("more than the limit of 500 megapixels"))
        let fine = fixture.folder.appending("fine.png")
        try PNGBuilder.image(width: 20_000, height: 20_000).write(to: fine)
        #expect(try fixture.store.attachImages([fine], to: note.id).first?.width == 20_000)
    }

    @Test func captionLongerThanAThousandCharactersIsRefused() throws {
        let fixture = try StoreFixture()
        let note = try fixture.store.addNote(named: "n", body: "", in: nil)
        let image = SampleFiles.image("plain.png")
        _ = try fixture.store.attachImages([image], to: note.id, caption: String(repeating: "c", count: 1000))
        #expect(throws: StoreError.self) {
            try fixture.store.attachImages([image], to: note.id, caption: String(repeating: "c", count: 1001))
        }
    }

    @Test func collectionsAndTrashedNotesTakeNoAttachments() throws {
        let fixture = try StoreFixture()
        let tree = try fixture.makeTree()
        let image = SampleFiles.image("plain.png")
        #expect(throws: StoreError.self) { try fixture.store.attachImages([image], to: tree.work) }
        try fixture.store.trash(tree.soup)
        #expect(throws: StoreError.self) { try fixture.store.attachImages([image], to: tree.soup) }
        #expect(blobNames(fixture.store).isEmpty)
    }

    @Test func attachmentsResolveByIdPrefix() throws {
        let fixture = try StoreFixture()
        let note = try fixture.store.addNote(named: "n", body: "", in: nil)
        let attachment = try fixture.store.attachImages([SampleFiles.image("plain.png")], to: note.id)[0]
        #expect(try fixture.store.resolveAttachment(String(attachment.id.uuidString.prefix(6))) == attachment)
        #expect(throws: StoreError.self) { try fixture.store.resolveAttachment("zz") }
        #expect(throws: StoreError.self) { try fixture.store.resolveAttachment(UUID().uuidString) }
    }
}
