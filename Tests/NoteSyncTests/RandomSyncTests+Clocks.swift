import Foundation
import NoteStore
@testable import NoteSync
import NoteTestSupport
import Synchronization
import Testing

/// Wall clocks of the devices of one process, each moved by an offset that a test changes as
/// it goes: ahead, behind, or jumping from one to the other.
final class DeviceClocks: Sendable {
    private let offsets: Mutex<[TimeInterval]>

    init(offsets: [TimeInterval]) {
        self.offsets = Mutex(offsets)
    }

    /// The clock of device `index`.
    func clock(_ index: Int) -> WallClock {
        WallClock { [self] in Date().addingTimeInterval(offsets.withLock { $0[index] }) }
    }

    func set(_ index: Int, to offset: TimeInterval) {
        offsets.withLock { $0[index] = offset }
    }

    var all: [TimeInterval] { offsets.withLock { $0 } }
}

extension RandomSyncTests {
    static let year: TimeInterval = 365 * 86400
    /// The offsets a device's clock takes: on time, a little off, and years ahead or behind.
    static let clockOffsets: [TimeInterval] = [0, 0, 90, -90, 86400, 2 * year, 5 * year, -year, -3 * year, -5 * year]

    /// Random histories on three devices whose wall clocks are off by up to five years, ahead
    /// or behind, and jump now and then, with moves, trash, restore and purge favoured: every
    /// change a device makes after seeing another is ordered after it, so every device, and a
    /// device that joins at the end, shows the same thing.
    @Test(arguments: seeds)
    func randomHistoriesConvergeUnderSkewedClocks(seed: UInt64) throws {
        let editor = RandomEditor(seed: seed, favouring: [.move, .trash, .restore, .purge, .editName])
        let clocks = DeviceClocks(offsets: (0..<3).map { _ in editor.random.pick(Self.clockOffsets) ?? 0 })
        let stack = try SyncStack(devices: 3, clocks: (0..<3).map(clocks.clock))
        let first = Int.random(in: 0..<3, using: &editor.random)
        try editor.populate(stack.stores[first])
        for device in [first, (first + 1) % 3, (first + 2) % 3] { try stack.engines[device].syncNow() }
        var reports: [SyncReport] = []
        for _ in 0..<Int.random(in: 20...30, using: &editor.random) {
            let device = Int.random(in: 0..<3, using: &editor.random)
            if editor.random.chance(10) {
                clocks.set(device, to: editor.random.pick(Self.clockOffsets) ?? 0)
            } else if editor.random.chance(35) {
                reports.append(try stack.engines[device].syncNow())
            } else {
                try editor.change(stack.stores[device])
            }
        }
        var round = try Self.settle(stack, reports: &reports)
        reports.append(try stack.join())
        round = try Self.settle(stack, reports: &reports)
        let context = "seed \(seed), clock offsets \(clocks.all)"
        #expect(round.allSatisfy { $0.exportedLogs + $0.importedLogs == 0 }, "\(context): sync never settled")
        #expect(round.flatMap(\.waiting).map(\.path) == [], "\(context)")
        #expect(reports.flatMap(\.skipped) == [], "\(context)")
        #expect(reports.map(\.leftOut).reduce(0, +) == 0, "\(context): changes were left out")
        let dumps = try stack.dumps()
        for index in dumps.indices.dropFirst() {
            #expect(dumps[index] == dumps[0], "\(context): devices 0 and \(index) differ")
        }
        for (index, store) in stack.stores.enumerated() {
            #expect(try editor.problems(in: store) == [], "\(context): device \(index)")
            #expect(try editor.lostBodies(in: store) == [], "\(context): device \(index) lost text")
            #expect(try store.check() == [], "\(context): device \(index)")
            #expect(try store.outboxEntries().isEmpty, "\(context): device \(index) has unexported changes")
        }
    }
}
