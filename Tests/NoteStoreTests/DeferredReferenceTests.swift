import CSQLiteHardening
import Foundation
import GRDB
import GRDBSQLite
@testable import NoteStore
import NoteTestSupport
import Testing

/// Every reference to an item is declared deferred in the store's schema
/// (``StoreSchema/deferReferences(_:)``): checked at commit, with no pragma that would make
/// the connection prepare its cached statements again at every save and import.
@Suite struct DeferredReferenceTests {
    /// The tables' definitions that hold a reference, by name.
    static func referringTables(_ db: Database) throws -> [String: String] {
        Dictionary(
            uniqueKeysWithValues: try Row.fetchAll(
                db, sql: "SELECT name, sql FROM sqlite_schema WHERE type = 'table' AND sql LIKE '%REFERENCES%'"
            ).map { ($0["name"], $0["sql"]) })
    }

    static func deferralCount(_ sql: String) -> Int { sql.components(separatedBy: StoreSchema.deferral).count - 1 }
    static func referenceCount(_ sql: String) -> Int { sql.components(separatedBy: "REFERENCES").count - 1 }

    /// Each reference of each table is followed by the deferral, once.
    static func expectEveryReferenceDeferred(_ store: Store, sourceLocation: SourceLocation = #_sourceLocation) throws {
        let tables = try store.database.read { try referringTables($0) }
        #expect(
            Set(tables.keys) == ["item", "attachment", "displaced", "file_attachment", "link", "link_name"],
            sourceLocation: sourceLocation)
        for (name, sql) in tables {
            #expect(deferralCount(sql) == referenceCount(sql), "\(name): \(sql)", sourceLocation: sourceLocation)
        }
    }

    @Test func aNewStoreDefersEveryReference() throws {
        let fixture = try StoreFixture()
        try Self.expectEveryReferenceDeferred(fixture.store)
    }

    @Test(arguments: ["store-v1.sqlite", "store-v5.sqlite", "store-v7.sqlite", "store-v8.sqlite"])
    func aStoreOfAnOlderModelDefersEveryReferenceOnceMigrated(fixture: String) throws {
        let (folder, url) = try copyOfStoreFixture(fixture)
        _ = folder
        let before = try DatabaseQueue(path: url.appendingPathComponent(Store.databaseFileName).path).read {
            try Self.referringTables($0)
        }
        #expect(before.values.allSatisfy { Self.deferralCount($0) == 0 })
        try Self.expectEveryReferenceDeferred(try Store(folder: url))
        // Opening again changes nothing more.
        let store = try Store(folder: url)
        try Self.expectEveryReferenceDeferred(store)
        #expect(try store.check() == [])
    }

    /// Only the text changes: the reference is what it was, with its action.
    @Test func theDeferralGoesAfterEachReferenceAndItsAction() throws {
        #expect(
            try StoreSchema.deferring(
                "a TEXT REFERENCES item(id),\n    b TEXT REFERENCES item(id) ON DELETE CASCADE\n)")
                == "a TEXT REFERENCES item(id) DEFERRABLE INITIALLY DEFERRED,\n"
                + "    b TEXT REFERENCES item(id) ON DELETE CASCADE DEFERRABLE INITIALLY DEFERRED\n)")
        #expect(throws: DatabaseError.self) {
            try StoreSchema.deferring("a TEXT REFERENCES item(id) ON UPDATE SET NULL,")
        }
        #expect(throws: DatabaseError.self) { try StoreSchema.deferring("a TEXT REFERENCES other(id),") }
    }

    /// A row may refer to an item inserted after it in the same transaction; a reference to an
    /// item that is still missing at the commit fails it, and nothing of it is written.
    @Test func aReferenceIsCheckedWhenTheTransactionCommits() throws {
        let fixture = try StoreFixture()
        let child = UUID().uuidString.lowercased()
        let parent = UUID().uuidString.lowercased()
        func insert(_ id: String, kind: String, parent: String?, _ db: Database) throws {
            try db.execute(
                sql: """
                    INSERT INTO item (id, kind, name, parent, created, modified, body) \
                    VALUES (?, ?, ?, ?, 0, 0, ?)
                    """,
                arguments: [id, kind, "n-\(id.prefix(8))", parent, kind == "note" ? "" : nil])
        }
        try fixture.store.write { db in
            try insert(child, kind: "note", parent: parent, db)
            try insert(parent, kind: "collection", parent: nil, db)
        }
        #expect(try fixture.store.item(UUID(uuidString: child)!).parent == UUID(uuidString: parent))

        let orphan = UUID().uuidString.lowercased()
        #expect(throws: StoreError.self) {
            try fixture.store.write { db in try insert(orphan, kind: "note", parent: UUID().uuidString.lowercased(), db)
            }
        }
        let written = try fixture.store.database.read {
            try Bool.fetchOne($0, sql: "SELECT EXISTS (SELECT 1 FROM item WHERE id = ?)", arguments: [orphan])
        }
        #expect(written == false)
    }

    /// Runs the writer's cached statement `sql` and returns how often SQLite has prepared it
    /// again: an expired statement is prepared again when it next runs.
    static func reprepared(_ sql: String, _ store: Store) throws -> Int32 {
        try store.database.writeWithoutTransaction { db in
            let statement = try db.cachedStatement(sql: sql)
            _ = try Row.fetchAll(statement)
            return sqlite3_stmt_status(statement.sqliteStatement, SQLITE_STMTSTATUS_REPREPARE, 0)
        }
    }

    /// A save and an import keep the statements the connection has cached: nothing in them
    /// expires every statement, as `PRAGMA defer_foreign_keys` did.
    @Test func savesAndImportsKeepTheCachedStatements() throws {
        let fixture = try StoreFixture()
        let store = fixture.store
        let collection = try store.addCollection(named: "Inbox", in: nil)
        // One the save runs (SaveWriter.begin), one it does not.
        let statements = [
            "SELECT CAST(value AS INTEGER) + 1 FROM metadata WHERE key = 'last_save'",
            "SELECT COUNT(*) FROM item WHERE kind = 'collection'",
        ]
        let before = try statements.map { try Self.reprepared($0, store) }
        let changes: [(String, () throws -> Void)] = [
            ("a save", { _ = try store.addNote(named: "Note", body: "text", in: collection.id) }),
            ("an import", { try store.replicate(durable: false) { _ in } }),
            ("a durable import", { try store.replicate { _ in } }),
        ]
        for (what, change) in changes {
            try change()
            #expect(try statements.map { try Self.reprepared($0, store) } == before, "after \(what)")
        }
    }

    /// A connection in SQLite's defensive mode (some builds of SQLite set it on every
    /// connection) defers the references all the same, and is in defensive mode afterwards.
    @Test func aConnectionInDefensiveModeDefersTheReferences() throws {
        let folder = TemporaryFolder()
        var configuration = Configuration()
        configuration.prepareDatabase { db in
            guard notes_sqlite_set_defensive(db.sqliteConnection, 1) >= 0 else {
                throw DatabaseError(message: "cannot set defensive mode")
            }
        }
        let queue = try DatabaseQueue(path: folder.appending("store.sqlite").path, configuration: configuration)
        try StoreSchema.migrator.migrate(queue)
        let tables = try queue.read { try Self.referringTables($0) }
        #expect(tables.count == 6)
        for (name, sql) in tables { #expect(Self.deferralCount(sql) == Self.referenceCount(sql), "\(name)") }
        let defensive = try queue.inDatabase { notes_sqlite_set_defensive($0.sqliteConnection, 1) }
        #expect(defensive == 1)
    }

    /// A baseline of an older model, upgraded on its hardened connection to be read, gets
    /// every migration but the edit of the schema's text, which would turn its defensive mode
    /// off.
    @Test func theUpgradeOfABaselineLeavesItsReferencesAsTheyAre() throws {
        let all = StoreSchema.migrator.migrations
        #expect(
            StoreSchema.baselineUpgradeMigrator.migrations
                == all.filter { $0 != StoreSchema.deferredReferencesMigration })
        // Without properties, the copy is of model 8, which is upgraded to be read.
        let fixture = try StoreFixture()
        _ = try fixture.makeTree()
        let copy = fixture.folder.appending("baseline.sqlite")
        _ = try fixture.store.copyForBaseline(to: copy) { _ in [:] }
        let database = try BaselineDatabase.verify(copy)
        #expect(database.modelVersion == Store.baselineModelVersionWithoutProperties)
        try database.upgradeToCurrentModel(file: copy)
        #expect(database.modelVersion == StoreSchema.currentModelVersion)
        database.close()
        let tables = try DatabaseQueue(path: copy.path).read { try Self.referringTables($0) }
        #expect(tables.count == 6)
        #expect(tables.values.allSatisfy { Self.deferralCount($0) == 0 })
    }

    /// A baseline's schema is the model version's, without the deferral or its migration; a
    /// store made from it defers its references when it opens.
    @Test func aBaselineDeclaresTheReferencesAsTheModelVersionDoes() throws {
        let fixture = try StoreFixture()
        _ = try fixture.makeTree()
        let made = fixture.folder.appending("new")
        try FileManager.default.createDirectory(at: made, withIntermediateDirectories: true)
        let copy = made.appendingPathComponent("baseline.sqlite")
        _ = try fixture.store.copyForBaseline(to: copy) { _ in [:] }
        let (tables, recorded) = try DatabaseQueue(path: copy.path).read { db in
            (
                try Self.referringTables(db),
                try Bool.fetchOne(
                    db, sql: "SELECT EXISTS (SELECT 1 FROM grdb_migrations WHERE identifier = ?)",
                    arguments: [StoreSchema.deferredReferencesMigration])
            )
        }
        #expect(!tables.isEmpty)
        #expect(tables.values.allSatisfy { Self.deferralCount($0) == 0 && Self.referenceCount($0) > 0 })
        #expect(recorded == false)
        _ = try BaselineDatabase.verify(copy)
        let joined = try Store.create(folder: made, fromBaseline: copy, clock: 1) { _, _ in }
        try Self.expectEveryReferenceDeferred(joined)
        #expect(try joined.check() == [])
    }
}
