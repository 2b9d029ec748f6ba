import Foundation
import NoteStore
@testable import NoteSync
import NoteTestSupport
import Testing

/// Random histories on three devices over one cloud folder: random changes on random devices,
/// with random syncs in between (and now and then a device that disables sync and enables it
/// again, pushing its snapshot once more), must end with every device showing the same thing,
/// every item that was not purged everywhere, every body ever saved recoverable from history on
/// every device, and every store sound.
///
/// The seed fixes the operations and the syncs; the clocks come from the wall clock, so that a
/// failing seed replays the same history, though concurrent edits in one millisecond may be
/// ordered otherwise.
///
/// The suite runs 40 seeds, so that the test command stays within its time;
/// `NOTES_RANDOM_SEEDS=1000 swift test --filter RandomSyncTests` runs more (CONTRIBUTING.md,
/// "The long random tests"), and `NOTES_RANDOM_SEED=455` replays that one seed in every test
/// of the suite that takes seeds.
@Suite struct RandomSyncTests {
    static let seeds: [UInt64] =
        ProcessInfo.processInfo.environment["NOTES_RANDOM_SEED"].flatMap(UInt64.init).map { [$0] }
        ?? Array(
            1...UInt64(
                max(1, ProcessInfo.processInfo.environment["NOTES_RANDOM_SEEDS"].flatMap(Int.init) ?? 40)))

    @Test(arguments: seeds)
    func randomHistoriesConverge(seed: UInt64) throws {
        try Self.converge(seed: seed, passphrase: nil)
    }

    /// The same on an encrypted container, for a quarter of the seeds.
    @Test(arguments: seeds.prefix(max(1, seeds.count / 4)))
    func randomHistoriesConvergeOnAnEncryptedContainer(seed: UInt64) throws {
        try Self.converge(seed: seed, passphrase: "seed \(seed)")
    }

    /// The same on twelve devices, for a twentieth of the seeds: each device syncs less often,
    /// so that logs of many devices wait on one another, and a settled container has twelve
    /// devices' logs and registrations.
    @Test(arguments: seeds.prefix(max(1, seeds.count / 20)))
    func randomHistoriesConvergeOnTwelveDevices(seed: UInt64) throws {
        try Self.converge(seed: seed, passphrase: nil, devices: 12)
    }

    /// Long bodies are edited a line at a time now and then (body edits favoured here): some
    /// seeds' logs carry deltas.
    @Test func randomHistoriesCarryBodyDeltas() throws {
        var deltas = 0
        for seed: UInt64 in 1...20 {
            deltas += try Self.converge(seed: seed, passphrase: nil, favouring: [.editBody])
        }
        #expect(deltas > 0)
    }

    /// Runs one random history on `devices` devices to its end and checks it; returns how many
    /// body deltas its logs carried. With three devices a seed makes the history it always made.
    @discardableResult
    static func converge(
        seed: UInt64, passphrase: String?, favouring favoured: Set<RandomEditor.Operation> = [], devices: Int = 3
    ) throws -> Int {
        let stack = try SyncStack(devices: devices, passphrase: passphrase)
        let editor = RandomEditor(seed: seed, favouring: favoured)
        let first = Int.random(in: 0..<devices, using: &editor.random)
        try editor.populate(stack.stores[first])
        for offset in 0..<devices { try stack.engines[(first + offset) % devices].syncNow() }
        // About ten steps a device.
        let steps = Int.random(in: 20...30, using: &editor.random) * devices / 3
        var reports: [SyncReport] = []
        for _ in 0..<steps {
            let device = Int.random(in: 0..<devices, using: &editor.random)
            if editor.random.chance(5) {
                try stack.engines[device].disable(forget: false)
                reports.append(try stack.engines[device].enable(cloud: stack.cloud, deviceName: "device-\(device)"))
            } else if editor.random.chance(30) {
                reports.append(try stack.engines[device].syncNow())
            } else {
                try editor.change(stack.stores[device])
            }
        }
        let round = try Self.settle(stack, reports: &reports)
        let moved = round.map { $0.exportedLogs + $0.importedLogs }
        #expect(moved == Array(repeating: 0, count: devices), "seed \(seed): sync never settled")
        let waiting = round.flatMap(\.waiting).map(\.path)
        #expect(waiting == [], "seed \(seed)")
        let skipped = reports.flatMap(\.skipped)
        #expect(skipped == [], "seed \(seed)")
        let leftOut = reports.map(\.leftOut).reduce(0, +)
        #expect(leftOut == 0, "seed \(seed): changes were left out")
        let dumps = try stack.dumps()
        for index in 1..<devices {
            #expect(dumps[index] == dumps[0], "seed \(seed): devices 0 and \(index) differ")
        }
        let links = try stack.stores.map { try editor.linkResolutions(in: $0) }
        #expect(Set(links).count == 1, "seed \(seed): devices resolve links differently")
        for (index, store) in stack.stores.enumerated() {
            #expect(try editor.problems(in: store) == [], "seed \(seed): device \(index)")
            #expect(try editor.lostBodies(in: store) == [], "seed \(seed): device \(index) lost text")
            #expect(try store.check() == [], "seed \(seed): device \(index)")
            #expect(try store.outboxEntries().isEmpty, "seed \(seed): device \(index) has unexported changes")
        }
        return try Self.bodyDeltas(in: stack.container())
    }

