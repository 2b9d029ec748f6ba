import Foundation
import NoteStore
@testable import NoteSync
import NoteSyncTestSupport
import NoteTestSupport
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// The sentinel and the registration: what a device does when the container goes away, is
/// replaced or cannot be read, and how enabling again brings everything back without
/// duplicates or losses (docs/sync-format.md, "Sentinel, identity and sync states").
@Suite struct SentinelTests {
    static let name = SyncEngine.defaultContainerName

    /// Syncs, expecting the device to detach; returns the reason it gives.
    static func reasonForDetaching(_ engine: SyncEngine, sourceLocation: SourceLocation = #_sourceLocation) throws
        -> String?
    {
        do {
            try engine.syncNow()
        } catch let SyncError.detached(reason) {
            return reason
        }
        Issue.record("the device went on syncing", sourceLocation: sourceLocation)
        return nil
    }

    /// Every file and folder of the container with its size, to tell that nothing was written.
    static func contents(of stack: SyncStack) -> [String: Int] {
        let root = stack.cloud.appendingPathComponent(name)
        var result: [String: Int] = [:]
        for case let path as String in FileManager.default.enumerator(atPath: root.path) ?? .init() {
            let size =
                (try? FileManager.default.attributesOfItem(atPath: root.appendingPathComponent(path).path)[.size]
                    as? Int) ?? -1
            result[path] = size
        }
        return result
    }

    static func names(_ store: Store) throws -> [String] {
        try store.fetch(ItemRequest(trash: .included)).map(\.name)
    }

    // MARK: Going off

    @Test(arguments: ["sentinel", "registration"])
    func aFileThatIsDefinitelyGoneSwitchesSyncOffAndKeepsEverything(_ removed: String) throws {
        let stack = try SyncStack(devices: 2)
        _ = try stack.stores[0].addNote(named: "shared", body: "", in: nil)
        try stack.syncUntilQuiet()
        let path = removed == "sentinel" ? "container.json" : "devices/\(stack.stores[1].deviceID.storeString).json"
        try FileManager.default.removeItem(at: stack.cloud.appendingPathComponent("\(Self.name)/\(path)"))
        _ = try stack.stores[1].addNote(named: "before the check", body: "", in: nil)
        let before = Self.contents(of: stack)

        let reason = try Self.reasonForDetaching(stack.engines[1])
        #expect(reason?.contains(removed == "sentinel" ? "container.json" : path) == true, "\(reason ?? "")")
        let status = try stack.engines[1].status()
        #expect(status.state == .off)
        #expect(status.reason == reason)
        #expect(status.since != nil)

        _ = try stack.stores[1].addNote(named: "after the check", body: "", in: nil)
        #expect(try Self.names(stack.stores[1]) == ["after the check", "before the check", "shared"])
        #expect(try stack.engines[1].status().pendingExports == 2, "local saves are kept for a later export")
        #expect(try Self.reasonForDetaching(stack.engines[1]) == reason, "an off device stays off")
        #expect(Self.contents(of: stack) == before, "an off device writes nothing into the cloud")
    }

    @Test func anotherContainerDetachesWithoutMergingOrDeleting() throws {
        let stack = try SyncStack(devices: 2)
        _ = try stack.stores[0].addNote(named: "shared", body: "", in: nil)
        try stack.syncUntilQuiet()
        let old = try CloudContainer.create(in: stack.cloud).identity
        _ = try stack.stores[1].addNote(named: "in the old container", body: "", in: nil)
        try stack.engines[1].syncNow()
        let replacement = ContainerDescriptor(container: UUID())
        try CloudJSON.encode(replacement).write(to: stack.cloud.appendingPathComponent("\(Self.name)/container.json"))
        _ = try stack.stores[0].addNote(named: "local", body: "", in: nil)
        let dump = try CanonicalDump.of(stack.stores[0])
        let before = Self.contents(of: stack)

        let reason = try #require(try Self.reasonForDetaching(stack.engines[0]))
        #expect(reason.contains("another one"))
        #expect(reason.contains(replacement.container.storeString) && reason.contains(old.storeString))
        #expect(try stack.engines[0].status().state == .off)
        #expect(try CanonicalDump.of(stack.stores[0]) == dump, "nothing merged, nothing deleted")
        #expect(try Self.names(stack.stores[0]) == ["local", "shared"])
        #expect(Self.contents(of: stack) == before, "nothing written or removed in the container")
    }

    /// The descriptor and registration read at every export are decoded once for the same
    /// bytes; any other bytes give what they decode to, whatever was decoded before.
    @Test func theSameBytesGiveTheValueTheyDecodedTo() throws {
        let first = DeviceRegistration(container: UUID(), device: UUID(), name: "first", modelVersion: 10)
        let second = DeviceRegistration(
            container: first.container, device: first.device, name: "second", modelVersion: 10)
        let decode = { (data: Data) in try CloudJSON.decodeRemembered(DeviceRegistration.self, from: data).get() }
        #expect(try decode(CloudJSON.encode(first)).name == "first")
        #expect(try decode(CloudJSON.encode(first)).name == "first")
        #expect(try decode(CloudJSON.encode(second)).name == "second")
        #expect(throws: FormatProblem.self) { try decode(Data("{\"format\": ".utf8)) }
        #expect(try decode(CloudJSON.encode(second)).name == "second")
        let descriptor = ContainerDescriptor(container: first.container)
        #expect(
            try CloudJSON.decodeRemembered(ContainerDescriptor.self, from: CloudJSON.encode(descriptor)).get().container
                == descriptor.container)
        #expect(try decode(CloudJSON.encode(first)).name == "first")
    }

