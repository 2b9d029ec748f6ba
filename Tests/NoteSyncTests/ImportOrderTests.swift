import Foundation
import NoteStore
@testable import NoteSync
import NoteTestSupport
import Testing

/// The same logs give the same state whatever order they arrive in, and applying them again
/// changes nothing.
///
/// Three devices make a random history in which they sometimes export without importing, so
/// that their logs are concurrent, and sometimes sync, so that later logs depend on other
/// devices' logs. Fresh devices then receive the files of the container one by one, in
/// different orders, syncing as they go: the importer must wait for missing logs,
/// dependencies and blobs, and end in the state of a device that received everything at once.
@Suite struct ImportOrderTests {
    /// The container of a finished history, with what a device that received it all shows.
    struct History {
        let stack: SyncStack
        let editor: RandomEditor
        /// The files of the container that carry changes: logs and blobs, relative to it.
        let files: [String]
        let logCount: Int
        /// The dump of a fresh device that enabled once every log was there.
        let expected: String

        var container: URL { stack.cloud.appendingPathComponent(SyncEngine.defaultContainerName) }
    }

    static func makeHistory(seed: UInt64) throws -> History {
        let stack = try SyncStack(devices: 3)
        let editor = RandomEditor(seed: seed)
        let container = try CloudContainer.create(in: stack.cloud)
        func exportOnly(_ device: Int) throws {
            _ = try LogExporter(store: stack.stores[device], container: container, containerID: container.identity)
                .export()
        }
        for _ in 0..<60 {
            let device = Int.random(in: 0..<3, using: &editor.random)
            let roll = Int.random(in: 0..<100, using: &editor.random)
            if roll < 20 {
                try exportOnly(device)
            } else if roll < 32 {
                try stack.engines[device].syncNow()
            } else {
                try editor.change(stack.stores[device])
            }
        }
        for device in 0..<3 { try exportOnly(device) }
        let files = try containerFiles(container.url)
        let latecomer = try Device(label: "latecomer")
        try latecomer.engine.enable(cloud: stack.cloud, deviceName: "latecomer")
        return History(
            stack: stack, editor: editor, files: files, logCount: files.filter { $0.hasPrefix("logs/") }.count,
            expected: try CanonicalDump.of(latecomer.store))
    }

    /// The logs and blobs of a container, logs in order of device and sequence.
    static func containerFiles(_ container: URL) throws -> [String] {
        var files: [String] = []
        let manager = FileManager.default
        for folder in try manager.contentsOfDirectory(atPath: container.appendingPathComponent("logs").path).sorted() {
            for name in try manager.contentsOfDirectory(atPath: container.appendingPathComponent("logs/\(folder)").path)
                .sorted()
            {
                files.append("logs/\(folder)/\(name)")
            }
        }
        for name in try manager.contentsOfDirectory(atPath: container.appendingPathComponent("blobs").path).sorted() {
            files.append("blobs/\(name)")
        }
        return files
    }

    /// A store of its own with its engine.
    final class Device {
        let folder: TemporaryFolder
        let store: Store
        let engine: SyncEngine

        init(label: String) throws {
            folder = TemporaryFolder("notes-\(label)")
            store = try Store(folder: folder.appending("store"))
            engine = SyncEngine(store: store)
        }
    }

