import Foundation
import GRDB
@testable import NoteStore
import NoteTestSupport
import Testing

/// The stores of earlier releases (`Fixtures/`), which the suites open.
let storeFixtures = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Fixtures")

/// A store folder, in a new temporary folder, whose database is a copy of the store fixture
/// `name`: the temporary folder (which the caller keeps while it uses the store) and the
/// store folder.
func copyOfStoreFixture(_ name: String) throws -> (TemporaryFolder, URL) {
    let folder = TemporaryFolder()
    let storeURL = folder.appending("store")
    try FileManager.default.createDirectory(at: storeURL, withIntermediateDirectories: true)
    try FileManager.default.copyItem(
        at: storeFixtures.appendingPathComponent(name), to: storeURL.appendingPathComponent(Store.databaseFileName))
    return (folder, storeURL)
}

/// Stores written by older model versions open in this build with every note intact: model
/// version 1 (`Fixtures/store-v1.sqlite`, with the listings that version printed of it), and
/// model versions 5 and 7 with their history.
@Suite struct MigrationTests {

    func openCopyOfVersion1() throws -> (TemporaryFolder, Store) {
        let (folder, storeURL) = try copyOfStoreFixture("store-v1.sqlite")
        return (folder, try Store(folder: storeURL))
    }

    func listing(_ name: String) throws -> [[String: Any]] {
        let data = try Data(contentsOf: storeFixtures.appendingPathComponent(name))
        let object = try JSONSerialization.jsonObject(with: data)
        return try #require(object as? [[String: Any]])
    }

