import Foundation
import GRDB
import NoteStore
import NoteTestSupport
import Testing

@Suite struct StoreOpeningTests {
    @Test func createsPrivateFolderAndFileOnFirstUse() throws {
        let folder = TemporaryFolder()
        let storeURL = folder.appending("a/b/store")
        _ = try Store(folder: storeURL)
        let folderMode = try FileManager.default.attributesOfItem(atPath: storeURL.path)[.posixPermissions] as? Int
        let fileMode =
            try FileManager.default.attributesOfItem(
                atPath: storeURL.appendingPathComponent("store.sqlite").path)[.posixPermissions] as? Int
        #expect(folderMode == 0o700)
        #expect(fileMode == 0o600)
    }

    @Test func reopeningKeepsTheDeviceAndTheItems() throws {
        let folder = TemporaryFolder()
        let first = try Store(folder: folder.appending("s"))
        let note = try first.addNote(named: "kept", body: "", in: nil)
        let second = try Store(folder: folder.appending("s"))
        #expect(second.deviceID == first.deviceID)
        #expect(try second.item(note.id).name == "kept")
        #expect(second.modelVersion == Store.currentModelVersion)
    }

    @Test func differentStoresHaveDifferentDevices() throws {
        let folder = TemporaryFolder()
        #expect(try Store(folder: folder.appending("a")).deviceID != Store(folder: folder.appending("b")).deviceID)
    }

    @Test func storeFromANewerModelIsRefusedAndLeftAlone() throws {
        let folder = TemporaryFolder()
        let url = folder.appending("s")
        _ = try Store(folder: url)
        let database = try DatabaseQueue(path: url.appendingPathComponent("store.sqlite").path)
        try database.write { try $0.execute(sql: "UPDATE metadata SET value = '99' WHERE key = 'model_version'") }
        try database.close()
        let error = #expect(throws: StoreError.self) { try Store(folder: url) }
        #expect(try #require(error).description.contains("model version 99"))
    }

    @Test func aFileInPlaceOfTheFolderIsRefused() throws {
        let folder = TemporaryFolder()
        let url = folder.appending("file")
        try Data("x".utf8).write(to: url)
        let error = #expect(throws: StoreError.self) { try Store(folder: url) }
        #expect(try #require(error).description == "cannot open store '\(url.path)': it is not a folder")
    }
}
