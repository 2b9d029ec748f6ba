import Foundation
import NoteStore
import NoteSync
import NoteTestSupport
import Testing

/// A container written by a build of sync format 1 (`Fixtures/format1`, made by its script):
/// a build of format 2 imports its logs with nothing lost, converges with other format-2
/// devices on top of it, and migrates that build's store (model version 3).
@Suite struct FormatOneTests {
    static let fixtures = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent(
        "Fixtures/format1")
    static let soup = UUID(uuidString: "ec5ca0aa-d077-4077-a749-f80a05295f67")!
    static let groceries = UUID(uuidString: "d7db2d7f-b9ff-4a10-9610-f49843695579")!
    static let draft = UUID(uuidString: "d197f560-0c6b-434e-ae38-382f160384e4")!

    let folder = TemporaryFolder("notes-format1")
    var cloud: URL { folder.appending("cloud") }

    init() throws {
        try FileManager.default.createDirectory(at: cloud, withIntermediateDirectories: true)
        try FileManager.default.copyItem(
            at: Self.fixtures.appendingPathComponent("container"), to: cloud.appendingPathComponent("NoteCollector"))
    }

    func joiningDevice(_ name: String) throws -> (Store, SyncEngine) {
        let store = try Store(folder: folder.appending(name))
        let engine = SyncEngine(store: store)
        try engine.enable(cloud: cloud, deviceName: name)
        try engine.syncNow()
        return (store, engine)
    }

    @Test func formatOneLogsImportWithEveryVersionInHistory() throws {
        let (store, engine) = try joiningDevice("new")
        #expect(try engine.status().waiting.isEmpty)
        let soup = try store.item(Self.soup)
        #expect(soup.name == "Soup")
        // Format 1 orders concurrent edits by stamp: the later one is the body...
        #expect(soup.body == "Two leeks\nPotatoes\nSalt\nPepper\nWater\n")
        // ...and the other is kept in history.
        var bodies: [String] = []
        for version in try store.history(of: Self.soup) where version.property == .body {
            bodies.append(try #require(try store.text(of: Self.soup, .body, at: version.stamp)))
            #expect(version.bases == nil)
        }
        #expect(
            bodies.sorted() == [
                "Leeks\nPotatoes\nSalt\nPepper\nStock\n", "Leeks\nPotatoes\nSalt\nPepper\nWater\n",
                "Two leeks\nPotatoes\nSalt\nPepper\nWater\n",
            ])
        #expect(try store.item(Self.groceries).name == "Shopping list")
        #expect(try store.history(of: Self.groceries).filter { $0.property == .name }.count == 2)
        #expect(throws: StoreError.self) { try store.item(Self.draft) }
        let attachments = try store.attachments(of: Self.soup)
        #expect(
            attachments.count == 1
                && attachments.first?.sha256 == "02b8fce44f3e3b3d4fc8c3e113419a0fdb0fcb3223214cd8400d6d30701a20b3")
        #expect(try store.check() == [])
    }

    @Test func formatTwoDevicesConvergeOnTopOfFormatOneLogs() throws {
        let (first, firstEngine) = try joiningDevice("first")
        let (second, secondEngine) = try joiningDevice("second")
        try first.edit(Self.soup, body: "Three leeks\nPotatoes\nSalt\nPepper\nWater\n")
        try second.edit(Self.soup, body: "Two leeks\nPotatoes\nSalt\nPepper\nWater\nThyme\n")
        for _ in 0..<2 {
            try firstEngine.syncNow()
            try secondEngine.syncNow()
        }
        #expect(try first.item(Self.soup).body == "Three leeks\nPotatoes\nSalt\nPepper\nWater\nThyme\n")
        #expect(try CanonicalDump.of(first) == CanonicalDump.of(second))
        let third = try joiningDevice("third").0
        #expect(try CanonicalDump.of(third) == CanonicalDump.of(first))
    }

    @Test func aModelThreeStoreMigratesWithEveryNoteStampAndSyncPosition() throws {
        let storeFolder = folder.appending("old")
        try FileManager.default.createDirectory(at: storeFolder, withIntermediateDirectories: true)
        try FileManager.default.copyItem(
            at: Self.fixtures.appendingPathComponent("store-v3.sqlite"),
            to: storeFolder.appendingPathComponent("store.sqlite"))
        // The store's one blob, as its build left it beside the database.
        let blob = "02b8fce44f3e3b3d4fc8c3e113419a0fdb0fcb3223214cd8400d6d30701a20b3"
        try FileManager.default.createDirectory(
            at: storeFolder.appendingPathComponent("blobs"), withIntermediateDirectories: true)
        try FileManager.default.copyItem(
            at: cloud.appendingPathComponent("NoteCollector/blobs/\(blob)"),
            to: storeFolder.appendingPathComponent("blobs/\(blob)"))
        let store = try Store(folder: storeFolder)
        #expect(store.modelVersion == Store.currentModelVersion && Store.currentModelVersion == 10)
        let soup = try store.item(Self.soup)
        #expect(soup.body == "Two leeks\nPotatoes\nSalt\nPepper\nWater\n")
        let versions = try store.history(of: Self.soup)
        #expect(versions.map(\.property).sorted() == [.body, .name])
        #expect(versions.allSatisfy { $0.isHead && $0.bases == nil })
        #expect(try store.item(Self.groceries).name == "Shopping list")
        // The migrated store's sync state is intact: the container has nothing new for it.
        let engine = SyncEngine(store: store)
        try engine.enable(cloud: cloud, deviceName: "laptop")
        let report = try engine.syncNow()
        #expect(report.importedChanges == 0 && report.waiting.isEmpty && report.skipped.isEmpty)
        #expect(try store.check() == [])
    }
}