    // MARK: Not knowing is not absence

    @Test func aSentinelThatCannotBeReadDecidesNothing() throws {
        let stack = try SyncStack(devices: 1)
        let identity = try CloudContainer.create(in: stack.cloud).identity
        let faulty = FaultyCloudFileSystem(root: stack.cloud)
        let container = try CloudContainer(fileSystem: faulty, identity: identity)
        let registration = "\(Self.name)/devices/\(stack.stores[0].deviceID.storeString).json"
        let faults: [(Set<FaultyCloudFileSystem.Operation>, String, Int32)] = [
            ([.list], Self.name, EIO),
            ([.list], Self.name, EACCES),
            ([.list], Self.name, ENOENT),
            ([.read], "\(Self.name)/container.json", EIO),
            ([.read], registration, EIO),
            ([.list], "\(Self.name)/devices", EACCES),
        ]
        for (operations, path, code) in faults {
            faulty.fail(operations, at: path, with: code)
            if !path.hasPrefix("\(Self.name)/devices") {
                #expect(container.descriptor().unreadableReason != nil, "\(operations) \(path) \(code)")
            }
            #expect(throws: SyncError.self, "\(operations) \(path) \(code)") {
                try stack.engines[0].checkSentinel(container, sentinel: container.descriptor(), expected: identity)
            }
            let status = try stack.engines[0].status()
            #expect(status.state == .on, "\(operations) \(path) \(code)")
            #expect(status.reason == nil)
            faulty.heal(path)
        }
        try stack.engines[0].checkSentinel(container, sentinel: container.descriptor(), expected: identity)
        #expect(try stack.engines[0].syncNow().skipped.isEmpty)
    }

    /// A sentinel or registration that is there but cannot be used.
    enum Damage: String, CaseIterable {
        case sentinelNotJSON, sentinelIsALink, registrationNotJSON, registrationOfAnotherDevice
    }

    @Test(arguments: Damage.allCases)
    func aSentinelOrRegistrationThatCannotBeUsedDecidesNothing(_ damage: Damage) throws {
        let stack = try SyncStack(devices: 1)
        let identity = try CloudContainer.create(in: stack.cloud).identity
        let container = stack.cloud.appendingPathComponent(Self.name)
        let file = container.appendingPathComponent(
            damage.rawValue.hasPrefix("sentinel")
                ? "container.json" : "devices/\(stack.stores[0].deviceID.storeString).json")
        let original = try Data(contentsOf: file)
        try FileManager.default.removeItem(at: file)
        switch damage {
        case .sentinelNotJSON, .registrationNotJSON:
            try Data("{\"format\": ".utf8).write(to: file)
        case .sentinelIsALink:
            let elsewhere = stack.folder.appending("container.json")
            try original.write(to: elsewhere)
            try FileManager.default.createSymbolicLink(at: file, withDestinationURL: elsewhere)
        case .registrationOfAnotherDevice:
            let other = DeviceRegistration(
                container: identity, device: UUID(), name: "other", modelVersion: Store.currentModelVersion)
            try CloudJSON.encode(other).write(to: file)
        }
        _ = try stack.stores[0].addNote(named: "waits", body: "", in: nil)
        do {
            try stack.engines[0].syncNow()
            Issue.record("the sync went on")
        } catch let error as SyncError {
            if case .detached = error { Issue.record("detached: \(error)") }
        }
        let status = try stack.engines[0].status()
        #expect(status.state == .on)
        #expect(status.pendingExports == 1, "nothing was exported")

        try FileManager.default.removeItem(at: file)
        try original.write(to: file)
        #expect(try stack.engines[0].syncNow().exportedLogs == 1)
    }

    @Test func aMissingCloudFolderIsNotAnAbsentContainer() throws {
        let stack = try SyncStack(devices: 1)
        let away = stack.folder.appending("unmounted")
        try FileManager.default.moveItem(at: stack.cloud, to: away)
        #expect(throws: SyncError.self) { try stack.engines[0].syncNow() }
        #expect(try stack.engines[0].status().state == .on)
        try FileManager.default.moveItem(at: away, to: stack.cloud)
        _ = try stack.stores[0].addNote(named: "n", body: "", in: nil)
        #expect(try stack.engines[0].syncNow().exportedLogs == 1)
    }

    // MARK: Enabling again

    /// Notes, collections, an attachment, a trashed note and a purged one, on every device.
    static func populate(_ stack: SyncStack) throws {
        let box = try stack.stores[0].addCollection(named: "Box", in: nil)
        let photo = try stack.stores[0].addNote(named: "Photo", body: "see", in: box.id)
        _ = try stack.stores[0].attachImages([SampleFiles.image("plain.png")], to: photo.id)
        let old = try stack.stores[1].addNote(named: "Old", body: "", in: nil)
        try stack.stores[1].trash(old.id)
        let gone = try stack.stores[2 % stack.stores.count].addNote(named: "Gone", body: "", in: nil)
        try stack.stores[2 % stack.stores.count].trash(gone.id)
        try stack.stores[2 % stack.stores.count].emptyTrash()
        try stack.syncUntilQuiet()
    }

    /// What went from the cloud folder.
    enum Removal: String, CaseIterable {
        /// `container.json` alone: the old logs stay beside the new container's.
        case sentinel
        /// The container folder with everything in it.
        case wholeContainer
    }

    @Test(arguments: Removal.allCases)
    func enablingAfterTheContainerWentMakesANewOneWithEverythingOnce(_ removal: Removal) throws {
        let stack = try SyncStack(devices: 3)
        try Self.populate(stack)
        let container = stack.cloud.appendingPathComponent(Self.name)
        try FileManager.default.removeItem(
            at: removal == .sentinel ? container.appendingPathComponent("container.json") : container)
        _ = try stack.stores[0].addNote(named: "off on 0", body: "", in: nil)
        _ = try stack.stores[1].addNote(named: "off on 1", body: "", in: nil)
        let photo = try #require(try stack.stores[2].fetch(ItemRequest(nameContains: "Photo")).first)
        try stack.stores[2].edit(photo.id, body: "edited on 2 while off")
        for engine in stack.engines { _ = try Self.reasonForDetaching(engine) }
        let expected = try stack.stores.map { Set(try $0.fetch(ItemRequest(trash: .included)).map(\.id)) }.reduce(Set())
        { $0.union($1) }

        try stack.engines[1].enable(cloud: stack.cloud, deviceName: "device-1")
        try stack.engines[0].enable(cloud: stack.cloud, deviceName: "device-0")
        try stack.engines[2].enable(cloud: stack.cloud, deviceName: "device-2")
        try stack.syncUntilQuiet()

        let dumps = try stack.dumps()
        #expect(dumps[1] == dumps[0])
        #expect(dumps[2] == dumps[0])
        for (index, store) in stack.stores.enumerated() {
            let items = try store.fetch(ItemRequest(trash: .included))
            #expect(Set(items.map(\.id)) == expected, "device \(index): nothing lost, nothing duplicated")
            #expect(items.map(\.name).sorted() == ["Box", "Old", "Photo", "off on 0", "off on 1"], "device \(index)")
            #expect(try store.item(photo.id).body == "edited on 2 while off")
            #expect(try store.attachments(of: photo.id).count == 1)
            #expect(try store.check() == [], "device \(index)")
            let status = try stack.engines[index].status()
            #expect(status.state == .on)
            #expect(status.waiting.isEmpty, "device \(index): \(status.waiting.map { "\($0.path): \($0.reason)" })")
            #expect(status.skipped.isEmpty, "device \(index): \(status.skipped)")
        }
    }

    @Test func enablingAgainIntoTheSameContainerOverwritesNothingNewer() throws {
        let stack = try SyncStack(devices: 2)
        try Self.populate(stack)
        let photo = try #require(try stack.stores[0].fetch(ItemRequest(nameContains: "Photo")).first)
        let box = try #require(try stack.stores[0].fetch(ItemRequest(nameContains: "Box")).first)
        try stack.engines[0].disable(forget: false)

        // Meanwhile, elsewhere: a rename after device 0's last sync, and a purge of what it
        // still holds, with its attachment.
        try stack.stores[1].edit(box.id, name: "Box renamed on 1")
        try stack.stores[1].trash(photo.id)
        try stack.stores[1].change { try $0.purge(photo.id) }
        try stack.engines[1].syncNow()
        // Here: new notes and an edit, saved while sync is disabled.
        let made = try stack.stores[0].addNote(named: "made while disabled", body: "", in: box.id)
        let old = try #require(try stack.stores[0].fetch(ItemRequest(trash: .only, nameContains: "Old")).first)
        try stack.stores[0].restore(old.id)

        try stack.engines[0].enable(cloud: stack.cloud, deviceName: "device-0")
        try stack.syncUntilQuiet()

        let dumps = try stack.dumps()
        #expect(dumps[1] == dumps[0])
        for (index, store) in stack.stores.enumerated() {
            #expect(try store.item(box.id).name == "Box renamed on 1", "device \(index): the newer name stays")
            #expect(throws: StoreError.self, "device \(index): the purge stays") { try store.item(photo.id) }
            #expect(try store.item(made.id).parent == box.id)
            #expect(try store.item(old.id).trashed == nil)
            #expect(
                try Self.names(store).sorted() == ["Box renamed on 1", "Old", "made while disabled"], "device \(index)")
            #expect(try store.check() == [], "device \(index)")
        }
    }
}
