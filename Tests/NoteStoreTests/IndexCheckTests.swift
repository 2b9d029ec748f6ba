import Foundation
import GRDB
import GRDBSQLite
@testable import NoteStore
import NoteTestSupport
import Testing

/// The check of a baseline's indexes (IndexCheck) sorts entries as SQLite sorts them, finds
/// an index whose entries are not its table's, and passes every index of a store.
@Suite struct IndexCheckTests {
    /// Random entries of one to three columns (NULL, integers at the edges, text and blobs
    /// with zero bytes, empty ones, prefixes of each other): the order of their bytes is the
    /// order SQLite gives them, entry for entry, and equal entries have equal bytes.
    @Test func entryBytesSortAsSQLiteSorts() throws {
        var random = SplitMix64(seed: 41)
        let queue = try DatabaseQueue()
        try queue.write { db in
            try db.execute(sql: "CREATE TABLE entry(a, b, c)")
            let pieces: [DatabaseValue] = [
                .null, 0.databaseValue, (-1).databaseValue, Int64.min.databaseValue, Int64.max.databaseValue,
                7.databaseValue,
                "".databaseValue, "a".databaseValue, "ab".databaseValue, "a\0".databaseValue, "a\0b".databaseValue,
                "b".databaseValue,
                "é".databaseValue, Data().databaseValue, Data([0]).databaseValue, Data([0, 0xFF]).databaseValue,
                Data([1]).databaseValue,
            ]
            for _ in 0..<3_000 {
                let row = (0..<3).map { _ in pieces[Int(random.next() % UInt64(pieces.count))] }
                try db.execute(sql: "INSERT INTO entry(a, b, c) VALUES (?, ?, ?)", arguments: StatementArguments(row))
            }
        }
        let sorted = try queue.read { db -> [(EntryBytes, [DatabaseValue])] in
            let statement = try db.makeStatement(sql: "SELECT a, b, c FROM entry ORDER BY a, b, c")
            var result: [(EntryBytes, [DatabaseValue])] = []
            try withExtendedLifetime(statement) {
                let handle = statement.sqliteStatement
                while sqlite3_step(handle) == SQLITE_ROW {
                    var entry = EntryBytes()
                    for column in 0..<Int32(3) { try entry.append(handle, column) }
                    let values = (0..<Int32(3)).map { DatabaseValue(sqliteStatement: handle, index: $0) }
                    result.append((entry, values))
                }
            }
            return result
        }
        #expect(sorted.count == 3_000)
        for (earlier, later) in zip(sorted, sorted.dropFirst()) {
            if earlier.1 == later.1 {
                #expect(earlier.0.bytes == later.0.bytes)
            } else {
                #expect(earlier.0.precedes(later.0), "\(earlier.1) before \(later.1)")
                #expect(!later.0.precedes(earlier.0))
            }
        }
    }

    /// A store with notes, collections, trashed notes and tags passes; an index that reads
    /// another's entries does not.
    @Test func theIndexesOfAStorePassAndAnotherIndexsEntriesDoNot() throws {
        let fixture = try StoreFixture()
        let store = fixture.store
        let folder = try store.addCollection(named: "Folder", in: nil)
        let context = store.makeContext()
        for number in 0..<50 {
            let note = context.insertNote(
                named: "Note \(number)", body: "body \(number)", in: number % 2 == 0 ? folder.id : nil)
            if number % 5 == 0 { _ = try context.tag(note.id, with: ["t\(number % 3)"]) }
            if number % 7 == 0 { try context.trash(note.id) }
        }
        try context.save()
        let path = store.folder.appendingPathComponent(Store.databaseFileName).path
        let queue = try DatabaseQueue(path: path)
        #expect(try queue.read { try IndexCheck.problemInTablesWithRowids($0) } == nil)
        #expect(try queue.read { try IndexCheck.problemInTablesWithoutRowids($0) } == nil)
        try queue.close()
        try IndexRoots.swap("item_on_parent", "sqlite_autoindex_item_1", in: URL(fileURLWithPath: path))
        let reopened = try DatabaseQueue(path: path)
        let problem = try reopened.read { try IndexCheck.problemInTablesWithRowids($0) }
        #expect(problem?.contains("does not hold the rows of item") == true, "\(problem ?? "none")")
        try reopened.close()
    }

    /// The index of trashed items is searched past NULL keys; one that holds an entry for
    /// every item, NULL for those not in the trash, is found out by its count of entries.
    @Test func aPartialIndexWithEntriesItsSearchPassesOverDoesNotPass() throws {
        let fixture = try StoreFixture()
        let context = fixture.store.makeContext()
        for number in 0..<20 {
            let note = context.insertNote(named: "Note \(number)", body: "", in: nil)
            if number % 4 == 0 { try context.trash(note.id) }
        }
        try context.save()
        let path = fixture.store.folder.appendingPathComponent(Store.databaseFileName).path
        let queue = try DatabaseQueue(path: path)
        try queue.writeWithoutTransaction { db in try db.execute(sql: "CREATE INDEX every_trashed ON item(trashed)") }
        try queue.close()
        try IndexRoots.swap("item_on_trashed", "every_trashed", in: URL(fileURLWithPath: path))
        let reopened = try DatabaseQueue(path: path)
        try reopened.writeWithoutTransaction { db in try db.execute(sql: "DROP INDEX every_trashed") }
        #expect(try reopened.read { try String.fetchAll($0, sql: "PRAGMA quick_check") } == ["ok"])
        let problem = try reopened.read { try IndexCheck.problemInTablesWithRowids($0) }
        #expect(problem == "the index item_on_trashed holds entries that its scan passes over", "\(problem ?? "none")")
        try reopened.close()
    }
}
