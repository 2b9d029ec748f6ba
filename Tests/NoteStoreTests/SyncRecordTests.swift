import Foundation
import GRDB
@testable import NoteStore
import NoteTestSupport
import Testing

/// Sync's records: typed values that read back as written, and the key-value ledger of
/// earlier builds moved into them when a store opens.
@Suite struct SyncRecordTests {
    static let deviceA = UUID(uuidString: "0A6C1E52-3D4B-4F6A-9C21-6F0E0D3C9A11")!
    static let deviceB = UUID(uuidString: "B7E3F2A0-1C5D-4E8B-8A9F-2D4C6E8F0A22")!
    static let container = UUID(uuidString: "5D2E7A91-0B3C-4D6E-8F1A-3B5C7D9E1F33")!
    static let date = Date(timeIntervalSince1970: 1_767_225_600.123)

    /// A store of model version 8 (`Fixtures/store-v8.sqlite`) whose ledger holds a value for
    /// every key that earlier builds wrote, in the form they wrote it.
    func storeWithLedger(_ values: [String: String]) throws -> (TemporaryFolder, URL) {
        let folder = TemporaryFolder()
        let storeURL = folder.appending("store")
        try FileManager.default.createDirectory(at: storeURL, withIntermediateDirectories: true)
        let file = storeURL.appendingPathComponent("store.sqlite")
        try FileManager.default.copyItem(
            at: storeFixtures.appendingPathComponent("store-v8.sqlite"), to: file)
        let queue = try DatabaseQueue(path: file.path)
        try queue.write { db in
            for (key, value) in values {
                try db.execute(literal: "INSERT OR REPLACE INTO sync_state(key, value) VALUES (\(key), \(value))")
            }
        }
        try queue.close()
        return (folder, storeURL)
    }

    static let ledger: [String: String] = [
        "outbox": "off",
        "applied.\(deviceA.storeString)": "12",
        "applied.\(deviceB.storeString)": "3",
        "passed.\(deviceB.storeString)": "2,5",
        "republished.4": "9",
        "clock.ahead.\(deviceA.storeString)": "120",
        "logs.awaited": "\(deviceA.storeString):13,\(deviceB.storeString):6",
        "blobs.awaited": "aa11,bb22",
        "baseline.unusable.baselines/x/000000000001.sqlite": "10:1.5:7,20:2.0:8\nits checksum is not its manifest's",
        "blobs.unused": #"{"cc33":"\#(date.isoText)"}"#,
        "export.sequence": "14",
        "cloud": "/srv/cloud",
        "container.name": "NoteCollector",
        "container.id": container.storeString,
        "container.created": date.isoText,
        "container.shared": "1",
        "container.encrypted": "1",
        "device.name": "laptop",
        "state": "off",
        "state.reason":
            "the container is another one (identity \(deviceB.storeString), "
            + "this device attached to \(container.storeString)); nothing was merged or deleted",
        "state.since": date.isoText,
        "last.sync": date.isoText,
        "cloud.access": "group",
        "export.error": "\(date.isoText) cannot write 'logs': disk full",
        "temporary.cleanup": date.isoText,
        "enable.returning": "1",
        "registration.pending": "1",
        "device.replaced": deviceB.storeString,
        "retention.days": "45",
        "ack.time": date.isoText,
        "history.keep.versions": "10",
        "history.keep.days": "30",
        "history.dropped": "1",
        "own.logs.checked": date.isoText,
        "baseline.sequence": "3",
        "last.report": #"{"skipped":[],"waiting":[{"path":"logs\/x\/1.log","reason":"its blobs"}]}"#,
    ]