    @Test func version1StoreOpensMigratedWithEveryItemIntact() throws {
        let (folder, store) = try openCopyOfVersion1()
        _ = folder
        #expect(store.modelVersion == Store.currentModelVersion)
        // Model 1 had no sync: the store records no outbox rows until sync is first enabled.
        #expect(try store.recordsChanges() == false)
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

    /// A store of model version 5 (`Fixtures/store-v5.sqlite`), one of model version 7, a row
    /// per version (`Fixtures/store-v7.sqlite`), and one of model version 8, history in lines
    /// with the link index (`Fixtures/store-v8.sqlite`), each made by its script with a build of that
    /// version: every version, delta and head of its history is read as it was written, and
    /// history goes on from them. A later model must keep this test passing.
    @Test(arguments: ["store-v5.sqlite", "store-v7.sqlite", "store-v8.sqlite"])
    func olderHistoryIsReadWholeAndGoesOn(fixture: String) throws {
        let (folder, storeURL) = try copyOfStoreFixture(fixture)
        defer { _ = folder }
        let store = try Store(folder: storeURL)
        #expect(store.modelVersion == Store.currentModelVersion)

        // The bodies the script wrote, oldest first.
        var long = (1...60).map { "line \($0) of the long note\n" }.joined()
        var bodies = [long]
        for edit in 1...5 {
            long += "edit \(edit)\n"
            bodies.append(long)
        }
        let note = try store.resolve("Long")
        let versions = try store.history(of: note.id).filter { $0.property == .body }.sorted { $0.stamp < $1.stamp }
        #expect(try versions.map { try store.text(of: note.id, .body, at: $0.stamp) } == bodies)
        #expect(versions.map(\.isHead) == [false, false, false, false, false, true])
        #expect(try store.tags(of: note.id) == ["history"])
        let short = try store.resolve("Short")
        let names = try store.history(of: short.id).filter { $0.property == .name }.sorted { $0.stamp < $1.stamp }
        #expect(
            try names.map { try store.text(of: short.id, .name, at: $0.stamp) } == ["Short", "Short renamed", "Short"])
        #expect(try store.check() == [])

        // History goes on: a new edit is a delta of the migrated head, and reads back. A store
        // of an earlier build records its saves for sync as it did: builds of model 5 always
        // did; later ones only once sync is on, and the store of model 7 never synced.
        let records = fixture == "store-v5.sqlite"
        #expect(try store.recordsChanges() == records)
        let recorded = try store.outboxEntries().count
        try store.edit(note.id, body: long + "edit 6\n")
        #expect(try store.outboxEntries().count == recorded + (records ? 1 : 0))
        let newest = try #require(
            try store.history(of: note.id).filter { $0.property == .body }.max { $0.stamp < $1.stamp })
        #expect(try store.text(of: note.id, .body, at: newest.stamp) == long + "edit 6\n")
        #expect(
            try store.history(of: note.id).filter { $0.property == .body && $0.isHead }.map(\.stamp) == [newest.stamp])
    }

    /// A store of model version 7 whose history holds a text of 64 KiB or more opens: its line
    /// keeps the text until it is next written, and then keeps it apart.
    @Test func aLongTextOfAnOlderHistoryMovesApartWhenItsLineIsWritten() throws {
        let (folder, storeURL) = try copyOfStoreFixture("store-v7.sqlite")
        defer { _ = folder }
        let long = String(repeating: "x", count: 70_000)
        try DatabaseQueue(path: storeURL.appendingPathComponent(Store.databaseFileName).path).write { db in
            try db.execute(
                sql: "UPDATE history SET content = CAST(? AS BLOB), size = ? WHERE property = 1 AND content = ?",
                arguments: [long, long.utf8.count, Data("Short".utf8)])
            #expect(db.changesCount == 1)
        }
        let store = try Store(folder: storeURL)
        let short = try store.resolve("Short")
        func names() throws -> [String?] {
            try store.history(of: short.id).filter { $0.property == .name }.sorted { $0.stamp < $1.stamp }.map {
                try store.text(of: short.id, .name, at: $0.stamp)
            }
        }
        func apartRows() throws -> Int? {
            try store.read { db in try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM history_text") }
        }
        #expect(try names() == [long, "Short renamed", "Short"])
        #expect(try apartRows() == 0)
        #expect(try store.check() == [])
        try store.edit(short.id, name: "Short again")
        #expect(try names() == [long, "Short renamed", "Short", "Short again"])
        #expect(try apartRows() == 1)
        #expect(try store.check() == [])
    }

    /// A store of model version 8 gets the tables of properties, keeps its link index, and
    /// takes properties.
    @Test func aStoreOfModelEightTakesProperties() throws {
        let (folder, storeURL) = try copyOfStoreFixture("store-v8.sqlite")
        defer { _ = folder }
        let store = try Store(folder: storeURL)
        #expect(store.modelVersion == Store.currentModelVersion)
        let long = try store.resolve("Long")
        #expect(try store.properties(of: long.id).isEmpty)
        #expect(try store.backlinks(of: long.id).map(\.source) == [try store.resolve("Linking").id])
        try store.setProperty(long.id, "status", to: .string("kept"))
        let reopened = try Store(folder: storeURL)
        #expect(
            try reopened.properties(of: long.id) == [NoteProperty(key: "status", value: .string("kept"), position: 0)])
        #expect(try reopened.check() == [])
    }

    /// The schema, and every row, of a database: its tables, indexes, triggers and virtual
    /// tables in the order they were made, then each table's rows.
    static func contents(_ db: Database) throws -> [String] {
        var lines = try Row.fetchAll(db, sql: "SELECT type, name, tbl_name, sql FROM sqlite_master ORDER BY rowid")
            .map(\.description)
        let tables = try String.fetchAll(db, sql: "SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name")
        for table in tables {
            lines += try Row.fetchAll(db, sql: "SELECT * FROM \(table.quotedDatabaseIdentifier)").map {
                "\(table): \($0)"
            }
        }
        return lines + ["user_version \(try Int.fetchOne(db, sql: "PRAGMA user_version") ?? -1)"]
    }

    /// A new database is made in one transaction, and holds what the migrations make one by
    /// one; one that holds a table is left to the migrator.
    @Test func aNewDatabaseInOneTransactionIsWhatTheMigrationsMake() throws {
        let folder = TemporaryFolder()
        var configuration = Configuration()
        configuration.foreignKeysEnabled = true
        let stepwise = try DatabaseQueue(path: folder.appending("stepwise.sqlite").path, configuration: configuration)
        try StoreSchema.migrator.migrate(stepwise)
        let atOnce = try DatabaseQueue(path: folder.appending("at-once.sqlite").path, configuration: configuration)
        #expect(try atOnce.writeWithoutTransaction { try StoreSchema.createNew($0) })

        let made = try atOnce.read { try Self.contents($0) }
        #expect(made == (try stepwise.read { try Self.contents($0) }))
        #expect(made.contains { $0.contains("CREATE TABLE history_text") })
        #expect(made.contains { $0.hasPrefix("grdb_migrations: ") && $0.contains(StoreSchema.historyTextsMigration) })
        #expect(try atOnce.read { try StoreSchema.migrator.hasCompletedMigrations($0) })
        #expect(try atOnce.read { try Bool.fetchOne($0, sql: "PRAGMA foreign_keys") } == true)

        #expect(try !atOnce.writeWithoutTransaction { try StoreSchema.createNew($0) })
        #expect(try atOnce.read { try Self.contents($0) } == made)
        let other = try DatabaseQueue(path: folder.appending("other.sqlite").path)
        try other.write { try $0.execute(sql: "CREATE TABLE other (x)") }
        #expect(try !other.writeWithoutTransaction { try StoreSchema.createNew($0) })
        #expect(try other.read { try String.fetchAll($0, sql: "SELECT name FROM sqlite_master") } == ["other"])
    }
}
