import Foundation
import NoteSync
import NoteTestSupport
import Synchronization
import Testing

#if canImport(Glibc)
    import Glibc
#endif

@Suite struct CloudContainerTests {
    // MARK: Creation and identity

    @Test func createMakesTheLayoutAndReattachingKeepsTheIdentity() throws {
        let folder = TemporaryFolder()
        let created = try CloudContainer.create(in: folder.url, now: Date(timeIntervalSince1970: 1_700_000_000.5))
        let names = try FileManager.default.contentsOfDirectory(atPath: created.url.path).sorted()
        #expect(names == ["blobs", "container.json", "devices", "logs"])
        #expect(created.url.lastPathComponent == "NoteCollector")

        let again = try CloudContainer.create(in: folder.url)
        #expect(again.identity == created.identity)
        let descriptor = try #require(again.descriptor().value)
        #expect(descriptor.container == created.identity)
        #expect(descriptor.created == Date(timeIntervalSince1970: 1_700_000_000.5))
        #expect(descriptor.formatVersion == 1)
    }

    @Test func recreatingAfterTheContainerWasWipedMakesANewIdentity() throws {
        let folder = TemporaryFolder()
        let first = try CloudContainer.create(in: folder.url, name: "Shared")
        try FileManager.default.removeItem(at: first.url)
        #expect(first.descriptor() == .absent)
        let second = try CloudContainer.create(in: folder.url, name: "Shared")
        #expect(second.identity != first.identity)
    }

    @Test func concurrentCreationAgreesOnOneIdentity() throws {
        for _ in 0..<10 {
            let folder = TemporaryFolder()
            let identities = Locked<[UUID]>([])
            let ready = Locked(0)
            let start = DispatchSemaphore(value: 0)
            let group = DispatchGroup()
            for _ in 0..<4 {
                group.enter()
                Thread.detachNewThread {
                    ready.update { $0 += 1 }
                    start.wait()
                    if let container = try? CloudContainer.create(in: folder.url) {
                        identities.update { $0.append(container.identity) }
                    }
                    group.leave()
                }
            }
            #expect(eventually { ready.value == 4 })
            for _ in 0..<4 { start.signal() }
            #expect(group.wait(timeout: .now() + 30) == .success)
            #expect(identities.value.count == 4)
            let written = try #require(try CloudContainer.create(in: folder.url).descriptor().value)
            #expect(Set(identities.value) == [written.container])
            let leftovers = try FileManager.default.contentsOfDirectory(atPath: folder.appending("NoteCollector").path)
            #expect(!leftovers.contains { $0.hasPrefix(".tmp-") })
        }
    }

    @Test func creatorThatLosesTheRaceTakesTheWinnersIdentity() throws {
        let folder = TemporaryFolder()
        let rival = ContainerDescriptor()
        let racing = RivalCloudFileSystem(root: folder.url, rivalDescriptor: rival)
        let container = try CloudContainer.create(on: racing)
        #expect(container.identity == rival.container)
        #expect(container.descriptor() == .present(rival))
    }

    @Test func createRefusesBadNamesAndAMissingCloudFolder() throws {
        let folder = TemporaryFolder()
        for name in ["", "a/b", ".hidden", "..", String(repeating: "x", count: 256)] {
            #expect(throws: SyncError.self) { try CloudContainer.create(in: folder.url, name: name) }
        }
        let missing = folder.appending("unmounted")
        #expect(throws: SyncError.missing(path: missing.path)) { try CloudContainer.create(in: missing) }
        #expect(!FileManager.default.fileExists(atPath: missing.path))
    }

    @Test func createLeavesAForeignContainerFileAloneAndRefusesANewerFormat() throws {
        let folder = TemporaryFolder()
        let url = folder.appending("NoteCollector/container.json")
        try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
        try Data("my shopping list".utf8).write(to: url)
        #expect(throws: SyncError.self) { try CloudContainer.create(in: folder.url) }
        #expect(try String(contentsOf: url, encoding: .utf8) == "my shopping list")

        let newer =
            #"{"format":"note-collector-container","formatVersion":3,"#
            + #""container":"\#(UUID().lowercased)","created":"2030-01-01T00:00:00.000Z"}"#
        try Data(newer.utf8).write(to: url)
        #expect(throws: SyncError.newerFormat(path: url.path, version: 3)) { try CloudContainer.create(in: folder.url) }
    }

    // MARK: The sentinel

    @Test func descriptorIsAbsentOnlyWhenAListingShowsItIsGone() throws {
        let fixture = try ContainerFixture()
        #expect(fixture.container.descriptor().value?.container == fixture.container.identity)

        try fixture.remove("container.json")
        #expect(fixture.container.descriptor() == .absent)

        try FileManager.default.removeItem(at: fixture.container.url)
        #expect(fixture.container.descriptor() == .absent)

        try FileManager.default.removeItem(at: fixture.cloud)
        let reason = try #require(fixture.container.descriptor().unreadableReason)
        #expect(reason.contains("does not exist"))
    }

