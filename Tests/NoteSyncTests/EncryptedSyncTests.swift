import Foundation
import NoteStore
@testable import NoteSync
import NoteTestSupport
import Testing

/// Devices syncing through an encrypted container: nothing of the notes is in the folder,
/// tampered files are refused and reported while the rest syncs, and the passphrase opens the
/// container once per device.
@Suite struct EncryptedSyncTests {
    static let passphrase = "correct horse battery staple"

    /// Every regular file below `folder`, with its bytes.
    static func files(in folder: URL) throws -> [(path: String, data: Data)] {
        let enumerator = try #require(
            FileManager.default.enumerator(at: folder, includingPropertiesForKeys: [.isRegularFileKey]))
        var files: [(String, Data)] = []
        for case let url as URL in enumerator
        where try url.resourceValues(forKeys: [.isRegularFileKey]).isRegularFile == true {
            files.append((url.path, try Data(contentsOf: url)))
        }
        return files.sorted { $0.0 < $1.0 }
    }

    @Test func nothingOfTheNotesIsInTheContainer() throws {
        let stack = try SyncStack(devices: 2, passphrase: Self.passphrase)
        let store = stack.stores[0]
        let recipes = try store.addCollection(named: "Zanzibar recipes", in: nil)
        let soup = try store.addNote(
            named: "Quetzal soup", body: "Leeks, xylophone potatoes\nand saffron", in: recipes.id)
        _ = try stack.stores[0].attachImages(
            [SampleFiles.image("plain.png")], to: soup.id, caption: "Marmalade caption")
        _ = try store.tag(soup.id, with: ["wombat"])
        try stack.syncUntilQuiet()
        try stack.stores[1].edit(soup.id, body: "Leeks, xylophone potatoes\nand saffron\nand a zither")
        try stack.syncUntilQuiet()
        _ = try stack.engines[1].compact()
        try stack.syncUntilQuiet()
        let dumps = try stack.dumps()
        #expect(dumps[0] == dumps[1])
        #expect(try stack.stores[1].tags(of: soup.id) == ["wombat"])

        let image = try Data(contentsOf: SampleFiles.image("plain.png"))
        let secrets: [(String, Data)] = [
            ("collection name", Data("Zanzibar".utf8)), ("note name", Data("Quetzal".utf8)),
            ("body", Data("xylophone".utf8)), ("edit", Data("zither".utf8)), ("caption", Data("Marmalade".utf8)),
            ("tag", Data("wombat".utf8)), ("device name", Data("device-0".utf8)),
            ("device name", Data("device-1".utf8)),
            ("image", image), ("part of the image", image.subdata(in: 40..<72)),
            ("image's SHA-256", Data(CloudContainer.sha256(of: image).utf8)),
        ]
        let files = try Self.files(in: stack.cloud)
        let kinds = Set(files.map { URL(fileURLWithPath: $0.path).deletingLastPathComponent().lastPathComponent })
        #expect(files.count >= 8, "logs, registrations, a blob, a baseline and its manifest")
        #expect(kinds.contains("blobs") && kinds.contains("devices"))
        for (path, data) in files {
            for (what, secret) in secrets {
                #expect(data.range(of: secret) == nil, "the \(what) is in \(path)")
            }
            if !path.hasSuffix("container.json") && !path.hasSuffix("key.json") {
                #expect(data.prefix(8) == FileSealing.magic, "\(path) is not sealed")
            }
        }
    }

    @Test func aNewDeviceJoinsFromAnEncryptedBaseline() throws {
        let stack = try SyncStack(devices: 2, passphrase: Self.passphrase)
        let photo = try stack.stores[0].addNote(named: "Photo", body: "a picture", in: nil)
        _ = try stack.stores[0].attachImages([SampleFiles.image("plain.png")], to: photo.id)
        try stack.syncUntilQuiet()
        _ = try stack.engines[0].compact()
        let report = try stack.join()
        #expect(report.baseline != nil)
        try stack.syncUntilQuiet()
        let dumps = try stack.dumps()
        #expect(dumps[2] == dumps[0])
        #expect(try stack.stores[2].attachments(of: photo.id).count == 1)
    }

    @Test func tamperedFilesAreReportedAndTheRestSyncs() throws {
        let stack = try SyncStack(devices: 3, passphrase: Self.passphrase)
        let container = try stack.container()
        let first = try stack.stores[0].addNote(named: "First", body: "one", in: nil)
        try stack.engines[0].syncNow()
        _ = try stack.stores[2].addNote(named: "From the third", body: "three", in: nil)
        try stack.engines[2].syncNow()
        let logs = container.url.appendingPathComponent("logs")
        let zero = stack.stores[0].deviceID.storeString
        let sequence = try container.logSequences(of: stack.stores[0].deviceID).sequences.last!
        let log = logs.appendingPathComponent(zero).appendingPathComponent(CloudName.log(sequence))

        // A flipped byte: refused as damaged; the third device's log is applied all the same.
        let original = try Data(contentsOf: log)
        var flipped = original
        flipped[flipped.count / 2] ^= 0x20
        try flipped.write(to: log)
        let report = try stack.engines[1].syncNow()
        #expect(
            report.skipped.contains {
                $0.path.hasSuffix(CloudName.log(sequence)) && "\($0.reason)".hasPrefix("damaged")
            })
        #expect(try stack.stores[1].fetch(ItemRequest()).map(\.name).contains("From the third"))
        #expect(try !stack.stores[1].fetch(ItemRequest()).map(\.name).contains("First"))

        // The same bytes moved to the next sequence, or to another device's folder: refused.
        try original.write(to: log)
        let next = logs.appendingPathComponent(zero).appendingPathComponent(CloudName.log(sequence + 1))
        try original.write(to: next)
        let two = stack.stores[2].deviceID.storeString
        let intoOther = logs.appendingPathComponent(two).appendingPathComponent(CloudName.log(2))
        try original.write(to: intoOther)
        let moved = try stack.engines[1].syncNow()
        #expect(moved.skipped.contains { $0.path.hasSuffix("\(zero)/\(CloudName.log(sequence + 1))") })
        #expect(moved.skipped.contains { $0.path.hasSuffix("\(two)/\(CloudName.log(2))") }, "\(moved)")
        #expect(try stack.stores[1].item(first.id).name == "First", "the log in its own place is applied")
        try FileManager.default.removeItem(at: next)
        try FileManager.default.removeItem(at: intoOther)

        // A blob swapped for another: refused, the note waits; its writer puts it right.
        let a = try stack.stores[0].addNote(named: "A", body: "", in: nil)
        _ = try stack.stores[0].attachImages([SampleFiles.image("plain.png")], to: a.id)
        let b = try stack.stores[0].addNote(named: "B", body: "", in: nil)
        _ = try stack.stores[0].attachImages([SampleFiles.image("indexed.png")], to: b.id)
        try stack.engines[0].syncNow()
        let blobs = container.url.appendingPathComponent("blobs")
        let plain = try Data(contentsOf: SampleFiles.image("plain.png"))
        let indexed = try Data(contentsOf: SampleFiles.image("indexed.png"))
        let plainBlob = blobs.appendingPathComponent(container.blobFileName(CloudContainer.sha256(of: plain)))
        let indexedBlob = blobs.appendingPathComponent(container.blobFileName(CloudContainer.sha256(of: indexed)))
        try FileManager.default.removeItem(at: plainBlob)
        try FileManager.default.copyItem(at: indexedBlob, to: plainBlob)
        let swapped = try stack.engines[1].syncNow()
        #expect(swapped.waiting.contains { $0.reason.contains("damaged") })
        #expect(throws: StoreError.self) { try stack.stores[1].item(a.id) }
        #expect(throws: StoreError.self, "B came in the same log") { try stack.stores[1].item(b.id) }
        // Its writer finds the blob damaged when it checks its own logs, and publishes it again.
        try stack.stores[0].recordSync { ledger in try ledger.update { $0.ownLogsChecked = nil } }
        try stack.syncUntilQuiet()
        let dumps = try stack.dumps()
        #expect(dumps[1] == dumps[0])
        #expect(dumps[2] == dumps[0])
    }

    @Test func aWrongPassphraseWritesNothingAndTheRightOneJoins() throws {
        let stack = try SyncStack(devices: 1, passphrase: Self.passphrase)
        _ = try stack.stores[0].addNote(named: "Soup", body: "leeks", in: nil)
        try stack.engines[0].syncNow()
        let before = try Self.files(in: stack.cloud).map(\.path)
        let store = try stack.addStore()
        let engine = stack.engines[1]
        engine.passphrase = { _ in "wrong horse" }
        #expect(throws: SyncError.wrongPassphrase(path: stack.cloud.appendingPathComponent("NoteCollector").path)) {
            try engine.enable(cloud: stack.cloud, deviceName: "intruder")
        }
        #expect(try Self.files(in: stack.cloud).map(\.path) == before)
        #expect(StoredKey.read(in: store.folder, container: try stack.container().identity) == nil)
        engine.passphrase = nil
        #expect(throws: SyncError.self) { try engine.enable(cloud: stack.cloud, deviceName: "no passphrase") }
        #expect(try Self.files(in: stack.cloud).map(\.path) == before)

        engine.passphrase = { _ in Self.passphrase }
        try engine.enable(cloud: stack.cloud, deviceName: "device-1")
        engine.passphrase = { _ in
            Issue.record("asked again"); return nil
        }
        try stack.syncUntilQuiet()
        #expect(try stack.dumps()[1] == stack.dumps()[0])
    }

    @Test func aChangedPassphraseOpensForNewDevicesAndTheOthersGoOn() throws {
        let stack = try SyncStack(devices: 2, passphrase: Self.passphrase)
        stack.engines[0].passphrase = { request in
            guard case .change = request else { return nil }
            return "a new passphrase"
        }
        let keyFile = try stack.container().keyFile()
        try stack.engines[0].changePassphrase()
        #expect(try stack.container().keyFile() != keyFile)
        stack.engines[1].passphrase = { _ in
            Issue.record("asked"); return nil
        }
        _ = try stack.stores[1].addNote(named: "Still syncing", body: "", in: nil)
        try stack.syncUntilQuiet()
        #expect(try stack.dumps()[0] == stack.dumps()[1])

        let store = try stack.addStore()
        stack.engines[2].passphrase = { _ in Self.passphrase }
        #expect(throws: SyncError.self) { try stack.engines[2].enable(cloud: stack.cloud, deviceName: "late") }
        stack.engines[2].passphrase = { _ in "a new passphrase" }
        try stack.engines[2].enable(cloud: stack.cloud, deviceName: "late")
        try stack.syncUntilQuiet()
        #expect(try CanonicalDump.of(store) == stack.dumps()[0])
    }

    @Test func aForgottenKeyIsAskedForAtTheNextSync() throws {
        let stack = try SyncStack(devices: 2, passphrase: Self.passphrase)
        let engine = stack.engines[1]
        #expect(try engine.forgetKey())
        #expect(try engine.encryption() == (true, false))
        _ = try stack.stores[0].addNote(named: "Later", body: "", in: nil)
        try stack.engines[0].syncNow()
        engine.passphrase = nil
        #expect(throws: SyncError.keyNeeded(container: stack.cloud.appendingPathComponent("NoteCollector").path)) {
            try engine.syncNow()
        }
        #expect(try engine.status().encryption == (true, false))
        engine.passphrase = { _ in Self.passphrase }
        #expect(try engine.syncNow().importedLogs >= 1)
        #expect(try engine.encryption() == (true, true))
        #expect(try !engine.forgetKey() || true)
    }

    @Test func aSentinelThatNoLongerSaysEncryptedDetachesTheDevice() throws {
        let stack = try SyncStack(devices: 1, passphrase: Self.passphrase)
        let container = try stack.container()
        guard case let .present(descriptor) = container.descriptor() else { Issue.record("no sentinel"); return }
        let plain = ContainerDescriptor(container: descriptor.container, created: descriptor.created)
        try CloudJSON.encode(plain).write(to: container.url.appendingPathComponent("container.json"))
        _ = try stack.stores[0].addNote(named: "Secret", body: "not for the plain folder", in: nil)
        #expect(throws: SyncError.self) { try stack.engines[0].syncNow() }
        #expect(try stack.engines[0].status().state == .off)
        #expect(try container.logSequences(of: stack.stores[0].deviceID).sequences.count <= 1)
    }

    @Test func aPlainContainerIsNotMadeEncrypted() throws {
        let stack = try SyncStack(devices: 1)
        let store = try stack.addStore()
        stack.engines[1].passphrase = { _ in Self.passphrase }
        #expect(throws: SyncError.self) {
            try stack.engines[1].enable(cloud: stack.cloud, deviceName: "x", encrypt: true)
        }
        #expect(StoredKey.read(in: store.folder, container: try stack.container().identity) == nil)
    }
}

