import Foundation
import NoteStore
@testable import NoteSync
import NoteTestSupport
import Testing

/// The envelope of an encrypted container's files: every size round-trips, and every change
/// of a byte, a cut, a move to another name or another key is refused.
@Suite struct FileSealingTests {
    static let container = UUID(uuidString: "3f2b8c1e-7a4d-4e9b-9c2a-5d6e7f801234")!
    let key = ContainerKey.random()
    let sealing: FileSealing

    init() {
        sealing = FileSealing(key: key, container: Self.container)
    }

    static let path = "logs/6b1f0c2e-3d4a-4b5c-8d9e-0f1a2b3c4d5e/000000000001.log"

    static func bytes(_ count: Int) -> Data {
        var random = SplitMix64(seed: UInt64(count))
        return Data((0..<count).map { _ in UInt8(truncatingIfNeeded: random.next()) })
    }

    @Test(arguments: [0, 1, 65_535, 65_536, 65_537, 200_000])
    func everySizeRoundTripsInMemoryAndThroughFiles(count: Int) throws {
        let plain = Self.bytes(count)
        let sealed = sealing.seal(plain, path: Self.path)
        #expect(sealed.count == Int(FileSealing.sealedSize(ofPlain: Int64(count))))
        #expect(FileSealing.plainSize(ofSealed: Int64(sealed.count)) == Int64(count))
        #expect(try sealing.open(sealed, path: Self.path) == plain)
        if count >= 16 { #expect(sealed.range(of: plain.prefix(64)) == nil) }

        let folder = TemporaryFolder()
        let source = folder.appending("plain")
        try plain.write(to: source)
        try sealing.seal(file: source, to: folder.appending("sealed"), path: Self.path)
        let fromFile = try Data(contentsOf: folder.appending("sealed"))
        #expect(try sealing.open(fromFile, path: Self.path) == plain)
        #expect(
            try sealing.open(file: folder.appending("sealed"), to: folder.appending("opened"), path: Self.path)
                == Int64(count))
        #expect(try Data(contentsOf: folder.appending("opened")) == plain)
    }

    @Test func aFlippedByteAnywhereIsRefused() throws {
        let sealed = sealing.seal(Self.bytes(140_000), path: Self.path)
        for offset in [0, 9, 39, 40, 1_000, 65_551, 65_552, 100_000, sealed.count - 1] {
            var changed = sealed
            changed[offset] ^= 0x01
            #expect(throws: FileSealing.Failure.self, "offset \(offset)") { try sealing.open(changed, path: Self.path) }
        }
    }

    @Test func aCutFileIsRefusedEvenAtAChunkBoundary() throws {
        let sealed = sealing.seal(Self.bytes(140_000), path: Self.path)
        let boundary = FileSealing.headerBytes + 2 * (FileSealing.chunkBytes + FileSealing.tagBytes)
        #expect(throws: FileSealing.Failure.unauthentic) { try sealing.open(sealed.prefix(boundary), path: Self.path) }
        // Five bytes into a third chunk: no plain text has an envelope of that size.
        #expect(throws: FileSealing.Failure.truncated) {
            try sealing.open(sealed.prefix(boundary + 5), path: Self.path)
        }
        #expect(throws: FileSealing.Failure.notSealed) {
            try sealing.open(Data("NOTE-COLLECTOR-LOG 1\n".utf8), path: Self.path)
        }
    }

    @Test func aFileOpensOnlyUnderItsOwnNameContainerAndKey() throws {
        let sealed = sealing.seal(Data("leeks".utf8), path: Self.path)
        let otherSequence = "logs/6b1f0c2e-3d4a-4b5c-8d9e-0f1a2b3c4d5e/000000000002.log"
        let otherDevice = "logs/c9e8d7f6-a5b4-4c3d-9e2f-1a0b9c8d7e6f/000000000001.log"
        #expect(throws: FileSealing.Failure.unauthentic) { try sealing.open(sealed, path: otherSequence) }
        #expect(throws: FileSealing.Failure.unauthentic) { try sealing.open(sealed, path: otherDevice) }
        let otherContainer = FileSealing(key: key, container: UUID())
        #expect(throws: FileSealing.Failure.unauthentic) { try otherContainer.open(sealed, path: Self.path) }
        let otherKey = FileSealing(key: ContainerKey.random(), container: Self.container)
        #expect(throws: FileSealing.Failure.unauthentic) { try otherKey.open(sealed, path: Self.path) }
    }

    @Test func twoSealsOfTheSameBytesDifferAndBlobNamesAreKeyed() {
        let plain = Data("leeks".utf8)
        #expect(sealing.seal(plain, path: Self.path) != sealing.seal(plain, path: Self.path))
        let sha256 = CloudContainer.sha256(of: plain)
        #expect(sealing.blobName(of: sha256) != sha256)
        #expect(sealing.blobName(of: sha256).count == 64)
        #expect(sealing.blobName(of: sha256) == sealing.blobName(of: sha256))
        #expect(
            FileSealing(key: ContainerKey.random(), container: Self.container).blobName(of: sha256)
                != sealing.blobName(of: sha256))
    }

    @Test func aWrappedKeyOpensWithItsPassphraseOnly() throws {
        let key = ContainerKey.random()
        let settings = EncryptionSettings(
            n: 1024, r: 8, p: 1, keyCheck: key.check(for: Self.container, n: 1024, r: 8, p: 1))
        #expect(key.isKey(of: settings, container: Self.container))
        #expect(
            !key.isKey(
                of: EncryptionSettings(n: 2048, r: 8, p: 1, keyCheck: settings.keyCheck), container: Self.container))
        let file = try KeyFile.wrapping(
            key, container: Self.container, passphrase: "Crème brûlée", settings: settings)
        // The same passphrase typed decomposed opens it too.
        #expect(
            file.unwrap(
                passphrase: "Cre\u{300}me bru\u{302}le\u{301}e".precomposedStringWithCanonicalMapping,
                settings: settings) == key)
        #expect(file.unwrap(passphrase: "Cre\u{300}me bru\u{302}le\u{301}e", settings: settings) == key)
        #expect(file.unwrap(passphrase: "creme brulee", settings: settings) == nil)
        var moved = file
        moved.container = UUID()
        #expect(moved.unwrap(passphrase: "Crème brûlée", settings: settings) == nil)
        #expect(!EncryptionSettings.isAccepted(n: 1 << 30, r: 8, p: 1))
        #expect(!EncryptionSettings.isAccepted(n: 1000, r: 8, p: 1))
    }
}
