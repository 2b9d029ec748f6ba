import Foundation
import NoteStore
@testable import NoteSync
import NoteTestSupport
import Testing

@Suite struct SyncBasicsTests {
    @Test func notesCreatedAnywhereArriveEverywhere() throws {
        let stack = try SyncStack(devices: 3)
        let work = try stack.stores[0].addCollection(named: "Work", in: nil)
        _ = try stack.stores[0].addNote(named: "Plan", body: "ship", in: work.id)
        _ = try stack.stores[1].addNote(named: "Groceries", body: "milk", in: nil)
        try stack.syncUntilQuiet()
        let dumps = try stack.dumps()
        #expect(dumps[0].contains("Plan") && dumps[0].contains("Groceries"))
        #expect(Set(dumps).count == 1, "\(dumps)")
    }

    @Test func editsMergePerProperty() throws {
        let stack = try SyncStack(devices: 2)
        let note = try stack.stores[0].addNote(named: "n", body: "one", in: nil)
        try stack.syncUntilQuiet()
        try stack.stores[0].edit(note.id, name: "renamed on 0")
        try stack.stores[1].edit(note.id, body: "edited on 1")
        try stack.syncUntilQuiet()
        let dumps = try stack.dumps()
        #expect(dumps[0] == dumps[1])
        #expect(try stack.stores[1].item(note.id).name == "renamed on 0")
        #expect(try stack.stores[0].item(note.id).body == "edited on 1")
    }

    /// A store that never synced records nothing in its outbox; enabling pushes all it holds
    /// as a snapshot, and records every save after it.
    @Test func notesSavedBeforeSyncWasEnabledArriveAndSoDoLaterOnes() throws {
        let stack = try SyncStack(devices: 2, enable: false)
        let home = try stack.stores[0].addCollection(named: "Home", in: nil)
        let note = try stack.stores[0].addNote(named: "Before", body: "saved before enable", in: home.id)
        try stack.stores[0].edit(note.id, body: "edited before enable")
        #expect(try stack.stores[0].outboxEntries().isEmpty)
        for (index, engine) in stack.engines.enumerated() {
            try engine.enable(cloud: stack.cloud, deviceName: "device-\(index)")
        }
        #expect(try stack.stores[0].recordsChanges())
        _ = try stack.stores[0].addNote(named: "After", body: "saved after enable", in: home.id)
        #expect(try stack.stores[0].outboxEntries().count == 1)
        try stack.syncUntilQuiet()
        #expect(try stack.stores[1].item(note.id).body == "edited before enable")
        #expect(try stack.stores[1].history(of: note.id).filter { $0.property == .body }.count == 2)
        #expect(try stack.stores[1].resolve("Home/After").body == "saved after enable")
        let dumps = try stack.dumps()
        #expect(dumps[0] == dumps[1])
    }

    /// A save that comes while `sync enable` pushes its snapshot (from another process, say)
    /// is not in the snapshot, although the snapshot is read while the store changes: it goes
    /// once, in a log of its outbox row, and arrives.
    @Test func aSaveWhileSyncIsBeingEnabledArrives() throws {
        let stack = try SyncStack(devices: 2, enable: false)
        let store = stack.stores[0]
        let before = try store.addNote(named: "Before", body: "in the snapshot", in: nil)
        nonisolated(unsafe) var during: UUID?
        stack.engines[0].snapshotTaken = {
            during = try store.addNote(named: "During", body: "saved after the snapshot", in: nil).id
        }
        for (index, engine) in stack.engines.enumerated() {
            try engine.enable(cloud: stack.cloud, deviceName: "device-\(index)")
        }
        try stack.syncUntilQuiet()
        let saved = try #require(during)
        let logs = try stack.logs(of: store.deviceID)
        let snapshotLogs = logs.filter { $0.header.outbox == nil }
        let exported = logs.filter { $0.header.outbox != nil }
        #expect(snapshotLogs.flatMap(\.changes).map(\.object).contains(before.id))
        #expect(!snapshotLogs.flatMap(\.changes).map(\.object).contains(saved))
        #expect(exported.flatMap(\.changes).filter { $0.object == saved }.count == 1)
        #expect(try stack.stores[1].item(before.id).body == "in the snapshot")
        #expect(try stack.stores[1].item(saved).body == "saved after the snapshot")
        let dumps = try stack.dumps()
        #expect(dumps[0] == dumps[1])
    }