extension EncryptedSyncTests {
    @Test func aDamagedEncryptedBaselineIsPassedOverForTheLogs() throws {
        // Device 1 has applied nothing since it registered: the logs stay beside the baseline.
        let stack = try SyncStack(devices: 2, passphrase: Self.passphrase)
        _ = try stack.stores[0].addNote(named: "Soup", body: "leeks", in: nil)
        try stack.engines[0].syncNow()
        let manifest = try stack.engines[0].compact().baseline
        let database = try stack.container().url.appendingPathComponent(
            CloudContainer.BaselineName(device: manifest.device, sequence: manifest.sequence).databasePath)
        var bytes = try Data(contentsOf: database)
        bytes[bytes.count - 5] ^= 0x01
        try bytes.write(to: database)
        let report = try stack.join()
        #expect(report.baseline == nil)
        #expect(
            report.skipped.contains { $0.path.hasSuffix(".sqlite") && "\($0.reason)".contains("fails authentication") })
        try stack.syncUntilQuiet()
        let dumps = try stack.dumps()
        #expect(dumps[2] == dumps[0])
        #expect(dumps[1] == dumps[0])
    }
}

/// What someone who can write into the folder might try, to make a device that holds the key
/// write in the clear or weaken the key's wrapping.
@Suite struct EncryptionDowngradeTests {
    static let passphrase = "correct horse battery staple"

