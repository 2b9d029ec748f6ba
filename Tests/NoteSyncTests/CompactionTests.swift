import Foundation
import NoteStore
@testable import NoteSync
import NoteTestSupport
import Testing

/// Compaction (docs/sync-format.md, "Compaction"): a device removes its logs that a baseline
/// holds once every device that still syncs has applied them; a device left behind comes back
/// through a baseline with its own changes; a damaged log is healed by a baseline of its
/// writer.
@Suite struct CompactionTests {
    func logs(of store: Store, in stack: SyncStack) throws -> [Int64] {
        try CloudContainer.create(in: stack.cloud).logSequences(of: store.deviceID).sequences
    }

    /// Every device writes a baseline in turn (which also says what it has applied), then each
    /// compacts again with what the others said.
    func compactEverywhere(_ stack: SyncStack, rounds: Int = 2) throws {
        for _ in 0..<rounds {
            for engine in stack.engines { _ = try engine.compact() }
        }
    }

    @Test func logsEveryDeviceHasAppliedAreRemovedByTheirWriter() throws {
        let stack = try SyncStack.populated()
        let before = try stack.stores.map { try logs(of: $0, in: stack) }
        #expect(before.allSatisfy { !$0.isEmpty })
        try compactEverywhere(stack)
        let after = try stack.stores.map { try logs(of: $0, in: stack) }
        #expect(after.allSatisfy { $0.isEmpty }, "\(after)")
        // Only the newest baseline is left of each device's.
        let container = try CloudContainer.create(in: stack.cloud)
        let catalog = try BaselineCatalog.read(container, containerID: container.identity)
        #expect(catalog.entries.count <= stack.stores.count)
        // A new device joins from what is left, and every device goes on.
        let joined = try stack.join()
        #expect(joined.baseline != nil && joined.waiting.isEmpty && joined.skipped.isEmpty, "\(joined)")
        _ = try stack.stores[1].addNote(named: "After compaction", body: "", in: nil)
        try stack.syncUntilQuiet()
        #expect(Set(try stack.dumps()).count == 1)
        for engine in stack.engines {
            let report = try engine.syncNow()
            #expect(report.waiting.isEmpty && report.skipped.isEmpty, "\(report)")
        }
    }

    @Test func aDeviceThatHasNotAppliedALogKeepsItInTheContainer() throws {
        let stack = try SyncStack(devices: 3)
        _ = try stack.stores[0].addNote(named: "first", body: "", in: nil)
        try stack.syncUntilQuiet()
        try compactEverywhere(stack)
        // Device 2 does not sync again; device 0 writes more and compacts.
        _ = try stack.stores[0].addNote(named: "second", body: "", in: nil)
        _ = try stack.engines[0].syncNow()
        _ = try stack.engines[1].compact()
        _ = try stack.engines[0].compact()
        #expect(try logs(of: stack.stores[0], in: stack) == [2], "device 2 has not applied log 2 of device 0")
        #expect(try stack.engines[2].syncNow().importedLogs == 1)
        try stack.syncUntilQuiet()
        #expect(Set(try stack.dumps()).count == 1)
    }