    @Test func importedChangesAreNeverExportedAgain() throws {
        let stack = try SyncStack(devices: 2)
        _ = try stack.stores[0].addNote(named: "n", body: "", in: nil)
        try stack.syncUntilQuiet()
        #expect(try stack.stores[1].outboxEntries().isEmpty)
        let (sequences, _) = try CloudContainer.create(in: stack.cloud).logSequences(of: stack.stores[1].deviceID)
        #expect(sequences.isEmpty)
    }

    @Test func attachmentsTravelWithTheirBlobs() throws {
        let stack = try SyncStack(devices: 2)
        let note = try stack.stores[0].addNote(named: "photo", body: "", in: nil)
        let attachment = try stack.stores[0].attachImages([SampleFiles.image("plain.png")], to: note.id)[0]
        try stack.syncUntilQuiet()
        let copied = try stack.stores[1].attachments(of: note.id)
        #expect(copied == [attachment])
        #expect(try stack.stores[1].data(of: copied[0]) == Data(contentsOf: SampleFiles.image("plain.png")))
        #expect(try stack.stores[1].check() == [])
    }

    @Test func anAttachmentPurgedBeforeItWasExportedDoesNotStopSync() throws {
        let stack = try SyncStack(devices: 2)
        let note = try stack.stores[0].addNote(named: "short-lived", body: "", in: nil)
        _ = try stack.stores[0].attachImages([SampleFiles.image("plain.png")], to: note.id)
        try stack.stores[0].trash(note.id)
        try stack.stores[0].emptyTrash()
        _ = try stack.stores[0].addNote(named: "after", body: "", in: nil)
        let report = try stack.engines[0].syncNow()
        #expect(report.exportedLogs > 0)
        let imported = try stack.engines[1].syncNow()
        #expect(imported.waiting.isEmpty)
        #expect(try stack.stores[1].fetch(ItemRequest()).map(\.name) == ["after"])
        #expect(try stack.stores[0].outboxEntries().isEmpty)
    }

    @Test func aContainerRecreatedOverOldLogsSyncsAgain() throws {
        let stack = try SyncStack(devices: 2)
        _ = try stack.stores[0].addNote(named: "one", body: "", in: nil)
        try stack.syncUntilQuiet()
        _ = try stack.stores[0].addNote(named: "two", body: "", in: nil)
        try stack.syncUntilQuiet()
        // The sentinel is replaced; the old logs stay in the folder.
        try FileManager.default.removeItem(at: stack.cloud.appendingPathComponent("NoteCollector/container.json"))
        for (index, engine) in stack.engines.enumerated() {
            #expect(throws: SyncError.self) { try engine.syncNow() }
            try engine.enable(cloud: stack.cloud, deviceName: "device-\(index)")
        }
        _ = try stack.stores[0].addNote(named: "three", body: "", in: nil)
        try stack.syncUntilQuiet()
        #expect(try stack.stores[1].fetch(ItemRequest()).map(\.name).sorted() == ["one", "three", "two"])
        let dumps = try stack.dumps()
        #expect(dumps[0] == dumps[1])
    }

    @Test func removingTheSentinelSwitchesSyncOff() throws {
        let stack = try SyncStack(devices: 2)
        _ = try stack.stores[0].addNote(named: "kept", body: "", in: nil)
        try stack.syncUntilQuiet()
        try FileManager.default.removeItem(at: stack.cloud.appendingPathComponent("NoteCollector/container.json"))
        _ = try stack.stores[1].addNote(named: "made while off", body: "", in: nil)
        #expect(throws: SyncError.self) { try stack.engines[1].syncNow() }
        let status = try stack.engines[1].status()
        #expect(status.state == .off)
        #expect(status.reason?.contains("container.json") == true)
        #expect(try stack.stores[1].fetch(ItemRequest()).map(\.name).sorted() == ["kept", "made while off"])
        // Enabling again makes a new container and pushes everything; the other device follows.
        try stack.engines[1].enable(cloud: stack.cloud, deviceName: "device-1")
        #expect(throws: SyncError.self) { try stack.engines[0].syncNow() }
        try stack.engines[0].enable(cloud: stack.cloud, deviceName: "device-0")
        try stack.syncUntilQuiet()
        let dumps = try stack.dumps()
        #expect(dumps[0] == dumps[1])
        #expect(try stack.stores[0].fetch(ItemRequest()).map(\.name).sorted() == ["kept", "made while off"])
    }
}
