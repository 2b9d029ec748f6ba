import Foundation
import NoteStore
import NoteTestSupport
import Testing

/// A store written by model version 1 (`Fixtures/store-v1.sqlite`, with the listings that
/// version printed of it) opens in this build with every note intact.
@Suite struct MigrationTests {
    static let fixtures = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Fixtures")

    func openCopyOfVersion1() throws -> (TemporaryFolder, Store) {
        let folder = TemporaryFolder()
        let storeURL = folder.appending("store")
        try FileManager.default.createDirectory(at: storeURL, withIntermediateDirectories: true)
        try FileManager.default.copyItem(
            at: Self.fixtures.appendingPathComponent("store-v1.sqlite"),
            to: storeURL.appendingPathComponent("store.sqlite"))
        return (folder, try Store(folder: storeURL))
    }

    func listing(_ name: String) throws -> [[String: Any]] {
        let data = try Data(contentsOf: Self.fixtures.appendingPathComponent(name))
        let object = try JSONSerialization.jsonObject(with: data)
        return try #require(object as? [[String: Any]])
    }

    @Test func version1StoreOpensMigratedWithEveryItemIntact() throws {
        let (folder, store) = try openCopyOfVersion1()
        _ = folder
        #expect(store.modelVersion == Store.currentModelVersion)
        let expected = try listing("store-v1.json") + listing("store-v1-trash.json")
        let items = try store.fetch(ItemRequest(trash: .included))
        #expect(items.count == expected.count)
        let index = try store.collectionIndex()
        for object in expected {
            let text = try #require(object["id"] as? String)
            let id = try #require(UUID(uuidString: text))
            let item = try #require(items.first { $0.id == id })
            #expect(item.name == object["name"] as? String)
            #expect(item.kind.rawValue == object["kind"] as? String)
            #expect(index.path(of: item) == object["path"] as? String)
            #expect(item.isTrashed == (object["trashed"] as? Bool))
            #expect(item.parent?.uuidString.lowercased() == object["parent"] as? String)
        }
    }

    @Test func bodiesSurviveTheMigration() throws {
        let (folder, store) = try openCopyOfVersion1()
        _ = folder
        #expect(try store.resolve("Work/Ideas/Launch plan").body == "Ship in spring.\nBudget: small.")
        #expect(try store.resolve("Groceries").body == "milk\neggs\ncrème fraîche")
        #expect(try store.search("fraiche").map(\.item.name) == ["Groceries"])
        let groceries = try store.resolve("Groceries")
        try store.edit(groceries.id, body: "bread")
        #expect(try store.search("fraiche").isEmpty)
        #expect(try store.search("bread").map(\.item.id) == [groceries.id])
        #expect(try store.check() == [])
    }

    @Test func migratedStoreTakesAttachments() throws {
        let (folder, store) = try openCopyOfVersion1()
        _ = folder
        let note = try store.resolve("Groceries")
        let attached = try store.attachImages([SampleFiles.image("plain.png")], to: note.id)
        #expect(try store.attachments(of: note.id) == attached)
        #expect(try store.check().isEmpty)
    }

    @Test func migrationIsKeptOnReopen() throws {
        let (folder, store) = try openCopyOfVersion1()
        let reopened = try Store(folder: store.folder)
        _ = folder
        #expect(reopened.modelVersion == Store.currentModelVersion)
        #expect(reopened.deviceID == store.deviceID)
    }
}
