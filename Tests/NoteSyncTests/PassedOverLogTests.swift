import Foundation
import NoteStore
@testable import NoteSync
import NoteTestSupport
import Testing

/// A valid log whose header names another container (rewritten, with its checksum) is passed
/// over by every reader, which says so in its registration; its writer publishes its content
/// again, and compaction keeps the log until every device that passed it over has the content.
@Suite struct PassedOverLogTests {
    @Test func aLogNamingAnotherContainerIsPublishedAgainAndKept() throws {
        let stack = try SyncStack(devices: 2)
        let (writer, reader) = (stack.stores[0], stack.stores[1])
        try writer.addNote(named: "Before", body: "one", in: nil)
        try stack.syncUntilQuiet()
        let lost = try writer.addNote(named: "Lost", body: "two", in: nil)
        try stack.engines[0].syncNow()
        let sequence = try stack.rewriteNewestLog(of: writer.deviceID)

        let passing = try stack.engines[1].syncNow()
        #expect(passing.skipped.map(\.reason) == [.foreignContainer])
        #expect(try reader.fetch(ItemRequest()).map(\.name) == ["Before"])
        guard case let .present(registration) = try stack.container().registration(of: reader.deviceID) else {
            Issue.record("the reader's registration is not there")
            return
        }
        #expect(registration.passedOver == [writer.deviceID: [sequence]])

        // The writer sees it in the registration at its next sync, publishes the content again,
        // and its compaction keeps the log the reader passed over.
        let compacted = try stack.engines[0].compact()
        #expect(compacted.report.exportedLogs == 1)
        let logs = try stack.container().logSequences(of: writer.deviceID).sequences
        #expect(logs.contains(sequence), "the passed-over log was removed: \(logs)")

        try stack.syncUntilQuiet()
        #expect(try reader.item(lost.id, includingBody: true).body == "two")
        #expect(try stack.engines[0].syncNow().exportedLogs == 0, "published again once only")
        try stack.join()
        try stack.syncUntilQuiet()
        let dumps = try stack.dumps()
        #expect(dumps[1] == dumps[0])
        #expect(dumps[2] == dumps[0])
        #expect(try stack.stores[2].fetch(ItemRequest()).map(\.name).sorted() == ["Before", "Lost"])
    }

    @Test func compactionCountsAPassedOverLogAsHadOnceItsContentArrived() throws {
        let stack = try SyncStack(devices: 2)
        let writer = stack.stores[0]
        try writer.addNote(named: "Lost", body: "two", in: nil)
        try stack.engines[0].syncNow()
        let sequence = try stack.rewriteNewestLog(of: writer.deviceID)
        try stack.engines[1].syncNow()
        try stack.engines[0].syncNow()
        // The reader applies the logs published again, and says so.
        _ = try stack.engines[1].compact()
        let removed = try stack.engines[0].compact().removedLogs
        #expect(removed > 0)
        #expect(!(try stack.container().logSequences(of: writer.deviceID).sequences.contains(sequence)))
    }

    @Test func theRegistrationWritesPassedOverLogsAsRanges() throws {
        let device = UUID()
        var registration = DeviceRegistration(container: UUID(), device: UUID(), name: "laptop", modelVersion: 8)
        registration.passedOver = [device: [3, 7, 8, 9]]
        let data = try JSONEncoder().encode(registration)
        #expect(
            String(decoding: data, as: UTF8.self).contains("\"passedOver\":{\"\(device.storeString)\":[[3,3],[7,9]]}"))
        #expect(try JSONDecoder().decode(DeviceRegistration.self, from: data).passedOver == [device: [3, 7, 8, 9]])
        // A value not understood is left out; the registration still reads.
        let odd = String(decoding: data, as: UTF8.self).replacingOccurrences(of: "[[3,3],[7,9]]", with: "[[9,7]]")
        #expect(try JSONDecoder().decode(DeviceRegistration.self, from: Data(odd.utf8)).passedOver == nil)
    }
}
