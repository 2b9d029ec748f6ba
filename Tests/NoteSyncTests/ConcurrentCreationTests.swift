import Foundation
import NoteStore
@testable import NoteSync
import NoteTestSupport
import Testing

/// Two devices on two hosts create the container at the same time, before the file-sync engine
/// has carried either: the engine keeps one sentinel, and the device whose container lost
/// attaches to the kept one without any action, its notes pushed once. A container that replaced
/// the device's one later is still another one: sync goes off, nothing is merged.
@Suite struct ConcurrentCreationTests {
    let folder = TemporaryFolder("notes-concurrent-creation")

    /// What a file-sync engine leaves on both hosts: every file of either side, and the
    /// sentinel of `winner`.
    func mirror(_ first: URL, _ second: URL, winner: URL) throws {
        let sentinel = try Data(contentsOf: winner.appendingPathComponent("NoteCollector/container.json"))
        for (from, to) in [(first, second), (second, first)] {
            let root = from.appendingPathComponent("NoteCollector")
            for path in try FileManager.default.subpathsOfDirectory(atPath: root.path) {
                let source = root.appendingPathComponent(path)
                let target = to.appendingPathComponent("NoteCollector").appendingPathComponent(path)
                var isFolder: ObjCBool = false
                _ = FileManager.default.fileExists(atPath: source.path, isDirectory: &isFolder)
                if isFolder.boolValue {
                    try FileManager.default.createDirectory(at: target, withIntermediateDirectories: true)
                } else if !FileManager.default.fileExists(atPath: target.path) {
                    try FileManager.default.copyItem(at: source, to: target)
                }
            }
        }
        for side in [first, second] {
            try sentinel.write(to: side.appendingPathComponent("NoteCollector/container.json"))
        }
    }

    func hosts() throws -> (clouds: [URL], stores: [Store], engines: [SyncEngine]) {
        let clouds = [folder.appending("host-a-cloud"), folder.appending("host-b-cloud")]
        for cloud in clouds { try FileManager.default.createDirectory(at: cloud, withIntermediateDirectories: true) }
        let stores = try [folder.appending("a"), folder.appending("b")].map { try Store(folder: $0) }
        _ = try stores[0].addNote(named: "from a", body: "", in: nil)
        _ = try stores[1].addNote(named: "from b", body: "", in: nil)
        let engines = stores.map(SyncEngine.init(store:))
        for (index, engine) in engines.enumerated() {
            try engine.enable(cloud: clouds[index], deviceName: index == 0 ? "a" : "b")
        }
        return (clouds, stores, engines)
    }

    @Test(arguments: [0, 1])
    func containersCreatedAtOnceBecomeOne(winner: Int) throws {
        let (clouds, stores, engines) = try hosts()
        let identities = try clouds.map { try CloudContainer.create(in: $0).identity }
        #expect(identities[0] != identities[1])
        try mirror(clouds[0], clouds[1], winner: clouds[winner])
        let loser = 1 - winner
        let moved = try engines[loser].syncNow()
        #expect(moved.joinedContainer == identities[winner], "\(moved)")
        for _ in 0..<3 {
            try mirror(clouds[0], clouds[1], winner: clouds[winner])
            for engine in engines { _ = try engine.syncNow() }
        }
        for (index, store) in stores.enumerated() {
            let names = try store.fetch(ItemRequest()).map(\.name).sorted()
            #expect(names == ["from a", "from b"], "device \(index)")
            #expect(try engines[index].status().state == .on)
        }
        #expect(try CanonicalDump.of(stores[0]) == CanonicalDump.of(stores[1]))
    }

    @Test func aContainerThatReplacedOneInUseIsStillAnotherOne() throws {
        let (clouds, _, engines) = try hosts()
        // Device a had attached to its container two days before the other was made.
        try engines[0].store.recordSync { ledger in
            try ledger.update { $0.containerCreated = Date().addingTimeInterval(-2 * 86400) }
        }
        try mirror(clouds[0], clouds[1], winner: clouds[1])
        #expect(throws: SyncError.self) { try engines[0].syncNow() }
        let status = try engines[0].status()
        #expect(
            status.state == .off && status.reason?.contains("another one") == true,
            "\(String(describing: status.reason))")
    }
}
