import Foundation
import NoteStore
@testable import NoteSync
import NoteTestSupport
import Testing

/// Attachments of any kind between devices: they sync, plain and encrypted, a large one a
/// chunk at a time; the logs that carry them are of model 10, which builds of models 8 and 9
/// wait on; a baseline without them (nor properties) stays of model 8.
@Suite struct FileAttachmentSyncTests {
    static let svg = Data(#"<svg xmlns="http://www.w3.org/2000/svg" width="64" height="32"><circle r="4"/></svg>"#.utf8)

    static func pdf(_ size: Int = 0) -> Data {
        var data = Data("%PDF-1.7\n".utf8)
        data.append(Data((0..<size).map { UInt8(truncatingIfNeeded: $0 &* 31 &+ $0 >> 9) }))
        return data
    }

    static func files(_ stack: SyncStack, _ named: [(String, Data)]) throws -> [URL] {
        try named.map { name, data in
            let url = stack.folder.appending(name)
            try data.write(to: url)
            return url
        }
    }

    /// The model versions of the logs of `store`'s device, in order.
    static func logVersions(_ stack: SyncStack, of store: Store) throws -> [Int] {
        let folder = stack.cloud.appendingPathComponent("NoteCollector/logs/\(store.deviceID.storeString)")
        return try FileManager.default.contentsOfDirectory(atPath: folder.path).sorted().map { name in
            try LogCodec.decode(Data(contentsOf: folder.appendingPathComponent(name))).header.modelVersion
        }
    }

    @Test(arguments: [nil, "correct horse battery staple"])
    func filesSyncToAnotherDeviceAndGoWhenDetached(passphrase: String?) throws {
        let stack = try SyncStack(devices: 2, passphrase: passphrase)
        let (a, b) = (stack.stores[0], stack.stores[1])
        let note = try a.addNote(named: "Report", body: "", in: nil)
        // Larger than a chunk of the envelope and of a stream, with a short last chunk.
        let large = Self.pdf(3 << 20 + 777)
        let urls = try Self.files(stack, [("report.pdf", large), ("chart.svg", Self.svg)])
        let attached = try a.attach(urls, to: note.id, caption: "Q3")
        try stack.syncUntilQuiet()
        let received = try b.attachments(of: note.id)
        #expect(received == attached)
        #expect(received.map(\.mediaType) == ["application/pdf", "image/svg+xml"])
        #expect(received.map(\.fileName) == ["report.pdf", "chart.svg"])
        #expect(received[1].width == 64 && received[1].height == 32)
        #expect(try b.data(of: received[0]) == large)
        #expect(try b.data(of: received[1]) == Self.svg)
        #expect(try Set(stack.dumps()).count == 1)
        if passphrase != nil {
            // Sealed: neither the bytes nor the name of the blob are in the container.
            let blobs = stack.cloud.appendingPathComponent("NoteCollector/blobs")
            let names = try FileManager.default.contentsOfDirectory(atPath: blobs.path)
            #expect(names.count == 2 && !names.contains(attached[0].sha256))
            for name in names {
                let sealed = try Data(contentsOf: blobs.appendingPathComponent(name))
                #expect(sealed.prefix(8) == Data("NCSEAL01".utf8))
                // Stretches of 64 bytes of each file: one of four ("%PDF") turns up by chance
                // in 3 MB of sealed bytes about once in 1,400 runs.
                #expect(sealed.range(of: Self.svg.prefix(64)) == nil)
                #expect(sealed.range(of: large.prefix(64)) == nil && sealed.range(of: large.suffix(64)) == nil)
            }
        }
        try b.detach(received[0].id)
        try stack.syncUntilQuiet()
        #expect(try a.attachments(of: note.id).map(\.id) == [attached[1].id])
        #expect(try Set(stack.dumps()).count == 1)
    }

    /// A log that carries a file attachment (its insert or its removal) is of model 10: builds
    /// of models 8 and 9 wait on it ("written by model version 10; this build understands up
    /// to 9") instead of dropping or misreading it. A log with images only keeps model 4.
    @Test func logsWithAFileAttachmentAreOfModelTen() throws {
        let stack = try SyncStack(devices: 2)
        let store = stack.stores[0]
        let note = try store.addNote(named: "Mixed", body: "", in: nil)
        _ = try store.attachImages([SampleFiles.image("plain.png")], to: note.id)
        try stack.engines[0].syncNow()
        let file = try store.attach(try Self.files(stack, [("a.pdf", Self.pdf())]), to: note.id)[0]
        try stack.engines[0].syncNow()
        try store.detach(file.id)
        try stack.engines[0].syncNow()
        #expect(try Self.logVersions(stack, of: store) == [Store.modelVersionWithoutTags, 10, 10])
        #expect(LogCodec.readableModelVersion == 10)
        try stack.syncUntilQuiet()
        #expect(try stack.stores[1].attachments(of: note.id).map(\.kind) == [.image])
    }

    /// A baseline of a store with images only is of model 8, which builds of models 8 and 9
    /// read; with a file attachment it is of model 10, and a device that joins from it gets
    /// the file and its bytes.
    @Test func baselinesAreOfModelEightWithoutFilesAndTenWithThem() throws {
        let stack = try SyncStack(devices: 1)
        let store = stack.stores[0]
        let note = try store.addNote(named: "Photos", body: "", in: nil)
        _ = try store.attachImages([SampleFiles.image("plain.png")], to: note.id)
        try stack.syncUntilQuiet()
        #expect(try stack.engines[0].compact().baseline.modelVersion == 8)
        let file = try store.attach(try Self.files(stack, [("chart.svg", Self.svg)]), to: note.id)[0]
        try stack.syncUntilQuiet()
        #expect(try stack.engines[0].compact().baseline.modelVersion == 10)
        try stack.join()
        let joined = stack.stores[1]
        #expect(try joined.attachment(file.id) == file)
        #expect(try joined.data(of: file) == Self.svg)
        #expect(try Set(stack.dumps()).count == 1)
    }
}