    /// Every file in the container but its sentinel and key file, that is not sealed.
    static func unsealedFiles(_ stack: SyncStack) throws -> [String] {
        try EncryptedSyncTests.files(in: stack.cloud).filter { file in
            !file.path.hasSuffix("/container.json") && !file.path.hasSuffix("/key.json")
                && file.data.prefix(8) != FileSealing.magic
        }.map(\.path)
    }

    @Test func aPlainSentinelPutInPlaceIsNeverJoinedInTheClear() throws {
        let stack = try SyncStack(devices: 1, passphrase: Self.passphrase)
        _ = try stack.stores[0].addNote(named: "Secret", body: "never in the clear", in: nil)
        try stack.engines[0].syncNow()
        let container = try stack.container()
        guard case let .present(descriptor) = container.descriptor() else { Issue.record("no sentinel"); return }
        // Another identity, created at the same time: what a container made at once elsewhere looks like.
        let plain = ContainerDescriptor(container: UUID(), created: descriptor.created)
        try CloudJSON.encode(plain).write(to: container.url.appendingPathComponent("container.json"))
        _ = try stack.stores[0].addNote(named: "Later", body: "not in the clear either", in: nil)
        #expect(throws: SyncError.self) { try stack.engines[0].syncNow() }
        #expect(try stack.engines[0].status().state == .off)
        #expect(try Self.unsealedFiles(stack) == [])

        // Enabling again refuses the plain container unless asked.
        #expect(throws: SyncError.self) { try stack.engines[0].enable(cloud: stack.cloud, deviceName: "device-0") }
        #expect(try Self.unsealedFiles(stack) == [])
        try stack.engines[0].enable(cloud: stack.cloud, deviceName: "device-0", allowPlain: true)
        #expect(try !Self.unsealedFiles(stack).isEmpty)
    }