    @Test func everyValueOfTheLedgerMovesIntoTypedRecords() throws {
        let (folder, storeURL) = try storeWithLedger(Self.ledger)
        _ = folder
        let store = try Store(folder: storeURL)
        let snapshot = try store.syncSnapshot()
        var record = SyncRecord()
        record.recordsChanges = true
        record.state = .off
        record.reason = .anotherContainer(found: Self.deviceB, attached: Self.container)
        record.since = Self.date
        record.cloud = URL(fileURLWithPath: "/srv/cloud")
        record.containerName = "NoteCollector"
        record.containerID = Self.container
        record.containerCreated = Self.date
        record.containerShared = true
        record.encrypted = true
        record.groupAccess = true
        record.deviceName = "laptop"
        record.replacedDevice = Self.deviceB
        record.returning = true
        record.registrationPending = true
        record.exportedSequence = 14
        record.exportError = SyncRecord.ExportFailure(date: Self.date, message: "cannot write 'logs': disk full")
        record.lastSync = Self.date
        record.lastReport = Self.ledger["last.report"]
        record.temporaryCleanup = Self.date
        record.ownLogsChecked = Self.date
        record.acknowledged = Self.date
        record.baselineSequence = 3
        record.retentionDays = 45
        record.historyKeepVersions = 10
        record.historyKeepDays = 30
        record.historyDropped = true
        var expected = SyncSnapshot(record: record)
        expected.applied = [Self.deviceA: 12, Self.deviceB: 3]
        expected.passedOver = [Self.deviceB: [2, 5]]
        expected.republished = [4: 9]
        expected.clockAhead = [Self.deviceA: 120]
        expected.awaitedLogs = [Self.deviceA: 13, Self.deviceB: 6]
        expected.awaitedBlobs = ["aa11", "bb22"]
        expected.unusableBaselines = [
            "baselines/x/000000000001.sqlite": .init(
                identity: "10:1.5:7,20:2.0:8", reason: "its checksum is not its manifest's")
        ]
        expected.unusedBlobs = ["cc33": Self.date]
        // Read with the ledger: the id the store replaced when it opened as a copy, and no
        // change waiting in the outbox.
        expected.replacedDevice = try #require(try store.replacedDeviceID)
        expected.hasOutboxEntries = false
        #expect(snapshot.record == expected.record)
        #expect(snapshot == expected)
        #expect(snapshot.record.reason?.description == Self.ledger["state.reason"])
        #expect(try store.recordsChanges())
        let left = try store.read { db in try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM sync_state") }
        #expect(left == 0)
        #expect(try store.check() == [])
    }

    /// The mark of a store that never synced stays what it says; without it, saves record.
    @Test func theMarkOfAStoreThatNeverSyncedMovesToo() throws {
        let (folder, storeURL) = try storeWithLedger([:])
        _ = folder
        let store = try Store(folder: storeURL)
        #expect(try !store.syncRecord().recordsChanges)
        #expect(try !store.recordsChanges())
        try store.startRecordingChanges()
        #expect(try store.recordsChanges())

        let fresh = try StoreFixture()
        #expect(try !fresh.store.recordsChanges())
        #expect(
            try fresh.store.syncSnapshot()
                == SyncSnapshot(
                    record: {
                        var record = SyncRecord(); record.recordsChanges = false; return record
                    }()))
    }

    @Test func aRecordReadsBackAsWritten() throws {
        let fixture = try StoreFixture()
        var written = SyncRecord()
        try fixture.store.recordSync { ledger in
            try ledger.update { record in
                record.state = .on
                record.reason = .newerFormat(7)
                record.since = Self.date
                record.cloud = URL(fileURLWithPath: "/srv/cloud")
                record.containerID = Self.container
                record.exportedSequence = 99
                record.exportError = .init(date: Self.date, message: "cannot write")
                record.retentionDays = 1.5
                record.historyKeepDays = 2
                written = record
            }
        }
        #expect(try fixture.store.syncRecord() == written)
        try fixture.store.recordSync { ledger in try ledger.update { $0.reason = nil } }
        written.reason = nil
        #expect(try fixture.store.syncRecord() == written)
    }

    @Test func theTimeOfASyncIsNotedWithOrWithoutARecord() throws {
        let fixture = try StoreFixture()
        let later = Self.date.addingTimeInterval(60)
        // Without the row (every store makes it), the first note makes it again.
        try fixture.store.database.write { db in try db.execute(sql: "DELETE FROM sync_record") }
        try fixture.store.recordSync { try $0.noteSync(at: Self.date, exportedSequence: 7) }
        var expected = SyncRecord()
        expected.lastSync = Self.date
        expected.exportedSequence = 7
        #expect(try fixture.store.syncRecord() == expected)
        try fixture.store.recordSync { try $0.noteSync(at: later) }
        expected.lastSync = later
        #expect(try fixture.store.syncRecord() == expected)
        try fixture.store.recordSync { try $0.noteSync(at: later, exportedSequence: 8) }
        expected.exportedSequence = 8
        #expect(try fixture.store.syncRecord() == expected)
    }

