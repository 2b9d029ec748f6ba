import Foundation
import GRDB
@testable import NoteStore
import NoteTestSupport
import Testing

/// A listing reads the listing index alone, never the table: the index is made with every new
/// store and by the migration of an existing one, whatever its size; a baseline leaves it out;
/// a store made from a baseline of many items records it as still to be made, lists the same
/// meanwhile, and gets it from ``Store/buildListingIndex()`` or `notes check --repair`.
@Suite struct ListingIndexTests {
    let fixture: StoreFixture
    var store: Store { fixture.store }

    init() throws {
        fixture = try StoreFixture()
    }

    func hasIndex(_ store: Store) throws -> Bool {
        try store.read { db in
            try Bool.fetchOne(
                db, sql: "SELECT EXISTS (SELECT 1 FROM sqlite_master WHERE type = 'index' AND name = ?)",
                arguments: [ListingIndex.name])!
        }
    }

    /// The query plan of the listing of `collection` (nil: the top level).
    func plan(_ collection: UUID?) throws -> String {
        let scope: ItemRequest.Scope = collection.map { .children(of: $0) } ?? .topLevel
        let request = ItemRequest(scope: scope, trash: .excluded, sort: .name, includesBodies: false)
        let sql = ItemFilter.sql(for: request)
        return try store.read { db in
            let (text, arguments) = try sql.build(db)
            return try Row.fetchAll(db, sql: "EXPLAIN QUERY PLAN " + text, arguments: arguments)
                .map { $0["detail"] as String }.joined(separator: "; ")
        }
    }

    /// Runs the migration again, as a store made from a baseline (no device id yet) or an
    /// existing store (`fromBaseline` false) runs it.
    func migrateAgain(fromBaseline: Bool) throws {
        try store.write { db in
            try db.execute(sql: "DROP INDEX \(ListingIndex.name)")
            let device = try String.fetchOne(db, sql: "SELECT value FROM metadata WHERE key = 'device_id'")!
            if fromBaseline { try db.execute(sql: "DELETE FROM metadata WHERE key = 'device_id'") }
            try StoreSchema.addListingIndex(db)
            try db.execute(literal: "INSERT OR REPLACE INTO metadata(key, value) VALUES ('device_id', \(device))")
        }
    }

    func addItems(_ count: Int, in collection: UUID) throws {
        let context = store.makeContext()
        for number in 0..<count {
            _ = context.insertNote(named: "Note \(number)", body: "text \(number)", in: collection)
        }
        try context.save()
    }

    @Test func aListingReadsTheIndexAlone() throws {
        let folder = try store.addCollection(named: "Folder", in: nil)
        _ = try store.addNote(named: "B", body: "b", in: folder.id)
        #expect(try hasIndex(store))
        for collection in [folder.id, nil] {
            let plan = try plan(collection)
            #expect(plan.contains("COVERING INDEX \(ListingIndex.name)"), "\(plan)")
        }
    }

    @Test func anExistingStoreGetsTheIndexWhateverItsSize() throws {
        let folder = try store.addCollection(named: "Folder", in: nil)
        try addItems(StoreSchema.buildAtOnceLimit, in: folder.id)
        try migrateAgain(fromBaseline: false)
        #expect(try hasIndex(store))
        #expect(try !store.isListingIndexPending())
    }

    @Test func aStoreFromABaselineOfManyItemsMakesItLater() throws {
        let folder = try store.addCollection(named: "Folder", in: nil)
        try addItems(StoreSchema.buildAtOnceLimit - 1, in: folder.id)
        try migrateAgain(fromBaseline: true)
        #expect(try hasIndex(store), "up to the limit, at once")

        _ = try store.addNote(named: "One more", body: "x", in: folder.id)
        let listed = try store.listing(of: folder.id).map(\.item)
        try migrateAgain(fromBaseline: true)
        #expect(try !hasIndex(store))
        #expect(try store.isListingIndexPending())
        #expect(try store.listing(of: folder.id).map(\.item) == listed, "the same listing without the index")

        try store.buildListingIndex()
        #expect(try hasIndex(store))
        #expect(try !store.isListingIndexPending())
        #expect(try store.listing(of: folder.id).map(\.item) == listed)

        try migrateAgain(fromBaseline: true)
        try store.rebuildSearchIndexes()
        #expect(try hasIndex(store), "notes check --repair makes it")
        #expect(try !store.isListingIndexPending())
        #expect(try store.check() == [])
    }

    /// A baseline holds neither the index, nor its migration, nor a build to come; a store
    /// made from it of more items than the limit records the index as still to be made, lists
    /// the same meanwhile, and makes it when asked.
    @Test func aBaselineLeavesTheIndexOut() throws {
        let folder = try store.addCollection(named: "Folder", in: nil)
        try addItems(StoreSchema.buildAtOnceLimit, in: folder.id)
        let listed = try store.listing(of: folder.id).map(\.item)
        try store.write { db in try ListingIndex.markPending(db) }
        let made = fixture.folder.appending("new")
        try FileManager.default.createDirectory(at: made, withIntermediateDirectories: true)
        let copy = made.appendingPathComponent("baseline.sqlite")
        _ = try store.copyForBaseline(to: copy) { _ in [:] }
        let found = try DatabaseQueue(path: copy.path).read { db in
            try [
                Bool.fetchOne(
                    db, sql: "SELECT EXISTS (SELECT 1 FROM sqlite_master WHERE name = ?)",
                    arguments: [ListingIndex.name]),
                Bool.fetchOne(
                    db, sql: "SELECT EXISTS (SELECT 1 FROM metadata WHERE key = ?)", arguments: [ListingIndex.buildKey]),
                Bool.fetchOne(
                    db, sql: "SELECT EXISTS (SELECT 1 FROM grdb_migrations WHERE identifier = ?)",
                    arguments: [StoreSchema.listingIndexMigration]),
            ]
        }
        #expect(found == [false, false, false])
        let joined = try Store.create(folder: made, fromBaseline: copy, clock: 1) { _, _ in }
        #expect(try !hasIndex(joined))
        #expect(try joined.isListingIndexPending())
        #expect(try joined.listing(of: folder.id).map(\.item) == listed)
        try joined.buildListingIndex()
        #expect(try hasIndex(joined))
        #expect(try !joined.isListingIndexPending())
        #expect(try joined.listing(of: folder.id).map(\.item) == listed)
    }
}
