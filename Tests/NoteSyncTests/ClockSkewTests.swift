import Foundation
import NoteStore
@testable import NoteSync
import NoteSyncTestSupport
import NoteTestSupport
import Testing

/// No clock read from the cloud, however far ahead, makes a device write a clock that readers
/// refuse or stop syncing; a device that runs ahead is named (docs/sync-format.md, "Clocks and
/// stamps").
@Suite struct ClockSkewTests {
    /// A valid log of one new note, written by `device` with `clock`.
    static func log(container: UUID, device: UUID, clock: UInt64, name: String) -> Data {
        HandMadeLog.encode([HandMadeLog.noteInsert(named: name, clock: clock)], container: container, device: device)
    }

    func place(_ data: Data, device: UUID, in stack: SyncStack) throws {
        let file = stack.cloud.appendingPathComponent(SyncEngine.defaultContainerName)
            .appendingPathComponent(CloudContainer.logPath(device: device, sequence: 1))
        try FileManager.default.createDirectory(at: file.deletingLastPathComponent(), withIntermediateDirectories: true)
        try data.write(to: file)
    }

    @Test func aLogWithTheLargestClockLeavesEveryDeviceSyncing() throws {
        let stack = try SyncStack(devices: 2)
        let identity = try #require(try SyncState(stack.stores[0]).containerID)
        let hostile = UUID()
        try place(
            Self.log(container: identity, device: hostile, clock: HybridClock.maximum, name: "from the end of time"),
            device: hostile, in: stack)
        try stack.syncUntilQuiet()
        let before = Date()
        for (index, store) in stack.stores.enumerated() {
            _ = try store.addNote(named: "after \(index)", body: "", in: nil)
            let clock = try #require(try store.outboxEntries().last?.clock)
            #expect(clock < HybridClock.maximum)
            // The clock moved at most a minute past the wall clock, not to the end of time.
            #expect(clock <= HybridClock.physical(before.addingTimeInterval(ClockSkew.adoptionBound + 60)))
        }
        try stack.syncUntilQuiet()
        let dumps = try stack.dumps()
        #expect(dumps[0] == dumps[1])
        for name in ["from the end of time", "after 0", "after 1"] { #expect(dumps[0].contains(name)) }
        let status = try stack.engines[0].status()
        let ahead = try #require(status.devices.first { $0.id == hostile }?.clockAhead)
        #expect(ahead > 4000 * 365 * 86400)
        #expect(status.devices.filter { $0.id != hostile }.allSatisfy { $0.clockAhead == nil })
    }

    @Test func aClockUnderAMinuteAheadIsAdoptedAndOneBeyondIsNot() {
        let now = Date(timeIntervalSince1970: 1_763_717_400)
        let seconds = HybridClock.physical(now.addingTimeInterval(30))
        #expect(ClockSkew.adoptable(seconds, now: now) == seconds)
        let year = HybridClock.physical(now.addingTimeInterval(365 * 86400))
        #expect(
            ClockSkew.adoptable(year, now: now) == HybridClock.physical(now.addingTimeInterval(ClockSkew.adoptionBound))
        )
        #expect(ClockSkew.adoptable(HybridClock.maximum, now: now) < HybridClock.maximum)
    }

    @Test func aDeviceIsNamedOnlyWhenItsSavesRunMoreThanAMinuteAhead() throws {
        let now = Date(timeIntervalSince1970: 1_763_717_400)
        let device = UUID(), container = UUID()
        func log(ahead seconds: TimeInterval) throws -> TransactionLog {
            try LogCodec.decode(
                Self.log(
                    container: container, device: device, clock: HybridClock.physical(now.addingTimeInterval(seconds)),
                    name: "n"))
        }
        #expect(ClockSkew.ahead(of: try log(ahead: 30), now: now) == nil)
        #expect(ClockSkew.ahead(of: try log(ahead: -3600), now: now) == nil)
        #expect(ClockSkew.ahead(of: try log(ahead: 90), now: now).map { Int($0) } == 90)
        #expect(ClockSkew.describe(90) == "1 minute")
        #expect(ClockSkew.describe(365 * 86400) == "365 days")
        #expect(ClockSkew.describe(4500 * 365.25 * 86400) == "4,500 years")
    }

    @Test func theClockNeverPassesTheLargestTheFormatHolds() {
        let farFuture = Date(timeIntervalSince1970: 4500 * 365.25 * 86400 + 1_763_717_400)
        #expect(HybridClock.physical(farFuture) <= HybridClock.maximum)
        #expect(HybridClock.tick(after: 0, now: farFuture) <= HybridClock.maximum)
        #expect(HybridClock.tick(after: HybridClock.maximum - 1) == HybridClock.maximum)
        #expect(HybridClock.tick(after: HybridClock.maximum) == HybridClock.maximum)
        #expect(HybridClock.tick(after: UInt64.max) == HybridClock.maximum)
        // Saves in the same far-future millisecond still tick apart, until the counter runs out.
        let first = HybridClock.tick(after: 0, now: farFuture)
        #expect(HybridClock.tick(after: first, now: farFuture) == first + 1)
    }
}
