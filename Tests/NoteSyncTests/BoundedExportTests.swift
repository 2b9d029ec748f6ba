import Foundation
import NoteStore
@testable import NoteSync
import NoteTestSupport
import Testing

/// Export and the snapshot push read the store a part at a time and write each log when it is
/// full: what they publish is what reading it whole published.
@Suite struct BoundedExportTests {
    /// The logs of `device` in the container, in order.
    private func logs(of device: UUID, _ stack: SyncStack) throws -> [TransactionLog] {
        let container = try stack.container()
        return try container.logSequences(of: device).sequences.map {
            try LogCodec.decode(container.readLog(device: device, sequence: $0))
        }
    }

    /// An outbox of more rows than a page is exported whole, and the logs' ranges of outbox
    /// rows follow each other from the first row to the last, without a gap.
    @Test func anOutboxOfManyPagesIsExportedWhole() throws {
        let stack = try SyncStack(devices: 2)
        let store = stack.stores[0]
        let count = LogExporter.pageSize + 300
        let context = store.makeContext()
        // Bodies of 3 KB, so that the logs are cut by size inside a page and across pages.
        let body = String(repeating: "a line of the body\n", count: 160)
        var made: [UUID] = []
        for index in 0..<count { made.append(context.insertNote(named: "note \(index)", body: body).id) }
        _ = try context.save()
        let rows = try store.outboxEntries()
        let first = try #require(rows.first?.sequence)
        let last = try #require(rows.last?.sequence)
        _ = try stack.engines[0].syncNow()
        #expect(try store.outboxCount() == 0)
        let logs = try logs(of: store.deviceID, stack)
        #expect(logs.count >= 2, "the notes take several logs")
        let ranges = try logs.map { try #require($0.header.outbox) }
        #expect(ranges.first?.lowerBound == first)
        #expect(ranges.last?.upperBound == last)
        for (earlier, later) in zip(ranges, ranges.dropFirst()) { #expect(later.lowerBound == earlier.upperBound + 1) }
        #expect(Set(logs.flatMap { $0.changes.map(\.object) }) == Set(made))
        try stack.syncUntilQuiet()
        #expect(try stack.stores[1].fetch(ItemRequest(kind: .note)).count == count)
    }

    /// The snapshot `sync enable` pushes is the store as it was when it was taken, although it
    /// is read while the store changes: a save made in between goes once, in a log of its own
    /// outbox row, not in the snapshot's logs.
    @Test func theSnapshotIsTheStoreAsItWasWhenTaken() throws {
        let stack = try SyncStack(devices: 2, enable: false)
        let store = stack.stores[0]
        let before = try store.addNote(named: "Before", body: "in the snapshot", in: nil)
        nonisolated(unsafe) var during: UUID?
        stack.engines[0].snapshotTaken = {
            during = try store.addNote(named: "During", body: "saved after the snapshot", in: nil).id
        }
        _ = try stack.engines[0].enable(cloud: stack.cloud, deviceName: "device-0")
        let saved = try #require(during)
        let logs = try logs(of: store.deviceID, stack)
        let snapshotLogs = logs.filter { $0.header.outbox == nil }
        let exported = logs.filter { $0.header.outbox != nil }
        #expect(snapshotLogs.flatMap(\.changes).map(\.object).contains(before.id))
        #expect(!snapshotLogs.flatMap(\.changes).map(\.object).contains(saved))
        #expect(exported.flatMap(\.changes).filter { $0.object == saved }.count == 1)
    }
}
