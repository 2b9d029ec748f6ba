import Foundation
import NoteStore
@testable import NoteSync
import NoteTestSupport
import Testing

/// Compacted containers written by releases (`Fixtures/baseline4`: model version 4, before
/// tags; `Fixtures/baseline5`: model version 5, with a tag; `Fixtures/baseline6`: model version
/// 6, history kept compact, before the retention of history; `Fixtures/baseline7`: model version
/// 7, which dropped history, before history in lines), each made by its script with that
/// build: their early logs are gone, so a new device of this build must start from the
/// baseline, upgrade it when it is older, and apply the logs after it, among them concurrent
/// edits of a note that merge on a base only the baseline holds.
@Suite struct OlderBaselineTests {
    static let fixtures = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Fixtures")

    let folder = TemporaryFolder("notes-older-baseline")

    /// The fewest versions of Soup's body a device that joins holds: those the baseline kept
    /// and the edit after it. The model-7 baseline kept one version of each body (its cut).
    static func soupBodyVersions(_ fixture: String) -> Int {
        fixture == "baseline7" ? 2 : 4
    }
    var cloud: URL { folder.appending("cloud") }

    /// The fixture, and the tags its script gave the note Soup.
    @Test(arguments: [
        ("baseline4", [String]()), ("baseline5", ["hot"]), ("baseline6", ["hot"]), ("baseline7", ["hot"]),
    ])
    func aNewDeviceJoinsFromTheOlderBaseline(fixture: String, soupTags: [String]) throws {
        try FileManager.default.createDirectory(at: cloud, withIntermediateDirectories: true)
        try FileManager.default.copyItem(
            at: Self.fixtures.appendingPathComponent(fixture).appendingPathComponent("container"),
            to: cloud.appendingPathComponent("NoteCollector"))
        let logs = try FileManager.default.subpathsOfDirectory(
            atPath: cloud.appendingPathComponent("NoteCollector/logs").path)
        #expect(!logs.contains { $0.hasSuffix("000000000001.log") }, "the fixture's early logs are compacted away")
        let joined = try SyncEngine.join(folder: folder.appending("joined"), cloud: cloud, deviceName: "joined")
        let (engine, report) = try #require(joined)
        #expect(
            report.baseline?.path.hasPrefix("baselines/") == true && report.waiting.isEmpty && report.skipped.isEmpty,
            "\(report)")
        let store = engine.store
        #expect(store.modelVersion == Store.currentModelVersion)
        let items = try store.fetch(ItemRequest(trash: .included))
        let byName = Dictionary(items.map { ($0.name, $0) }, uniquingKeysWith: { first, _ in first })
        let soup = try #require(byName["Soup"])
        #expect(soup.body == "Two leeks\nPotatoes\nSalt\nWhite pepper\nStock\n")
        #expect(byName["Plan"]?.body == "ONE\ntwo\nthree\nfour\n", "edits after the baseline merged on its base")
        #expect(!items.contains { $0.name.contains("(conflict, ") })
        #expect(byName["Shopping list"] != nil && byName["Groceries"] == nil && byName["Draft"] == nil)
        #expect(
            byName["Later"]?.body == "Written after\nthe baseline\n" && byName["Later"]?.parent == byName["Recipes"]?.id
        )
        #expect(try store.attachments(of: soup.id).count == 1)
        #expect(
            try store.history(of: soup.id).filter { $0.property == .body }.count >= Self.soupBodyVersions(fixture),
            "the versions the baseline kept, and the later one")
        #expect(try store.tags(of: soup.id) == soupTags)
        #expect(try store.check() == [])

        // It tags, and a second device of this build, joining after, sees the tag.
        try store.tag(soup.id, with: ["winter"])
        _ = try engine.syncNow()
        let second = try #require(
            try SyncEngine.join(folder: folder.appending("second"), cloud: cloud, deviceName: "second"))
        _ = try second.0.syncNow()
        #expect(try second.0.store.tags(of: soup.id) == (soupTags + ["winter"]).sorted())
        #expect(try CanonicalDump.of(second.0.store) == CanonicalDump.of(store))
    }
    /// A device with notes of its own that attaches to the container merges the older baseline
    /// into its store (upgraded first, in its copy), keeps its notes, and pushes them.
    @Test(arguments: ["baseline4", "baseline5", "baseline6", "baseline7"])
    func aStoreWithNotesMergesTheOlderBaseline(fixture: String) throws {
        try FileManager.default.createDirectory(at: cloud, withIntermediateDirectories: true)
        try FileManager.default.copyItem(
            at: Self.fixtures.appendingPathComponent(fixture).appendingPathComponent("container"),
            to: cloud.appendingPathComponent("NoteCollector"))
        let store = try Store(folder: folder.appending("own"))
        let own = try store.addNote(named: "Mine", body: "written here first\n", in: nil)
        let engine = SyncEngine(store: store)
        let report = try engine.enable(cloud: cloud, deviceName: "own")
        #expect(report.baseline?.path.hasPrefix("baselines/") == true && report.skipped.isEmpty, "\(report)")
        let items = try store.fetch(ItemRequest(trash: .included))
        let byName = Dictionary(items.map { ($0.name, $0) }, uniquingKeysWith: { first, _ in first })
        let soup = try #require(byName["Soup"])
        #expect(soup.body == "Two leeks\nPotatoes\nSalt\nWhite pepper\nStock\n")
        #expect(byName["Plan"]?.body == "ONE\ntwo\nthree\nfour\n")
        #expect(try store.history(of: soup.id).filter { $0.property == .body }.count >= Self.soupBodyVersions(fixture))
        #expect(try store.item(own.id).body == "written here first\n")
        #expect(try store.check() == [])
        let second = try #require(
            try SyncEngine.join(folder: folder.appending("second"), cloud: cloud, deviceName: "second"))
        _ = try second.0.syncNow()
        #expect(try second.0.store.item(own.id).name == "Mine")
        #expect(try CanonicalDump.of(second.0.store) == CanonicalDump.of(store))
    }
}
