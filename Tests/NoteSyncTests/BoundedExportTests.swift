import Foundation
import NoteStore
@testable import NoteSync
import NoteTestSupport
import Testing

/// Export reads the outbox a page at a time and writes each log when it is full: what it
/// publishes is what reading the outbox whole published. (The snapshot that enabling pushes,
/// read while the store changes: `SyncBasicsTests`.)
@Suite struct BoundedExportTests {
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
        let logs = try stack.logs(of: store.deviceID)
        #expect(logs.count >= 2, "the notes take several logs")
        let ranges = try logs.map { try #require($0.header.outbox) }
        #expect(ranges.first?.lowerBound == first)
        #expect(ranges.last?.upperBound == last)
        for (earlier, later) in zip(ranges, ranges.dropFirst()) { #expect(later.lowerBound == earlier.upperBound + 1) }
        #expect(Set(logs.flatMap { $0.changes.map(\.object) }) == Set(made))
        try stack.syncUntilQuiet()
        #expect(try stack.stores[1].fetch(ItemRequest(kind: .note)).count == count)
    }
}
