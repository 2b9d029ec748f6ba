import Foundation
@testable import NoteSync
import NoteTestSupport
import Testing

#if canImport(Glibc)
    import Glibc
#endif

@Suite struct LocalCloudFileSystemTests {
    @Test func listReportsKindsAndSizesWithoutFollowingLinks() throws {
        let folder = TemporaryFolder()
        let cloud = LocalCloudFileSystem(root: folder.url)
        try cloud.makeFolder("box")
        try cloud.write(Data("12345".utf8), to: "box/file")
        try cloud.makeFolder("box/inner")
        try FileManager.default.createSymbolicLink(
            atPath: folder.appending("box/link").path, withDestinationPath: "inner")
        #expect(mkfifo(folder.appending("box/fifo").path, 0o600) == 0)

        let entries = try cloud.list("box").sorted { $0.name < $1.name }
        #expect(entries.map(\.name) == ["fifo", "file", "inner", "link"])
        #expect(entries.map(\.kind) == [.other, .file, .folder, .symbolicLink])
        #expect(entries[1].size == 5)
        #expect(try cloud.entry(at: "box/link").kind == .symbolicLink)
        #expect(try cloud.list("").map(\.name) == ["box"])
    }

    @Test func missingIsToldApartFromOtherFailures() throws {
        let folder = TemporaryFolder()
        let cloud = LocalCloudFileSystem(root: folder.url)
        try cloud.write(Data("x".utf8), to: "file")
        #expect(throws: SyncError.missing(path: folder.appending("nothing").path)) { try cloud.list("nothing") }
        #expect(throws: SyncError.missing(path: folder.appending("nothing").path)) {
            try cloud.read("nothing", limit: 10)
        }
        #expect(throws: SyncError.missing(path: folder.appending("nothing").path)) { try cloud.remove("nothing") }
        #expect(throws: SyncError.io(path: folder.appending("file").path, reason: "not a directory")) {
            try cloud.list("file")
        }
        #expect(throws: SyncError.io(path: folder.appending("file").path, reason: "not a directory")) {
            try cloud.read("file/inside", limit: 10)
        }
    }

    @Test func linksBelowTheRootAreNeverFollowed() throws {
        let folder = TemporaryFolder()
        let cloud = LocalCloudFileSystem(root: folder.appending("cloud"))
        try FileManager.default.createDirectory(at: folder.appending("cloud"), withIntermediateDirectories: true)
        try FileManager.default.createDirectory(at: folder.appending("private"), withIntermediateDirectories: true)
        try Data("secret".utf8).write(to: folder.appending("private/file"))
        try FileManager.default.createSymbolicLink(
            atPath: folder.appending("cloud/folder").path, withDestinationPath: "../private")
        try FileManager.default.createSymbolicLink(
            atPath: folder.appending("cloud/file").path, withDestinationPath: "../private/file")

        let message = "it is a symbolic link, which is never followed"
        #expect(throws: SyncError.io(path: folder.appending("cloud/file").path, reason: message)) {
            try cloud.read("file", limit: 100)
        }
        #expect(throws: SyncError.io(path: folder.appending("cloud/folder").path, reason: message)) {
            try cloud.list("folder")
        }
        #expect(throws: SyncError.io(path: folder.appending("cloud/folder").path, reason: message)) {
            try cloud.read("folder/file", limit: 100)
        }
        #expect(throws: SyncError.self) { try cloud.write(Data("x".utf8), to: "folder/new") }
        #expect(throws: SyncError.self) { try cloud.makeFolder("folder") }
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.appending("private").path) == ["file"])
    }

    @Test func theRootItselfMayBeALink() throws {
        let folder = TemporaryFolder()
        try FileManager.default.createDirectory(at: folder.appending("real"), withIntermediateDirectories: true)
        try FileManager.default.createSymbolicLink(atPath: folder.appending("cloud").path, withDestinationPath: "real")
        let container = try CloudContainer.create(in: folder.appending("cloud"))
        #expect(container.descriptor().value?.container == container.identity)
        #expect(FileManager.default.fileExists(atPath: folder.appending("real/NoteCollector/container.json").path))
    }

    @Test func pathsMustStayBelowTheRoot() throws {
        let folder = TemporaryFolder()
        let cloud = LocalCloudFileSystem(root: folder.appending("cloud"))
        try FileManager.default.createDirectory(at: folder.appending("cloud"), withIntermediateDirectories: true)
        for path in ["../escape", "a/../../escape", "/etc/passwd", "a//b", "./a", "a/", ""] {
            #expect(throws: SyncError.self) { try cloud.write(Data("x".utf8), to: path) }
        }
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path) == ["cloud"])
    }

    @Test func readNeverBlocksOnAFIFOAndBoundsTheSize() throws {
        let folder = TemporaryFolder()
        let cloud = LocalCloudFileSystem(root: folder.url)
        #expect(mkfifo(folder.appending("fifo").path, 0o600) == 0)
        #expect(throws: SyncError.io(path: folder.appending("fifo").path, reason: "it is not a regular file")) {
            try cloud.read("fifo", limit: 10)
        }
        try cloud.makeFolder("folder")
        #expect(throws: SyncError.self) { try cloud.read("folder", limit: 10) }

        let big = Data((0..<300_000).map { UInt8(truncatingIfNeeded: $0) })
        try cloud.write(big, to: "big")
        #expect(try cloud.read("big", limit: big.count) == big)
        #expect(throws: SyncError.tooLarge(path: folder.appending("big").path, limit: big.count - 1)) {
            try cloud.read("big", limit: big.count - 1)
        }
        try cloud.write(Data(), to: "empty")
        #expect(try cloud.read("empty", limit: 0) == Data())
    }

    @Test func writeReplacesAtomicallyAndCreateIsExclusive() throws {
        let folder = TemporaryFolder()
        let cloud = LocalCloudFileSystem(root: folder.url)
        try cloud.write(Data("one".utf8), to: "file")
        try cloud.write(Data("two".utf8), to: "file")
        #expect(try cloud.read("file", limit: 10) == Data("two".utf8))

        #expect(try cloud.create(Data("first".utf8), at: "made"))
        #expect(try !cloud.create(Data("second".utf8), at: "made"))
        #expect(try cloud.read("made", limit: 10) == Data("first".utf8))
        #expect(try cloud.makeFolder("box"))
        #expect(try !cloud.makeFolder("box"))
        #expect(throws: SyncError.self) { try cloud.makeFolder("file") }
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path).sorted() == ["box", "file", "made"])
    }

    @Test(arguments: [true, false])
    func anExclusiveCreationShowsOnlyItsFinalName(unnamed: Bool) throws {
        let folder = TemporaryFolder()
        var cloud = LocalCloudFileSystem(root: folder.url, writer: UUID())
        cloud.writesUnnamedFiles = unnamed
        try cloud.makeFolder("box")
        let created = try FileEvents(path: folder.appending("box").path, mask: IN_CREATE)
        #expect(try cloud.create(Data("first".utf8), at: "box/made"))
        #expect(try !cloud.create(Data("second".utf8), at: "box/made"))
        let blob = folder.appending("blob")
        try Data("blob bytes".utf8).write(to: blob)
        #expect(try cloud.createCopy(of: blob, at: "box/copy"))
        #expect(try !cloud.createCopy(of: blob, at: "box/copy"))
        #expect(try cloud.read("box/made", limit: 10) == Data("first".utf8))
        #expect(try cloud.read("box/copy", limit: 100) == Data("blob bytes".utf8))
        #expect(
            try FileManager.default.contentsOfDirectory(atPath: folder.appending("box").path).sorted() == [
                "copy", "made",
            ])
        // A file without a name is never seen under another name in the folder; a named
        // temporary file, where the file system makes no unnamed ones, is.
        let names = try created.names()
        if unnamed && Self.makesUnnamedFiles(in: folder.url) {
            #expect(names == ["made", "copy"])
        } else {
            #expect(names.filter { !$0.hasPrefix(".tmp-") } == ["made", "copy"])
            #expect(names.filter { $0.hasPrefix(".tmp-") }.count == 4)
        }
        #expect(mode(of: folder.appending("box/made")) == 0o600)
        #expect(mode(of: folder.appending("box/copy")) == 0o600)
    }

    /// Whether the file system of `folder` makes files without a name (`O_TMPFILE`, whose
    /// value Glibc's module leaves out: `__O_TMPFILE | O_DIRECTORY`), and `/proc` can link them.
    private static func makesUnnamedFiles(in folder: URL) -> Bool {
        let descriptor = open(folder.path, O_WRONLY | O_DIRECTORY | 0o2000_0000, 0o600)
        guard descriptor >= 0 else { return false }
        close(descriptor)
        return access("/proc/self/fd", X_OK) == 0
    }

    private func mode(of url: URL) -> Int {
        ((try? FileManager.default.attributesOfItem(atPath: url.path))?[.posixPermissions] as? Int) ?? -1
    }

    @Test func aFailedWriteLeavesNoTemporaryFile() throws {
        let folder = TemporaryFolder()
        let cloud = LocalCloudFileSystem(root: folder.url)
        try cloud.makeFolder("box")
        try cloud.makeFolder("box/taken")
        try cloud.write(Data("x".utf8), to: "box/taken/inside")
        // Renaming a file onto a folder fails after the temporary file was written.
        #expect(throws: SyncError.self) { try cloud.write(Data("y".utf8), to: "box/taken") }
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.appending("box").path) == ["taken"])
    }

    @Test func cloudFilesAndFoldersArePrivateWhateverTheUmask() throws {
        let fixture = try ContainerFixture()
        let container = fixture.container
        let device = UUID()
        let blob = Data("blob".utf8)
        let previous = umask(0o022)
        defer { umask(previous) }
        try FileManager.default.removeItem(at: container.url)
        let created = try CloudContainer.create(on: fixture.faulty)
        try created.register(
            DeviceRegistration(container: created.identity, device: device, name: "a", modelVersion: 2))
        try created.writeLog(device: device, sequence: 1, data: Data("log".utf8))
        try created.publishBlob(blob, sha256: CloudContainer.sha256(of: blob))
        umask(previous)

        for folder in ["", "devices", "logs", "blobs", "logs/\(device.lowercased)"] {
            #expect(fixture.mode(folder) == 0o700, "\(folder)")
        }
        for file in [
            "container.json", "devices/\(device.lowercased).json", "logs/\(device.lowercased)/000000000001.log",
            "blobs/\(CloudContainer.sha256(of: blob))",
        ] {
            #expect(fixture.mode(file) == 0o600, "\(file)")
        }
        #expect(fixture.allPaths().filter { $0.contains(".tmp-") } == [])
    }
}