    /// A new cloud folder holding the history's container as it was before any change arrived
    /// (its `container.json` and registrations), and a fresh device attached to it; then the
    /// files arrive in `order`, the device syncing after some of them and after the last.
    ///
    /// Returns the device's dump and how many of its syncs reported a waiting log. Every sync
    /// must succeed and skip nothing: a log that arrives early waits, it is not bad. With no
    /// scope, each sync imports what a watcher would after the files that arrived since the
    /// last (``SyncEngine/importScope(afterArrivalOf:)``).
    func replay(
        _ history: History, order: [String], random: inout SplitMix64, scope: SyncEngine.ImportScope? = .everything
    ) throws -> (dump: String, waits: Int) {
        let device = try Device(label: "arrivals")
        let cloud = device.folder.appending("cloud")
        let target = cloud.appendingPathComponent(SyncEngine.defaultContainerName)
        let manager = FileManager.default
        for folder in ["logs", "blobs"] {
            try manager.createDirectory(at: target.appendingPathComponent(folder), withIntermediateDirectories: true)
        }
        try manager.copyItem(
            at: history.container.appendingPathComponent("devices"), to: target.appendingPathComponent("devices"))
        try manager.copyItem(
            at: history.container.appendingPathComponent("container.json"),
            to: target.appendingPathComponent("container.json"))
        var report = try device.engine.enable(cloud: cloud, deviceName: "arrivals")
        #expect(report.importedLogs == 0)
        var waits = 0
        var arrived: [String] = []
        for (index, file) in order.enumerated() {
            let destination = target.appendingPathComponent(file)
            try manager.createDirectory(at: destination.deletingLastPathComponent(), withIntermediateDirectories: true)
            try manager.copyItem(at: history.container.appendingPathComponent(file), to: destination)
            arrived.append(file)
            guard random.chance(50) || index == order.count - 1 else { continue }
            guard let chosen = scope ?? device.engine.importScope(afterArrivalOf: arrived) else { continue }
            arrived = []
            report = try device.engine.syncNow(importing: chosen)
            #expect(report.skipped.isEmpty, "after \(file) arrived: \(report.skipped)")
            if !report.waiting.isEmpty { waits += 1 }
        }
        #expect(report.waiting.isEmpty, "once everything arrived: \(report.waiting)")
        for other in try device.engine.status().devices {
            #expect(other.applied == other.available, "device \(other.id.storeString)")
        }
        #expect(try device.store.check() == [])
        return (try CanonicalDump.of(device.store), waits)
    }

    @Test(arguments: [UInt64(11), 12, 13])
    func everyOrderOfArrivalGivesTheSameState(seed: UInt64) throws {
        let history = try Self.makeHistory(seed: seed)
        #expect(history.logCount >= 6, "the history should make a few logs")
        try history.stack.syncUntilQuiet()
        for dump in try history.stack.dumps() {
            #expect(dump == history.expected, "the devices that made the history agree with the latecomer")
        }
        for store in history.stack.stores {
            #expect(try history.editor.problems(in: store) == [])
        }
        var random = SplitMix64(seed: seed)
        var waits = 0
        // Whole devices one after the other, in every order of the three devices, blobs last.
        let devices = Array(Set(history.files.filter { $0.hasPrefix("logs/") }.map { $0.split(separator: "/")[1] }))
            .sorted()
        for devicesOrder in Permutations.of(devices) {
            let order =
                devicesOrder.flatMap { device in history.files.filter { $0.hasPrefix("logs/\(device)/") } }
                + history.files.filter { $0.hasPrefix("blobs/") }
            let replayed = try replay(history, order: order, random: &random)
            #expect(replayed.dump == history.expected, "devices in order \(devicesOrder)")
            waits += replayed.waits
        }
        // Every file on its own, in shuffled orders: logs before their predecessors.
        for shuffle in 0..<5 {
            let order = history.files.shuffled(using: &random)
            let replayed = try replay(history, order: order, random: &random)
            #expect(replayed.dump == history.expected, "seed \(seed), shuffle \(shuffle)")
            waits += replayed.waits
        }
        #expect(waits > 0, "some log must have arrived before what it needs and waited")
    }