    /// How many changes of the container's logs carry a body delta.
    static func bodyDeltas(in container: CloudContainer) throws -> Int {
        var count = 0
        for device in try container.logDevices().devices {
            for sequence in try container.logSequences(of: device).sequences {
                let data = try container.readLog(device: device, sequence: sequence, limit: LogCodec.maximumSize)
                count += try LogCodec.decode(data).changes.filter { $0.bodyDelta != nil }.count
            }
        }
        return count
    }

    /// The same, with baselines: devices write them at random points and compact (two without
    /// hearing of each other's make concurrent ones), a new device joins from the newest one part
    /// way, another joins with notes of its own, and one device is left behind (the others stop
    /// waiting for it) and catches up through a baseline with its own changes; every device ends
    /// the same and no text is lost.
    @Test(arguments: seeds.prefix(max(1, seeds.count / 4)))
    func randomHistoriesWithBaselinesConverge(seed: UInt64) throws {
        try Self.convergeWithBaselines(seed: seed, passphrase: nil)
    }

    /// The same on an encrypted container, for a tenth of the seeds.
    @Test(arguments: seeds.prefix(max(1, seeds.count / 10)))
    func randomHistoriesWithBaselinesConvergeOnAnEncryptedContainer(seed: UInt64) throws {
        try Self.convergeWithBaselines(seed: seed, passphrase: "seed \(seed)")
    }

