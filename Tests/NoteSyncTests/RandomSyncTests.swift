import Foundation
import NoteStore
import NoteSync
import NoteTestSupport
import Testing

/// Random histories on three devices over one cloud folder: random changes on random devices,
/// with random syncs in between, must end with every device showing the same thing, every item
/// that was not purged everywhere, and every store sound.
///
/// The seed fixes the operations and the syncs; the clocks come from the wall clock, so that a
/// failing seed replays the same history, though concurrent edits in one millisecond may be
/// ordered otherwise.
@Suite struct RandomSyncTests {
    static let seeds: [UInt64] = Array(1...200)

    @Test(arguments: seeds)
    func randomHistoriesConverge(seed: UInt64) throws {
        let stack = try SyncStack(devices: 3)
        let editor = RandomEditor(seed: seed)
        let steps = Int.random(in: 20...40, using: &editor.random)
        for _ in 0..<steps {
            let device = Int.random(in: 0..<3, using: &editor.random)
            if editor.random.chance(30) {
                let report = try stack.engines[device].syncNow()
                #expect(report.skipped.isEmpty, "seed \(seed): \(report.skipped)")
            } else {
                try editor.change(stack.stores[device])
            }
        }
        try stack.syncUntilQuiet()
        for (index, engine) in stack.engines.enumerated() {
            let report = try engine.syncNow()
            #expect(report.exportedLogs == 0 && report.importedLogs == 0, "seed \(seed): device \(index) is not quiet")
            #expect(report.waiting.isEmpty && report.skipped.isEmpty, "seed \(seed): \(report.waiting) \(report.skipped)")
            #expect(report.leftOut == 0, "seed \(seed): device \(index) left changes out")
        }
        let dumps = try stack.dumps()
        #expect(dumps[1] == dumps[0], "seed \(seed): devices 0 and 1 differ")
        #expect(dumps[2] == dumps[0], "seed \(seed): devices 0 and 2 differ")
        for (index, store) in stack.stores.enumerated() {
            #expect(try editor.problems(in: store) == [], "seed \(seed): device \(index)")
            #expect(try store.check() == [], "seed \(seed): device \(index)")
            #expect(try store.outboxEntries().isEmpty, "seed \(seed): device \(index) has unexported changes")
        }
    }

    @Test func theGeneratorIsTheReferenceSplitMix64() {
        // The first outputs for seed 0 of the reference implementation (Vigna, splitmix64.c).
        var random = SplitMix64(seed: 0)
        #expect(random.next() == 0xE220_A839_7B1D_CDAF)
        #expect(random.next() == 0x6E78_9E6A_A1B9_65F4)
        #expect(random.next() == 0x06C4_5D18_8009_454F)
    }
}
