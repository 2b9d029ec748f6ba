import Foundation
import NoteStore
@testable import NoteSync
import NoteTestSupport
import Testing

/// A device whose newest logs were removed from the container after the others applied them:
/// a new device waits for them and says so in its registration; their writer covers them with
/// a baseline at its next sync, and the new device catches up through it.
@Suite struct AwaitedLogTests {
    /// Device 0 publishes three logs, device 1 applies them and publishes one that depends on
    /// the last; then device 0's last two logs are removed. Returns the stack and their
    /// sequences.
    static func newestLogsRemoved(passphrase: String? = nil) throws -> (SyncStack, [Int64]) {
        let stack = try SyncStack(devices: 2, passphrase: passphrase)
        try stack.stores[0].addNote(named: "one", body: "first", in: nil)
        try stack.syncUntilQuiet()
        try stack.stores[0].addNote(named: "two", body: "second", in: nil)
        try stack.engines[0].syncNow()
        try stack.stores[0].addNote(named: "three", body: "third", in: nil)
        try stack.engines[0].syncNow()
        try stack.engines[1].syncNow()
        try stack.stores[1].addNote(named: "four", body: "after three", in: nil)
        try stack.engines[1].syncNow()
        let container = try stack.container()
        let writer = stack.stores[0].deviceID
        let removed = Array(try container.logSequences(of: writer).sequences.suffix(2))
        for sequence in removed {
            try FileManager.default.removeItem(
                at: container.url.appendingPathComponent(CloudContainer.logPath(device: writer, sequence: sequence)))
        }
        return (stack, removed)
    }

    func registration(of store: Store, in stack: SyncStack) throws -> DeviceRegistration? {
        guard case let .present(registration) = try stack.container().registration(of: store.deviceID) else {
            return nil
        }
        return registration
    }

    func names(_ store: Store) throws -> [String] {
        try store.fetch(ItemRequest()).map { $0.name }.sorted()
    }

    @Test(arguments: [nil, "a passphrase"])
    func theWriterCoversRemovedLogsWithABaselineWhenANewDeviceWaitsForThem(passphrase: String?) throws {
        let (stack, removed) = try Self.newestLogsRemoved(passphrase: passphrase)
        let writer = stack.stores[0].deviceID
        let joined = try stack.join()
        #expect(!joined.waiting.isEmpty, "\(joined)")
        let newcomer = stack.stores[2]
        #expect(try names(newcomer) == ["one"])
        #expect(try registration(of: newcomer, in: stack)?.waiting?.logs == [writer: removed[0]])
        // Syncing again changes nothing while the writer has not acted.
        #expect(try stack.engines[2].syncNow().baseline == nil)

        // The writer's next sync sees the new device wait, and writes a baseline that holds them.
        try stack.engines[0].syncNow()
        let catalog = try BaselineCatalog.read(try stack.container(), containerID: try stack.container().identity)
        #expect(
            catalog.entries.contains { $0.manifest.device == writer && ($0.manifest.vector[writer] ?? 0) >= removed[1] }
        )
        let caughtUp = try stack.engines[2].syncNow()
        #expect(caughtUp.baseline != nil && caughtUp.waiting.isEmpty, "\(caughtUp)")
        #expect(try names(newcomer) == ["four", "one", "three", "two"])
        #expect(try registration(of: newcomer, in: stack)?.waiting == nil)
        try stack.syncUntilQuiet()
        #expect(Set(try stack.dumps()).count == 1)

        // Nothing waits any more: the writer's later syncs write no other baseline.
        let count = try stack.container().baselineNames().names.count
        try stack.engines[0].syncNow()
        #expect(try stack.container().baselineNames().names.count == count)
    }

    /// A device that waits for a log only until it arrives (it is there and reads) makes its
    /// writer write nothing.
    @Test func aLogThatIsThereIsNotCoveredAgain() throws {
        let stack = try SyncStack(devices: 2)
        try stack.stores[0].addNote(named: "one", body: "", in: nil)
        try stack.syncUntilQuiet()
        let container = try stack.container()
        var registration = try #require(try registration(of: stack.stores[1], in: stack))
        registration.waiting = AwaitedFiles(logs: [stack.stores[0].deviceID: 1])
        try container.register(registration)
        try stack.engines[0].syncNow()
        #expect(try container.baselineNames().names.isEmpty)
    }
}