    static func convergeWithBaselines(seed: UInt64, passphrase: String?) throws {
        let stack = try SyncStack(devices: 3, passphrase: passphrase)
        let editor = RandomEditor(seed: seed)
        try editor.populate(stack.stores[0])
        try stack.engines[0].syncNow()
        let steps = Int.random(in: 25...35, using: &editor.random)
        let joinAt = Int.random(in: 5..<steps, using: &editor.random)
        let arriveAt = Int.random(in: 5..<steps, using: &editor.random)
        let leaveAt = Int.random(in: 0..<steps, using: &editor.random)
        var reports: [SyncReport] = []
        for step in 0..<steps {
            if step == joinAt { reports.append(try stack.join()) }
            if step == leaveAt {
                try Self.leaveBehind(stack.stores[Int.random(in: 0..<3, using: &editor.random)], in: stack)
            }
            if step == arriveAt {
                let store = try stack.addStore()
                try editor.change(store)
                try editor.change(store)
                reports.append(
                    try stack.engines[stack.engines.count - 1].enable(cloud: stack.cloud, deviceName: "arriving"))
            }
            let device = Int.random(in: 0..<stack.stores.count, using: &editor.random)
            if editor.random.chance(8) {
                // Half the baselines may drop history (a few versions kept, none by age), of a
                // note just edited several times, two thirds of them after a quiet moment, when
                // it goes.
                let dropping = editor.random.chance(50)
                if dropping {
                    try editor.editOneBody(
                        on: stack.stores[device], times: Int.random(in: 2...6, using: &editor.random))
                    if editor.random.chance(67) { try stack.quiet() }
                }
                let keep = dropping ? Int.random(in: 1...3, using: &editor.random) : nil
                reports.append(
                    try stack.engines[device].compact(keepVersions: keep, keepDays: keep.map { _ in 0 }).report)
            } else if editor.random.chance(30) {
                reports.append(try stack.engines[device].syncNow())
            } else {
                try editor.change(stack.stores[device])
            }
        }
        let round = try Self.settle(stack, reports: &reports)
        #expect(round.allSatisfy { $0.exportedLogs + $0.importedLogs == 0 }, "seed \(seed): sync never settled")
        #expect(round.flatMap(\.waiting).map(\.path) == [], "seed \(seed)")
        #expect(reports.flatMap(\.skipped) == [], "seed \(seed)")
        #expect(reports.map(\.leftOut).reduce(0, +) == 0, "seed \(seed): changes were left out")
        // Devices that started from a baseline that dropped history hold less of it: the
        // versions all hold are the same everywhere, and each one missing is below a cut.
        let dumps = try stack.commonDumps()
        for index in dumps.indices.dropFirst() {
            #expect(dumps[index] == dumps[0], "seed \(seed): devices 0 and \(index) differ")
        }
        #expect(try stack.versionsMissingAboveCuts() == [], "seed \(seed)")
        for (index, store) in stack.stores.enumerated() {
            #expect(try editor.problems(in: store) == [], "seed \(seed): device \(index)")
            // The first three devices never started from a baseline: they hold every version.
            if index < 3 { #expect(try editor.lostBodies(in: store) == [], "seed \(seed): device \(index) lost text") }
            #expect(try store.check() == [], "seed \(seed): device \(index)")
        }
    }

    /// Makes the others take `store` for a device that has not synced for 40 days: they stop
    /// waiting for it when they compact, and it catches up through a baseline.
    static func leaveBehind(_ store: Store, in stack: SyncStack) throws {
        let container = try stack.container()
        guard case var .present(registration) = container.registration(of: store.deviceID) else { return }
        registration.synced = Date().addingTimeInterval(-40 * 86400)
        try container.register(registration)
        try store.recordSync { ledger in try ledger.update { $0.acknowledged = Date() } }
    }

    /// Every device syncs in turn until a whole round moves nothing; returns the last round.
    static func settle(_ stack: SyncStack, reports: inout [SyncReport]) throws -> [SyncReport] {
        var round: [SyncReport] = []
        for _ in 0..<10 {
            round = try stack.engines.map { try $0.syncNow() }
            reports += round
            if round.allSatisfy({ $0.exportedLogs + $0.importedLogs == 0 }) { break }
        }
        return round
    }

    @Test func theHistoriesMakeEveryKindOfChange() throws {
        let folder = TemporaryFolder()
        let store = try Store(folder: folder.appending("store"))
        let editor = RandomEditor(seed: 1)
        try editor.populate(store)
        // Ids are random, so picks differ from run to run: go on until each kind was made once
        // and the store refused one.
        for _ in 0..<1000
        where editor.refused == 0
            || RandomEditor.Operation.allCases.contains(where: { editor.performed[$0, default: 0] == 0 })
        {
            try editor.change(store)
        }
        for operation in RandomEditor.Operation.allCases {
            #expect(editor.performed[operation, default: 0] > 0, "\(operation)")
        }
        #expect(!editor.purged.isEmpty && !editor.attached.isEmpty && editor.refused > 0)
        #expect(try editor.problems(in: store) == [])
    }

    @Test func theGeneratorIsTheReferenceSplitMix64() {
        // The first outputs for seed 0 of the reference implementation (Vigna, splitmix64.c).
        var random = SplitMix64(seed: 0)
        #expect(random.next() == 0xE220_A839_7B1D_CDAF)
        #expect(random.next() == 0x6E78_9E6A_A1B9_65F4)
        #expect(random.next() == 0x06C4_5D18_8009_454F)
    }
}