    /// A registration says what its device had applied, its own published logs included, at a
    /// moment its outbox was empty; while something it saved waits to be published, what it
    /// said at the last such moment stays.
    @Test func aRegistrationSaysWhatWasAppliedWithNothingWaiting() throws {
        let stack = try SyncStack(devices: 2)
        let container = try CloudContainer.create(in: stack.cloud)
        let (a, b) = (stack.stores[0].deviceID, stack.stores[1].deviceID)
        func registration() -> DeviceRegistration? { container.registration(of: a).value }
        let compaction = Compaction(store: stack.stores[0], container: container, containerID: container.identity)
        // A registration as `sync enable` writes it, then never said with nothing waiting: no
        // `clean`.
        var enabled = try #require(registration())
        enabled.clean = nil
        try container.register(enabled)
        _ = try stack.stores[0].addNote(named: "first", body: "", in: nil)
        try compaction.acknowledge(force: true)
        #expect(registration()?.applied != nil && registration()?.clean == nil)
        _ = try stack.stores[1].addNote(named: "second", body: "", in: nil)
        try stack.syncUntilQuiet()
        try compaction.acknowledge(force: true)
        let published = try logs(of: stack.stores[0], in: stack).last
        let applied = try #require(registration()?.applied)
        let publishedByB = try logs(of: stack.stores[1], in: stack).last
        #expect(published != nil && applied[b] == publishedByB)
        #expect(registration()?.clean == applied.merging([a: published!]) { $1 })

        // Something saved and not yet published: `applied` moves on, `clean` does not.
        _ = try stack.stores[1].addNote(named: "third", body: "", in: nil)
        _ = try stack.engines[1].syncNow()
        _ = try stack.engines[0].syncNow()
        _ = try stack.stores[0].addNote(named: "waiting", body: "", in: nil)
        try compaction.acknowledge(force: true)
        #expect(registration()?.applied?[b] == applied[b]! + 1)
        #expect(registration()?.clean == applied.merging([a: published!]) { $1 })
        // Once it is published, `clean` holds it and what was applied.
        _ = try stack.engines[0].syncNow()
        try compaction.acknowledge(force: true)
        #expect(registration()?.clean == [a: published! + 1, b: applied[b]! + 1])
    }

    /// A device of a build before baselines says nothing of what it applied: it is waited for,
    /// however long ago it registered, since it cannot come back through a baseline.
    @Test func aDeviceOfAnEarlierBuildIsWaitedFor() throws {
        let stack = try SyncStack(devices: 2)
        _ = try stack.stores[0].addNote(named: "n", body: "", in: nil)
        try stack.syncUntilQuiet()
        let container = try CloudContainer.create(in: stack.cloud)
        let older = DeviceRegistration(
            container: container.identity, device: UUID(), name: "old build",
            registered: Date().addingTimeInterval(-400 * 86400),
            modelVersion: 3)
        try container.register(older)
        try compactEverywhere(stack)
        #expect(try logs(of: stack.stores[0], in: stack) == [1])
        // Once it is gone (its registration removed), the others stop waiting.
        try container.removeRegistration(of: older.device)
        try compactEverywhere(stack)
        #expect(try logs(of: stack.stores[0], in: stack) == [])
    }