    @Test func ioErrorsAreNeverAbsence() throws {
        let fixture = try ContainerFixture()
        let faulty = fixture.faulty
        let writes = faulty.count(of: .write)
        defer { #expect(faulty.count(of: .write) == writes, "checking the sentinel never writes") }
        faulty.fail([.list], at: fixture.cloudPath(""), with: EIO)
        #expect(fixture.container.descriptor().unreadableReason?.contains("input/output error") == true)
        faulty.heal(fixture.cloudPath(""))

        faulty.fail([.read], at: fixture.cloudPath("container.json"), with: EACCES)
        #expect(fixture.container.descriptor().unreadableReason?.contains("permission denied") == true)
        faulty.heal(fixture.cloudPath("container.json"))

        // The container folder is gone, but the cloud folder cannot be listed to be sure.
        try FileManager.default.removeItem(at: fixture.container.url)
        faulty.fail([.list], at: "", with: EIO)
        #expect(fixture.container.descriptor().unreadableReason?.contains("input/output error") == true)
        faulty.heal("")
        #expect(fixture.container.descriptor() == .absent)
    }

    @Test func aContainerFolderThatSaysMissingButIsListedIsNotAbsent() throws {
        let fixture = try ContainerFixture()
        fixture.faulty.fail([.list], at: fixture.cloudPath(""), with: ENOENT)
        #expect(fixture.container.descriptor().unreadableReason != nil)
    }

    @Test func aDescriptorThatCannotBeUnderstoodIsUnreadableWithTheReason() throws {
        let fixture = try ContainerFixture()
        let identity = fixture.container.identity.lowercased
        let cases: [(String, String)] = [
            ("garbage \u{1}", "not JSON"),
            ("[1, 2]", "not a JSON object"),
            (
                #"{"format":"something-else","formatVersion":1,"#
                    + #""container":"\#(identity)","created":"2025-01-01T00:00:00.000Z"}"#,
                "'format'"
            ),
            (
                #"{"format":"note-collector-container","formatVersion":1,"created":"2025-01-01T00:00:00.000Z"}"#,
                "missing key 'container'"
            ),
            (
                #"{"format":"note-collector-container","formatVersion":1,"#
                    + #""container":"\#(identity.uppercased())","created":"2025-01-01T00:00:00.000Z"}"#,
                "lowercase UUID"
            ),
            (
                #"{"format":"note-collector-container","formatVersion":0,"#
                    + #""container":"\#(identity)","created":"2025-01-01T00:00:00.000Z"}"#,
                "positive integer"
            ),
            (#"{"format":"note-collector-container","formatVersion":3,"future":true}"#, "newer than this build"),
        ]
        for (text, expected) in cases {
            try fixture.write(text, at: "container.json")
            let reason = try #require(fixture.container.descriptor().unreadableReason, "\(text)")
            #expect(reason.contains(expected), "\(reason)")
            #expect(reason.contains("container.json"))
        }
    }

    @Test func aDescriptorThatIsALinkOrTooLargeIsUnreadable() throws {
        let fixture = try ContainerFixture()
        let real = try Data(contentsOf: fixture.url("container.json"))
        try fixture.write(real, at: "elsewhere.json")
        try fixture.remove("container.json")
        try fixture.link("container.json", to: fixture.url("elsewhere.json"))
        #expect(fixture.container.descriptor().unreadableReason?.contains("symbolic link") == true)

        try fixture.remove("container.json")
        var padded = real
        padded.append(Data(repeating: UInt8(ascii: " "), count: 64 * 1024))
        try fixture.write(padded, at: "container.json")
        #expect(fixture.container.descriptor().unreadableReason?.contains("larger than 65536 bytes") == true)
    }

    @Test func aNewerFormatThatIsUnderstoodIsPresentAndSaysSo() throws {
        let fixture = try ContainerFixture()
        let text =
            #"{"format":"note-collector-container","formatVersion":3,"#
            + #""container":"\#(fixture.container.identity.lowercased)","#
            + #""created":"2025-01-01T00:00:00.000Z","encryption":"x"}"#
        try fixture.write(text, at: "container.json")
        let descriptor = try #require(fixture.container.descriptor().value)
        #expect(descriptor.isNewerFormat)
        #expect(descriptor.container == fixture.container.identity)
    }

    @Test func anotherIdentityIsReportedAsItIs() throws {
        let fixture = try ContainerFixture()
        try fixture.remove("container.json")
        let replaced = try CloudContainer.create(in: fixture.cloud)
        let descriptor = try #require(fixture.container.descriptor().value)
        #expect(descriptor.container == replaced.identity)
        #expect(descriptor.container != fixture.container.identity)
    }
}

/// A value shared between threads.
final class Locked<Value: Sendable>: Sendable {
    private let stored: Mutex<Value>

    init(_ value: Value) { stored = Mutex(value) }

    var value: Value { stored.withLock { $0 } }

    func update(_ change: (inout Value) -> Void) {
        stored.withLock { change(&$0) }
    }
}

/// A cloud file system on which another device creates `container.json` just before this one
/// does, so that this one loses the race.
private struct RivalCloudFileSystem: CloudFileSystem {
    let base: LocalCloudFileSystem
    let rivalDescriptor: ContainerDescriptor

    init(root: URL, rivalDescriptor: ContainerDescriptor) {
        base = LocalCloudFileSystem(root: root)
        self.rivalDescriptor = rivalDescriptor
    }

    var root: URL { base.root }

    func create(_ data: Data, at path: String) throws(SyncError) -> Bool {
        if path.hasSuffix("/container.json") {
            let encoder = JSONEncoder()
            let rival = (try? encoder.encode(rivalDescriptor)) ?? Data()
            #expect(try base.create(rival, at: path))
        }
        return try base.create(data, at: path)
    }

    func list(_ folder: String) throws(SyncError) -> [CloudEntry] { try base.list(folder) }
    func entry(at path: String) throws(SyncError) -> CloudEntry { try base.entry(at: path) }
    func read(_ path: String, limit: Int) throws(SyncError) -> Data { try base.read(path, limit: limit) }
    func write(_ data: Data, to path: String) throws(SyncError) { try base.write(data, to: path) }
    func makeFolder(_ path: String) throws(SyncError) -> Bool { try base.makeFolder(path) }
    func remove(_ path: String) throws(SyncError) { try base.remove(path) }
}
