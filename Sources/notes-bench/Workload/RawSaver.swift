import Foundation
import NoteStore

/// A raw SQLite connection on a fresh store file, with a collection to put notes in, and
/// the statements of a one-row save.
struct RawSaver {
    let connection: RawConnection
    let inbox: String
    let begin: RawStatement
    let insert: RawStatement
    let index: RawStatement
    let commit: RawStatement

    init(folder: URL, synchronous: RawConnection.Synchronous) throws {
        _ = try Store(folder: folder)  // makes the schema, and closes
        connection = try RawConnection(
            path: folder.appendingPathComponent(Store.databaseFileName).path, synchronous: synchronous)
        inbox = UUID().uuidString.lowercased()
        insert = try connection.prepare(InsertScenario.itemInsertSQL)
        insert.bind([.text(inbox), .text("collection"), .text("Inbox"), .null, .integer(0), .integer(0), .null, .null])
        try insert.execute()
        index = try connection.prepare(
            "INSERT INTO item_fts (rowid, name, body) VALUES (last_insert_rowid(), ?, ?)")
        begin = try connection.prepare("BEGIN IMMEDIATE")
        commit = try connection.prepare("COMMIT")
    }

    /// Saves one note row and its full-text entry in their own transaction; returns the
    /// time it took.
    func save(name: String, body: String) throws -> Double {
        let now = Int64(Date().timeIntervalSince1970 * 1000)
        let row: [RawValue] = [
            .text(UUID().uuidString.lowercased()), .text("note"), .text(name), .text(inbox),
            .integer(now), .integer(now), .null, .text(body),
        ]
        return try Stopwatch.milliseconds {
            try begin.execute()
            insert.bind(row)
            try insert.execute()
            index.bind([row[InsertScenario.ItemColumn.name], row[InsertScenario.ItemColumn.body]])
            try index.execute()
            try commit.execute()
        }
    }
}