    @Test func weakerScryptParametersInTheSentinelAreRefused() throws {
        let stack = try SyncStack(devices: 1, passphrase: Self.passphrase)
        let container = try stack.container()
        guard case var .present(descriptor) = container.descriptor(), var settings = descriptor.encryption else {
            Issue.record("no encrypted sentinel")
            return
        }
        settings.r = 1
        descriptor.encryption = settings
        try CloudJSON.encode(descriptor).write(to: container.url.appendingPathComponent("container.json"))
        let keyFile = try container.keyFile()
        stack.engines[0].passphrase = { _ in "a weak new passphrase" }
        #expect(throws: SyncError.self) { try stack.engines[0].changePassphrase() }
        #expect(try container.keyFile() == keyFile)
        #expect(throws: SyncError.self) { try stack.engines[0].syncNow() }
        #expect(try stack.engines[0].status().state == .off)
    }

    @Test func aFailedAttachElsewhereKeepsTheKeyOfTheContainerAttachedTo() throws {
        let stack = try SyncStack(devices: 2, passphrase: Self.passphrase)
        // Device 1 makes a second encrypted container, under another passphrase.
        stack.engines[1].passphrase = { _ in "another passphrase" }
        try stack.engines[1].disable(forget: false)
        try stack.engines[1].enable(cloud: stack.cloud, containerName: "Other", deviceName: "device-1", encrypt: true)
        // Device 0 tries to move there with the wrong one, and stays where it was, key and all.
        stack.engines[0].passphrase = { _ in Self.passphrase }
        #expect(throws: SyncError.self) {
            try stack.engines[0].enable(
                cloud: stack.cloud, containerName: "Other", deviceName: "device-0", encrypt: true)
        }
        stack.engines[0].passphrase = { _ in
            Issue.record("asked"); return nil
        }
        try stack.engines[0].syncNow()
        #expect(try stack.engines[0].encryption() == (true, true))
    }
}