    @Test func perDeviceRecordsReadBackAsWritten() throws {
        let fixture = try StoreFixture()
        let changed = try fixture.store.recordSync { ledger in
            try ledger.setApplied(4, of: Self.deviceA)
            try ledger.setApplied(5, of: Self.deviceA)
            try ledger.setClockAhead(90, of: Self.deviceB)
            try ledger.notePassedOver(2, of: Self.deviceB)
            try ledger.notePassedOver(2, of: Self.deviceB)
            try ledger.noteRepublished([1, 2], through: 6)
            try ledger.setUnusableBaseline(.init(identity: "i", reason: "r"), at: "baselines/a/1.sqlite")
            try ledger.setUnusedBlobs(["dd44": Self.date])
            return try ledger.setAwaited(logs: [Self.deviceB: 3], blobs: ["ee55"])
        }
        #expect(changed)
        #expect(try !fixture.store.recordSync { try $0.setAwaited(logs: [Self.deviceB: 3], blobs: ["ee55"]) })
        var snapshot = try fixture.store.syncSnapshot()
        #expect(snapshot.applied == [Self.deviceA: 5])
        #expect(snapshot.clockAhead == [Self.deviceB: 90])
        #expect(snapshot.passedOver == [Self.deviceB: [2]])
        #expect(snapshot.republished == [1: 6, 2: 6])
        #expect(snapshot.unusableBaselines == ["baselines/a/1.sqlite": .init(identity: "i", reason: "r")])
        #expect(snapshot.unusedBlobs == ["dd44": Self.date])
        #expect(snapshot.awaitedLogs == [Self.deviceB: 3])
        #expect(snapshot.awaitedBlobs == ["ee55"])

        try fixture.store.recordSync { ledger in
            try ledger.forgetContainerRecords()
            try ledger.setClockAhead(nil, of: Self.deviceB)
            try ledger.setUnusableBaseline(nil, at: "baselines/a/1.sqlite")
            _ = try ledger.setAwaited(logs: [:], blobs: [])
        }
        snapshot = try fixture.store.syncSnapshot()
        #expect(snapshot == SyncSnapshot(record: snapshot.record).with(unusedBlobs: ["dd44": Self.date]))
    }

    /// Each reason reads back from its code and detail, and from the text earlier builds kept.
    @Test(arguments: [
        SyncStateReason.beingEnabled, .disabled(registrationRemoved: false), .disabled(registrationRemoved: true),
        .sentinelGone,
        .newerFormat(3), .anotherContainer(found: deviceA, attached: deviceB), .noLongerEncrypted, .nowEncrypted,
        .anotherKey,
        .registrationGone(device: deviceA), .other("something else"),
    ])
    func aReasonReadsBack(reason: SyncStateReason) throws {
        #expect(SyncStateReason(code: reason.code, detail: reason.detail) == reason)
        #expect(SyncStateReason(text: reason.description) == reason)
    }

    /// The snapshot says whether the outbox holds changes, read with the rest.
    @Test func theSnapshotSaysWhetherTheOutboxHoldsChanges() throws {
        let fixture = try StoreFixture(recordingChanges: true)
        #expect(try fixture.store.syncSnapshot().hasOutboxEntries == false)
        _ = try fixture.store.addNote(named: "waits", body: "", in: nil)
        #expect(try fixture.store.syncSnapshot().hasOutboxEntries)
        #expect(try fixture.store.syncSnapshot().replacedDevice == nil)
    }

    /// A value this build cannot read is an error that names it, never a made-up value.
    @Test func aBadValueIsAnError() throws {
        let fixture = try StoreFixture()
        try fixture.store.database.write { db in try db.execute(sql: "UPDATE sync_record SET reason = 'sleepy'") }
        #expect(throws: (any Error).self) { try fixture.store.syncRecord() }
    }
}

extension SyncSnapshot {
    fileprivate func with(unusedBlobs: [String: Date]) -> SyncSnapshot {
        var copy = self
        copy.unusedBlobs = unusedBlobs
        return copy
    }
}
