import Foundation
import NoteSync
import NoteTestSupport
import Testing

#if canImport(Glibc)
    import Glibc
#endif

@Suite struct CloudContainerBlobTests {
    let bytes = Data("the bytes of a picture".utf8)
    var sha256: String { CloudContainer.sha256(of: bytes) }

    @Test func publishHasAndRead() throws {
        let fixture = try ContainerFixture()
        let container = fixture.container
        #expect(
            CloudContainer.sha256(of: Data("abc".utf8))
                == "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad")
        #expect(try !container.hasBlob(sha256))
        try container.publishBlob(bytes, sha256: sha256)
        #expect(try container.hasBlob(sha256))
        #expect(try container.readBlob(sha256) == bytes)
        // Publishing again is nothing to do, and leaves the published file alone.
        let before =
            try FileManager.default.attributesOfItem(atPath: fixture.url("blobs/\(sha256)").path)[.modificationDate]
            as? Date
        try container.publishBlob(bytes, sha256: sha256)
        let after =
            try FileManager.default.attributesOfItem(atPath: fixture.url("blobs/\(sha256)").path)[.modificationDate]
            as? Date
        #expect(before == after)
        #expect(try container.blobs().blobs == [sha256])
        #expect(!fixture.allPaths().contains { $0.contains(".tmp-") })
    }

    @Test func publishChecksTheHashBeforeWriting() throws {
        let fixture = try ContainerFixture()
        let other = CloudContainer.sha256(of: Data("other".utf8))
        #expect(throws: SyncError.self) { try fixture.container.publishBlob(bytes, sha256: other) }
        #expect(try !fixture.container.hasBlob(other))
        #expect(throws: SyncError.self) { try fixture.container.publishBlob(bytes, sha256: sha256.uppercased()) }
    }

    @Test func aDamagedBlobFailsToRead() throws {
        let fixture = try ContainerFixture()
        try fixture.write(Data("the bytes of a pictur3".utf8), at: "blobs/\(sha256)")
        #expect(try fixture.container.hasBlob(sha256))
        #expect(throws: SyncError.damagedBlob(path: fixture.url("blobs/\(sha256)").path)) {
            try fixture.container.readBlob(sha256)
        }
        do {
            _ = try fixture.container.readBlob(sha256)
        } catch {
            #expect(error.description.contains("is damaged"))
        }
    }

    @Test func readBlobRefusesOversizedBlobsAndLinks() throws {
        let fixture = try ContainerFixture()
        try fixture.container.publishBlob(bytes, sha256: sha256)
        #expect(throws: SyncError.tooLarge(path: fixture.url("blobs/\(sha256)").path, limit: 10)) {
            try fixture.container.readBlob(sha256, limit: 10)
        }
        let linkedBytes = Data("outside".utf8)
        let linked = CloudContainer.sha256(of: linkedBytes)
        try linkedBytes.write(to: fixture.outside("blob"))
        try fixture.link("blobs/\(linked)", to: fixture.outside("blob"))
        #expect(try !fixture.container.hasBlob(linked))
        #expect(throws: SyncError.self) { try fixture.container.readBlob(linked) }
        #expect(throws: SyncError.self) { try fixture.container.publishBlob(linkedBytes, sha256: linked) }
    }

    @Test func badlyNamedBlobsAreSkippedAndBadNamesRefused() throws {
        let fixture = try ContainerFixture()
        try fixture.container.publishBlob(bytes, sha256: sha256)
        try fixture.write(bytes, at: "blobs/\(sha256.uppercased())")
        try fixture.write(bytes, at: "blobs/picture.png")
        try fixture.write(bytes, at: "blobs/.tmp-abc")
        try fixture.makeFolder("blobs/\(String(repeating: "a", count: 64))")

        let (blobs, skipped) = try fixture.container.blobs()
        #expect(blobs == [sha256])
        let expected: [SkippedFile] = [
            SkippedFile(path: "blobs/\(sha256.uppercased())", reason: .badlyNamed),
            SkippedFile(path: "blobs/\(String(repeating: "a", count: 64))", reason: .notAFile),
            SkippedFile(path: "blobs/picture.png", reason: .badlyNamed),
        ]
        #expect(skipped.sorted { $0.path < $1.path } == expected.sorted { $0.path < $1.path })

        for name in ["picture.png", "../\(sha256.prefix(61))", sha256.uppercased(), ""] {
            #expect(throws: SyncError.self) { try fixture.container.readBlob(name) }
            #expect(throws: SyncError.self) { try fixture.container.hasBlob(name) }
        }
    }

    @Test func hasBlobThrowsWhenItCannotKnow() throws {
        let fixture = try ContainerFixture()
        fixture.faulty.fail([.inspect], at: fixture.cloudPath("blobs/\(sha256)"), with: EIO)
        #expect(throws: SyncError.self) { try fixture.container.hasBlob(sha256) }
    }
}