    /// A watcher looks up only the next log of each device, by name, as logs arrive: in any
    /// order of arrival it ends in the same state as a full import.
    @Test func lookingUpOnlyTheNextLogsGivesTheSameStateInAnyOrder() throws {
        let history = try Self.makeHistory(seed: 14)
        var random = SplitMix64(seed: 14)
        for shuffle in 0..<5 {
            let order = history.files.shuffled(using: &random)
            let replayed = try replay(history, order: order, random: &random, scope: .nextLogs)
            #expect(replayed.dump == history.expected, "shuffle \(shuffle)")
        }
        let inOrder = try replay(history, order: history.files, random: &random, scope: .nextLogs)
        #expect(inOrder.dump == history.expected)
    }

    /// A watcher looks first at the devices whose logs arrived, and at the others' only once
    /// a log was applied: in any order of arrival it ends in the same state as a full import,
    /// whether the logs of each device arrive together or one at a time.
    @Test func lookingFirstAtTheDevicesWhoseLogsArrivedGivesTheSameStateInAnyOrder() throws {
        let history = try Self.makeHistory(seed: 15)
        var random = SplitMix64(seed: 15)
        let logs = history.files.filter { $0.hasPrefix("logs/") }
        let blobs = history.files.filter { !$0.hasPrefix("logs/") }
        for shuffle in 0..<5 {
            let order = logs.shuffled(using: &random) + blobs
            let replayed = try replay(history, order: order, random: &random, scope: nil)
            #expect(replayed.dump == history.expected, "shuffle \(shuffle)")
        }
        let devices = Array(Set(logs.map { $0.split(separator: "/")[1] })).sorted()
        for devicesOrder in Permutations.of(devices) {
            let order = devicesOrder.flatMap { device in logs.filter { $0.hasPrefix("logs/\(device)/") } } + blobs
            let replayed = try replay(history, order: order, random: &random, scope: nil)
            #expect(replayed.dump == history.expected, "devices in order \(devicesOrder)")
        }
    }

    /// A watcher's import goes on past a full transaction: with one log a transaction, every
    /// log of every device is applied by one sync that looks up only the next logs.
    @Test func lookingUpTheNextLogsGoesOnPastAFullTransaction() throws {
        let stack = try SyncStack(devices: 3)
        for device in 1...2 {
            for index in 0..<3 {
                _ = try stack.stores[device].addNote(named: "note \(device).\(index)", body: "body", in: nil)
                try stack.engines[device].syncNow()
            }
        }
        var hooks = SyncHooks.none
        hooks.transactionBytes = 1
        let report = try SyncEngine(store: stack.stores[0], hooks: hooks).syncNow(importing: .nextLogs)
        #expect(report.importedLogs == 6, "\(report)")
        #expect(try stack.stores[0].fetch(ItemRequest(kind: .note)).count == 6)
    }

    @Test func importingAgainChangesNothing() throws {
        let history = try Self.makeHistory(seed: 21)
        let device = try Device(label: "again")
        let first = try device.engine.enable(cloud: history.stack.cloud, deviceName: "again")
        #expect(first.importedLogs == history.logCount)
        let dump = try CanonicalDump.of(device.store)
        #expect(dump == history.expected)

        let second = try device.engine.syncNow()
        #expect(second.importedLogs == 0 && second.exportedLogs == 0)
        #expect(try CanonicalDump.of(device.store) == dump)

        // The importer run again on its own, with nothing reset, finds nothing to apply.
        let container = try CloudContainer.create(in: history.stack.cloud)
        var report = SyncReport()
        try LogImporter(store: device.store, container: container, containerID: container.identity).importAvailable(
            into: &report)
        #expect(report.importedLogs == 0)
        #expect(try CanonicalDump.of(device.store) == dump)

        // Forgetting what was applied makes every log apply a second time, to no effect.
        try device.store.recordSync { ledger in
            try ledger.forgetApplied()
        }
        let replayed = try device.engine.syncNow()
        #expect(replayed.importedLogs == history.logCount)
        #expect(replayed.exportedLogs == 0)
        #expect(try CanonicalDump.of(device.store) == dump)
        #expect(try device.store.outboxEntries().isEmpty)
        let problems = try device.store.check()
        #expect(problems == [])
    }
}
