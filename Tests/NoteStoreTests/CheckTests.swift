import Foundation
import NoteStore
import NoteTestSupport
import Testing

@Suite struct CheckTests {
    func attached(_ fixture: StoreFixture) throws -> NoteStore.Attachment {
        let note = try fixture.store.addNote(named: "n", body: "", in: nil)
        return try fixture.store.attachImages([SampleFiles.image("plain.png")], to: note.id)[0]
    }

    func blob(_ fixture: StoreFixture, _ attachment: NoteStore.Attachment) -> URL {
        fixture.store.folder.appendingPathComponent("blobs/\(attachment.sha256)")
    }

    @Test func healthyStorePasses() throws {
        let fixture = try StoreFixture()
        _ = try fixture.makeTree()
        _ = try attached(fixture)
        #expect(try fixture.store.check() == [])
    }

    @Test func findsAMissingBlob() throws {
        let fixture = try StoreFixture()
        let attachment = try attached(fixture)
        try FileManager.default.removeItem(at: blob(fixture, attachment))
        let problems = try fixture.store.check()
        #expect(
            problems == [
                "missing blob: blobs/\(attachment.sha256) of attachment \(attachment.id.uuidString.lowercased())"
            ])
        #expect(throws: StoreError.self) { try fixture.store.data(of: attachment) }
    }

    @Test func findsADamagedBlobAndNeverHandsItOut() throws {
        let fixture = try StoreFixture()
        let attachment = try attached(fixture)
        var bytes = try Data(contentsOf: blob(fixture, attachment))
        bytes[bytes.count / 2] ^= 0xFF
        try bytes.write(to: blob(fixture, attachment))
        let problems = try fixture.store.check()
        #expect(problems.count == 1)
        #expect(problems.first?.hasPrefix("damaged blob: blobs/\(attachment.sha256)") == true)
        let error = #expect(throws: StoreError.self) { try fixture.store.data(of: attachment) }
        #expect(try #require(error).description.contains("damaged"))
    }

    @Test func findsAnOrphanBlob() throws {
        let fixture = try StoreFixture()
        _ = try attached(fixture)
        let orphan = String(repeating: "ab", count: 32)
        try Data("x".utf8).write(to: fixture.store.folder.appendingPathComponent("blobs/\(orphan)"))
        #expect(try fixture.store.check() == ["leftover: blobs/\(orphan): an orphan blob, referenced by no attachment"])
        #expect(try fixture.store.inspect().damage == [])
    }

    @Test func removesLeftoversButNeverABlobInUse() throws {
        let fixture = try StoreFixture()
        let attachment = try attached(fixture)
        let blobs = fixture.store.folder.appendingPathComponent("blobs")
        let orphan = String(repeating: "cd", count: 32)
        try Data("x".utf8).write(to: blobs.appendingPathComponent(orphan))
        // A blob being written by this (live) process, and one by a process that stopped.
        let live = ".tmp-p\(getpid())-live"
        try Data().write(to: blobs.appendingPathComponent(live))
        let stopped = ".tmp-p\(try Self.stoppedProcess())-stopped"
        try Data().write(to: blobs.appendingPathComponent(stopped))

        #expect(try fixture.store.inspect().leftovers.count == 3)
        #expect(try fixture.store.removeLeftovers() == 2)
        let left = try FileManager.default.contentsOfDirectory(atPath: blobs.path).sorted()
        #expect(left == [live, attachment.sha256].sorted())
        #expect(try fixture.store.data(of: attachment).count > 0)
    }

    @Test func openingForWritingRemovesTemporaryFilesOfStoppedProcesses() throws {
        let fixture = try StoreFixture()
        _ = try attached(fixture)
        let blobs = fixture.store.folder.appendingPathComponent("blobs")
        let live = ".tmp-p\(getpid())-live"
        let stopped = ".tmp-p\(try Self.stoppedProcess())-stopped"
        let earlier = ".tmp-" + UUID().uuidString.lowercased()
        for name in [live, stopped, earlier] { try Data().write(to: blobs.appendingPathComponent(name)) }
        // A name of an earlier build, without a pid: a leftover once old.
        try FileManager.default.setAttributes(
            [.modificationDate: Date(timeIntervalSinceNow: -7200)],
            ofItemAtPath: blobs.appendingPathComponent(earlier).path)

        _ = try Store(folder: fixture.store.folder, access: .readOnly)
        #expect(try FileManager.default.contentsOfDirectory(atPath: blobs.path).contains(stopped), "not when reading")
        _ = try Store(folder: fixture.store.folder)
        let left = try FileManager.default.contentsOfDirectory(atPath: blobs.path)
        #expect(left.contains(live))
        #expect(!left.contains(stopped))
        #expect(!left.contains(earlier))
    }

    /// The pid of a process that has stopped.
    static func stoppedProcess() throws -> Int32 {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/true")
        try process.run()
        process.waitUntilExit()
        return process.processIdentifier
    }
}

/// Builds PNG files with chosen dimensions, for refusals that need no real pixels.
enum PNGBuilder {
    static func image(width: UInt32, height: UInt32) -> Data {
        var data = Data([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A])
        var header = Data()
        header.append(bigEndian: width)
        header.append(bigEndian: height)
        header.append(contentsOf: [8, 0, 0, 0, 0])
        data.append(chunk("IHDR", header))
        data.append(chunk("IDAT", Data([0x78, 0x9C, 0x03, 0x00, 0x00, 0x00, 0x00, 0x01])))
        data.append(chunk("IEND", Data()))
        return data
    }

    static func chunk(_ type: String, _ payload: Data) -> Data {
        var chunk = Data()
        chunk.append(bigEndian: UInt32(payload.count))
        let body = Data(type.utf8) + payload
        chunk.append(body)
        chunk.append(bigEndian: crc32(body))
        return chunk
    }

    static func crc32(_ data: Data) -> UInt32 {
        var crc: UInt32 = 0xFFFF_FFFF
        for byte in data {
            crc ^= UInt32(byte)
            for _ in 0..<8 { crc = (crc >> 1) ^ (crc & 1 == 1 ? 0xEDB8_8320 : 0) }
        }
        return crc ^ 0xFFFF_FFFF
    }
}

extension Data {
    mutating func append(bigEndian value: UInt32) {
        Swift.withUnsafeBytes(of: value.bigEndian) { append(contentsOf: $0) }
    }
}
