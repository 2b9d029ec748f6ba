import Foundation
import NoteStore
@testable import NoteSync
import NoteTestSupport
import Testing

/// Logs found in another device's folder: a device removes from its own folder what it did not
/// write, covers with a baseline what of its own went elsewhere, and goes on exporting.
@Suite struct MisplacedLogTests {
    func logFile(_ stack: SyncStack, device: UUID, sequence: Int64) throws -> URL {
        try stack.container().url.appendingPathComponent(CloudContainer.logPath(device: device, sequence: sequence))
    }

    /// A log of device 1 copied under the name of device 0's next log would stop device 0's
    /// exports for good ("holds other changes"): device 0 removes it and publishes its own.
    @Test func aLogOfAnotherDeviceUnderThisDevicesNextNameIsRemoved() throws {
        let stack = try SyncStack(devices: 2)
        _ = try stack.stores[0].addNote(named: "one", body: "", in: nil)
        _ = try stack.stores[1].addNote(named: "elsewhere", body: "", in: nil)
        try stack.syncUntilQuiet()
        let (first, second) = (stack.stores[0].deviceID, stack.stores[1].deviceID)
        let next = try SyncState(stack.stores[0]).exportedSequence + 1
        try FileManager.default.copyItem(
            at: try logFile(stack, device: second, sequence: 1), to: try logFile(stack, device: first, sequence: next))
        _ = try stack.stores[0].addNote(named: "two", body: "", in: nil)
        #expect(try stack.engines[0].syncNow().exportedLogs == 1)
        let log = try LogCodec.decode(try stack.container().readLog(device: first, sequence: next))
        #expect(log.header.device == first)
        try stack.syncUntilQuiet()
        #expect(Set(try stack.dumps()).count == 1)
        #expect(try stack.dumps()[1].contains("two"))
    }

    /// The folders of the two devices' logs trade places after device 0 published a log that
    /// device 1 has not applied: each device removes the other's logs from its folder and
    /// covers its own with a baseline, and both converge with every note, without waiting for
    /// the hourly check.
    @Test func swappedLogFoldersHealAtTheNextSyncs() throws {
        let stack = try SyncStack(devices: 2)
        _ = try stack.stores[0].addNote(named: "one", body: "", in: nil)
        _ = try stack.stores[1].addNote(named: "elsewhere", body: "", in: nil)
        try stack.syncUntilQuiet()
        _ = try stack.stores[0].addNote(named: "two", body: "", in: nil)
        try stack.engines[0].syncNow()
        let logs = try stack.container().url.appendingPathComponent(CloudName.logs)
        let (first, second) = (stack.stores[0].deviceID.storeString, stack.stores[1].deviceID.storeString)
        try FileManager.default.moveItem(
            at: logs.appendingPathComponent(first), to: logs.appendingPathComponent("aside"))
        try FileManager.default.moveItem(
            at: logs.appendingPathComponent(second), to: logs.appendingPathComponent(first))
        try FileManager.default.moveItem(
            at: logs.appendingPathComponent("aside"), to: logs.appendingPathComponent(second))
        try stack.syncUntilQuiet()
        #expect(Set(try stack.dumps()).count == 1)
        #expect(try stack.dumps()[1].contains("two"))
        // Each folder holds only its own device's logs.
        for device in [stack.stores[0].deviceID, stack.stores[1].deviceID] {
            for sequence in try stack.container().logSequences(of: device).sequences {
                #expect(
                    try LogCodec.decode(try stack.container().readLog(device: device, sequence: sequence)).header.device
                        == device)
            }
        }
        // A new device joins with every note.
        try stack.join()
        #expect(try stack.dumps()[2] == (try stack.dumps()[0]))
    }
}