    @Test func aDeviceLeftBehindComesBackThroughABaselineWithItsOwnChanges() throws {
        let stack = try SyncStack(devices: 3)
        _ = try stack.stores[0].addNote(named: "early", body: "", in: nil)
        try stack.syncUntilQuiet()
        // Device 2 goes away for 40 days: its registration says when it last synced.
        let container = try CloudContainer.create(in: stack.cloud)
        guard case var .present(registration) = container.registration(of: stack.stores[2].deviceID) else {
            Issue.record("no registration")
            return
        }
        registration.synced = Date().addingTimeInterval(-40 * 86400)
        try container.register(registration)
        try stack.stores[2].recordSync { ledger in
            try ledger.update { $0.acknowledged = Date() }
        }
        // Meanwhile the others write and compact past it.
        for index in 0..<3 { _ = try stack.stores[index % 2].addNote(named: "while away \(index)", body: "", in: nil) }
        for _ in 0..<2 {
            for engine in stack.engines.prefix(2) { _ = try engine.compact() }
        }
        #expect(try logs(of: stack.stores[0], in: stack).isEmpty)
        #expect(try logs(of: stack.stores[1], in: stack).isEmpty)
        // It comes back with a note of its own, made while away.
        _ = try stack.stores[2].addNote(named: "made while away", body: "kept", in: nil)
        let back = try stack.engines[2].syncNow()
        #expect(back.baseline != nil, "\(back)")
        #expect(back.waiting.isEmpty && back.skipped.isEmpty, "\(back)")
        try stack.syncUntilQuiet()
        let dumps = try stack.dumps()
        #expect(Set(dumps).count == 1)
        #expect(dumps[0].contains("made while away") && dumps[0].contains("while away 2") && dumps[0].contains("early"))
        for store in stack.stores { #expect(try store.check() == []) }
    }

    @Test func blobsNothingUsesAreRemovedByTheAnchorsWriterAfterAGracePeriod() throws {
        let stack = try SyncStack(devices: 2)
        let kept = try stack.stores[0].addNote(named: "kept", body: "", in: nil)
        _ = try stack.stores[0].attachImages([SampleFiles.image("plain.png")], to: kept.id)
        let gone = try stack.stores[0].addNote(named: "gone", body: "", in: nil)
        _ = try stack.stores[0].attachImages([SampleFiles.image("baseline.jpg")], to: gone.id)
        try stack.syncUntilQuiet()
        try stack.stores[0].trash(gone.id)
        try stack.stores[0].emptyTrash()
        try stack.syncUntilQuiet()
        try compactEverywhere(stack)
        let container = try CloudContainer.create(in: stack.cloud)
        #expect(try container.blobs().blobs.count == 2, "the unused blob is only marked at first")
        // The writer of the anchor compacts again a day later: the unused blob goes.
        let catalog = try BaselineCatalog.read(container, containerID: container.identity)
        let writer = try #require(stack.stores.firstIndex { $0.deviceID == catalog.entries.first?.manifest.device })
        let compaction = Compaction(store: stack.stores[writer], container: container, containerID: container.identity)
        #expect(try compaction.run(now: Date().addingTimeInterval(2 * 86400)).blobs == 1)
        let left = try container.blobs().blobs
        #expect(left == [try stack.stores[0].attachments(of: kept.id)[0].sha256])
        // A new device joins with the image that is still used.
        let joined = try stack.join()
        #expect(joined.baseline != nil && joined.waiting.isEmpty, "\(joined)")
        #expect(try stack.stores[2].check() == [])
        #expect(Set(try stack.dumps()).count == 1)
    }

    @Test func aBlobThatWentWhileItsLogWasPublishedIsPublishedAgainByItsWriter() throws {
        let stack = try SyncStack(devices: 2)
        let note = try stack.stores[0].addNote(named: "photo", body: "", in: nil)
        let attachment = try stack.stores[0].attachImages([SampleFiles.image("plain.png")], to: note.id)[0]
        _ = try stack.engines[0].syncNow()
        let container = try CloudContainer.create(in: stack.cloud)
        try container.removeBlob(named: container.blobFileName(attachment.sha256))
        #expect(try stack.engines[1].syncNow().waiting.count == 1)
        try stack.stores[0].recordSync { ledger in try ledger.update { $0.ownLogsChecked = nil } }
        _ = try stack.engines[0].syncNow()
        #expect(try container.hasBlob(attachment.sha256))
        try stack.syncUntilQuiet()
        #expect(Set(try stack.dumps()).count == 1)
        #expect(try stack.stores[1].check() == [])
    }

    /// A blob damaged in the container is replaced by its writer, or by any device that holds
    /// its bytes; the devices waiting for it go on.
    @Test(arguments: [0, 1])
    func aDamagedBlobIsReplacedByADeviceHoldingItsBytes(repairer: Int) throws {
        let stack = try SyncStack(devices: 3)
        let note = try stack.stores[0].addNote(named: "photo", body: "", in: nil)
        let attachment = try stack.stores[0].attachImages([SampleFiles.image("plain.png")], to: note.id)[0]
        _ = try stack.engines[0].syncNow()
        _ = try stack.engines[1].syncNow()
        let blob = stack.cloud.appendingPathComponent("\(SyncEngine.defaultContainerName)/blobs/\(attachment.sha256)")
        var data = try Data(contentsOf: blob)
        data[data.count / 2] ^= 0x10
        try data.write(to: blob)
        let waiting = try stack.engines[2].syncNow()
        #expect(waiting.waiting.first?.reason.contains("cannot be used yet") == true, "\(waiting)")
        try stack.stores[repairer].recordSync { ledger in try ledger.update { $0.ownLogsChecked = nil } }
        _ = try stack.engines[repairer].syncNow()
        #expect(try Data(contentsOf: blob) == Data(contentsOf: SampleFiles.image("plain.png")))
        try stack.syncUntilQuiet()
        #expect(Set(try stack.dumps()).count == 1)
        #expect(try stack.stores[2].check() == [])
    }

    @Test func aDamagedLogIsHealedByABaselineOfItsWriter() throws {
        let stack = try SyncStack(devices: 2)
        _ = try stack.stores[0].addNote(named: "one", body: "", in: nil)
        try stack.syncUntilQuiet()
        _ = try stack.stores[0].addNote(named: "two", body: "", in: nil)
        _ = try stack.stores[0].addNote(named: "three", body: "", in: nil)
        _ = try stack.engines[0].syncNow()
        // Log 2 of device 0 is damaged in the cloud before device 1 applies it.
        let sequences = try logs(of: stack.stores[0], in: stack)
        let damaged = stack.cloud.appendingPathComponent(
            "\(SyncEngine.defaultContainerName)/"
                + "\(CloudContainer.logPath(device: stack.stores[0].deviceID, sequence: sequences[1]))"
        )
        var data = try Data(contentsOf: damaged)
        data[data.count / 2] ^= 0x20
        try data.write(to: damaged)
        let blocked = try stack.engines[1].syncNow()
        #expect(blocked.skipped.count == 1 && blocked.waiting.count == 1, "\(blocked)")
        // Its writer finds it at its next check and writes a baseline that holds it.
        try stack.stores[0].recordSync { ledger in try ledger.update { $0.ownLogsChecked = nil } }
        _ = try stack.engines[0].syncNow()
        let healed = try stack.engines[1].syncNow()
        #expect(healed.baseline != nil, "\(healed)")
        #expect(healed.waiting.isEmpty && healed.skipped.isEmpty, "\(healed)")
        #expect(Set(try stack.dumps()).count == 1)
        #expect(try stack.dumps()[1].contains("three"))
    }
}

extension CompactionTests {
    /// A baseline damaged after its writer's logs were compacted away would leave a new device
    /// with nothing to start from: its writer finds it damaged at its next check and writes
    /// another, plain or encrypted.
    @Test(arguments: [nil, "a passphrase"])
    func aDamagedBaselineOfItsOwnIsReplacedByItsWriter(passphrase: String?) throws {
        let stack = try SyncStack(devices: 1, passphrase: passphrase)
        let soup = try stack.stores[0].addNote(named: "Soup", body: "leeks", in: nil)
        try stack.engines[0].syncNow()
        let first = try stack.engines[0].compact()
        #expect(first.removedLogs > 0)
        let container = try stack.container()
        let database = container.url.appendingPathComponent(
            CloudContainer.BaselineName(device: first.baseline.device, sequence: first.baseline.sequence).databasePath)
        var bytes = try Data(contentsOf: database)
        bytes[bytes.count / 2] ^= 0x01
        try bytes.write(to: database)

        try stack.stores[0].recordSync { ledger in try ledger.update { $0.ownLogsChecked = nil } }
        try stack.engines[0].syncNow()
        let names = try container.baselineNames().names.filter { $0.device == stack.stores[0].deviceID }
        #expect(names.map(\.sequence) == [first.baseline.sequence + 1], "the damaged one is replaced and removed")
        try stack.join()
        #expect(try stack.stores[1].item(soup.id).name == "Soup")
        // A sound baseline is left as it is.
        try stack.stores[0].recordSync { ledger in try ledger.update { $0.ownLogsChecked = nil } }
        try stack.engines[0].syncNow()
        #expect(try container.baselineNames().names.map(\.sequence) == [first.baseline.sequence + 1])
    }
}
