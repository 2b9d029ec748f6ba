import Foundation
import NoteStore
@testable import NoteSync
import NoteTestSupport
import Testing

/// A container written by a build from before baselines (`Fixtures/format2`, made by its
/// script with that build): this build imports it with nothing lost, writes a baseline of it
/// that a new device starts from, and, since those devices cannot come back through a
/// baseline, keeps waiting for them when it compacts.
@Suite struct FormatTwoTests {
    static let fixtures = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent(
        "Fixtures/format2")

    let folder = TemporaryFolder("notes-format2")
    var cloud: URL { folder.appending("cloud") }

    init() throws {
        try FileManager.default.createDirectory(at: cloud, withIntermediateDirectories: true)
        try FileManager.default.copyItem(
            at: Self.fixtures.appendingPathComponent("container"), to: cloud.appendingPathComponent("NoteCollector"))
    }

    func names(_ store: Store) throws -> [String] {
        try store.fetch(ItemRequest(trash: .included)).map(\.name).sorted()
    }

    @Test func aContainerOfTheReleaseBeforeBaselinesReadsWhole() throws {
        let store = try Store(folder: folder.appending("new"))
        let engine = SyncEngine(store: store)
        let report = try engine.enable(cloud: cloud, deviceName: "new")
        #expect(report.waiting.isEmpty && report.skipped.isEmpty, "\(report)")
        let items = try store.fetch(ItemRequest(trash: .included))
        let soup = try #require(items.first { $0.name == "Soup" })
        #expect(soup.body == "Two leeks\nPotatoes\nSalt\nPepper\nStock\n", "the two edits merged")
        let plan = try #require(items.first { $0.name == "Plan" })
        #expect(plan.body == "one\ntwo from the laptop\nthree\n")
        let copy = try #require(items.first { $0.name.hasPrefix("Plan (conflict, desktop, ") })
        #expect(copy.body == "one\nTWO from the desktop\nthree\n")
        #expect(items.contains { $0.name == "Shopping list" } && !items.contains { $0.name == "Draft" })
        #expect(try store.attachments(of: soup.id).count == 1)
        #expect(try store.check() == [])
        let registrations = try CloudContainer(cloud: cloud, identity: try #require(try engine.status().container))
            .devices().registrations
        #expect(
            registrations.filter { $0.synced == nil && $0.applied == nil }.count == 2,
            "registrations of the earlier build")
    }

    @Test func aBaselineOfItServesNewDevicesAndItsDevicesAreWaitedFor() throws {
        let store = try Store(folder: folder.appending("new"))
        let engine = SyncEngine(store: store)
        try engine.enable(cloud: cloud, deviceName: "new")
        _ = try store.addNote(named: "Written after", body: "", in: nil)
        _ = try engine.syncNow()
        let compacted = try engine.compact()
        #expect(compacted.removedLogs == 0, "the devices of the earlier build have not said what they applied")
        #expect(
            try CloudContainer(cloud: cloud, identity: compacted.baseline.container).logSequences(of: store.deviceID)
                .sequences == [1])
        let joined = try SyncEngine.join(folder: folder.appending("joined"), cloud: cloud, deviceName: "joined")
        let (joinedEngine, report) = try #require(joined)
        #expect(report.baseline != nil && report.waiting.isEmpty, "\(report)")
        #expect(try CanonicalDump.of(joinedEngine.store) == CanonicalDump.of(store))
        #expect(try names(joinedEngine.store).contains("Written after"))
    }
}
