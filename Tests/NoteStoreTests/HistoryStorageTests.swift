import Foundation
import GRDB
@testable import NoteStore
import NoteTestSupport
import Testing

/// How history is kept (model versions 6 and 8, docs/sync-format.md "History in the store"): a text
/// kept once in its item until the item's text changes or the item goes, contexts kept only
/// where they change, and every version reading back as it was saved through all of it.
@Suite struct HistoryStorageTests {
    let fixture: StoreFixture
    var store: Store { fixture.store }

    init() throws {
        fixture = try StoreFixture()
    }

    /// The stored content of each version of a property, oldest first: nil when kept in the item.
    private func contents(_ id: UUID, _ property: HistoryProperty) throws -> [Data?] {
        try store.read { db in try VersionStorage.line(id, property, db).entries.map(\.content) }
    }

    /// Every version's text, oldest first.
    private func texts(_ id: UUID, _ property: HistoryProperty) throws -> [String] {
        try store.history(of: id).filter { $0.property == property }.sorted { $0.stamp < $1.stamp }.map {
            try #require(try store.text(of: id, property, at: $0.stamp))
        }
    }

    private static let longBody = (1...40).map { "line \($0) of a note long enough for deltas\n" }.joined()

    @Test func aNewNoteKeepsItsTextsOnceInTheItem() throws {
        let note = try store.addNote(named: "Plan", body: Self.longBody, in: nil)
        #expect(try contents(note.id, .body) == [nil])
        #expect(try contents(note.id, .name) == [nil])
        #expect(try texts(note.id, .body) == [Self.longBody])
        #expect(try texts(note.id, .name) == ["Plan"])
        #expect(
            try store.historyBytes(of: note.id) == Self.longBody.utf8.count + 4,
            "a text kept in the item counts at its size")
    }

    @Test func anEditWritesTheOldTextIntoItsVersionFirst() throws {
        let note = try store.addNote(named: "Plan", body: Self.longBody, in: nil)
        let second = Self.longBody + "one more line\n"
        #expect(try store.edit(note.id, body: second))
        let stored = try contents(note.id, .body)
        #expect(stored.count == 2 && stored[0] == Data(Self.longBody.utf8), "the first version now holds its text")
        #expect(
            stored[1] != nil && stored[1]!.count < 40,
            "the edit is a delta against it: \(String(describing: stored[1]))")
        #expect(try contents(note.id, .name) == [nil], "a body edit leaves the name in the item")
        #expect(try texts(note.id, .body) == [Self.longBody, second])

        #expect(try store.edit(note.id, name: "Plan B", body: "short"))
        #expect(try texts(note.id, .body) == [Self.longBody, second, "short"])
        #expect(try texts(note.id, .name) == ["Plan", "Plan B"])
        #expect(try contents(note.id, .name) == [Data("Plan".utf8), nil])
        #expect(try contents(note.id, .body).last == .some(nil), "a short text is stored whole, so kept in the item")
        #expect(try store.check() == [])
    }

    @Test func aPurgedNoteKeepsEveryVersion() throws {
        let note = try store.addNote(named: "Gone", body: Self.longBody, in: nil)
        _ = try store.trash(note.id)
        try store.change { context in try context.purge(note.id) }
        #expect(throws: (any Error).self) { try store.item(note.id) }
        #expect(try texts(note.id, .body) == [Self.longBody])
        #expect(try texts(note.id, .name) == ["Gone"])
        #expect(try contents(note.id, .body) == [Data(Self.longBody.utf8)])
    }

    @Test func anItemMadeAgainWithItsIDAddsToItsHistory() throws {
        let note = try store.addNote(named: "Gone", body: Self.longBody, in: nil)
        _ = try store.trash(note.id)
        try store.change { context in try context.purge(note.id) }
        let context = store.makeContext()
        let now = Date()
        _ = context.insert(.note, id: note.id, named: "Back", body: "again", in: nil, created: now, modified: now)
        try context.save()
        #expect(try texts(note.id, .name) == ["Gone", "Back"], "the first save's versions join the line there is")
        #expect(try texts(note.id, .body) == [Self.longBody, "again"])
        #expect(try store.check() == [], "the link index finds it by its old name too")
    }

    @Test func aRestoreOfTheFirstTextReadsBackEveryVersion() throws {
        let note = try store.addNote(named: "Short", body: "one", in: nil)
        #expect(try store.edit(note.id, name: "Renamed"))
        let first = try #require(
            try store.history(of: note.id).filter { $0.property == .name }.min { $0.stamp < $1.stamp })
        try store.change { context in try context.restore(first) }
        #expect(try store.item(note.id).name == "Short")
        #expect(try texts(note.id, .name) == ["Short", "Renamed", "Short"])
        #expect(try contents(note.id, .name) == [Data("Short".utf8), Data("Renamed".utf8), nil])
    }

    /// Sync's writes: an inserted item's first versions are kept in it; an update of its name
    /// writes the name's text into history first, and leaves the body in the item.
    @Test func changesFromAnotherDeviceKeepTextsRight() throws {
        let other = UUID()
        let id = UUID()
        let first = ChangeStamp(clock: 1 << 16, device: other)
        var values = OutboxChanges()
        values.set("name", .text("From afar"))
        values.set("body", .text(Self.longBody))
        values.set("created", .integer(1))
        values.set("modified", .integer(1))
        try store.replicate { replica in
            try replica.insert(entity: .note, object: id, values: values, stamps: ["*": first])
            for (property, text) in [(HistoryProperty.name, "From afar"), (.body, Self.longBody)] {
                var draft = VersionDraft(object: id, property: property, stamp: first, bases: [], text: text)
                draft.isCurrentText = true
                try replica.addVersion(draft)
            }
        }
        #expect(try contents(id, .body) == [nil] && contents(id, .name) == [nil])
        let second = ChangeStamp(clock: 2 << 16, device: other)
        var rename = OutboxChanges()
        rename.set("name", .text("Renamed afar"))
        try store.replicate { replica in
            try replica.addVersion(
                VersionDraft(object: id, property: .name, stamp: second, bases: [first], text: "Renamed afar"))
            try replica.setHeads([second], of: id, .name)
            try replica.update(entity: .note, object: id, values: rename, stamps: ["name": second])
        }
        #expect(try texts(id, .name) == ["From afar", "Renamed afar"])
        #expect(try contents(id, .name) == [Data("From afar".utf8), Data("Renamed afar".utf8)])
        #expect(try contents(id, .body) == [nil])
        try store.replicate { replica in
            try replica.remove(entity: .note, object: id, stamp: ChangeStamp(clock: 3 << 16, device: other))
        }
        #expect(try texts(id, .body) == [Self.longBody])
    }

    /// Twenty edits in one place keep the context once every few versions, not twenty times,
    /// and each version still has the name and device it was saved with.
    @Test func contextsAreKeptWhereTheyChange() throws {
        let note = try store.addNote(named: "Diary", body: Self.longBody, in: nil)
        var body = Self.longBody
        for edit in 1...20 {
            body += "entry \(edit)\n"
            #expect(try store.edit(note.id, name: edit == 10 ? "Diary 2" : nil, body: body))
        }
        let versions = try store.history(of: note.id).filter { $0.property == .body }.sorted { $0.stamp < $1.stamp }
        #expect(versions.count == 21)
        #expect(
            versions.map { $0.context?.name } == Array(repeating: "Diary", count: 10)
                + Array(repeating: "Diary 2", count: 11))
        let stored = try store.read { db in try VersionStorage.line(note.id, .body, db).entries.map(\.context) }
        let kept = stored.compactMap { $0 }.count
        #expect(
            kept >= 4 && kept <= 6,
            "the first, the rename, and one every \(VersionStorage.maximumContextChain) versions: \(stored)")
        #expect(stored[10] != nil, "the rename's context differs from its base's")
    }

    /// A copy made for a baseline keeps once the texts that arrived by sync whole.
    @Test func aCopyForABaselineKeepsCurrentTextsOnce() throws {
        let id = UUID()
        let stamp = ChangeStamp(clock: 1 << 16, device: UUID())
        var values = OutboxChanges()
        values.set("name", .text("Arrived"))
        values.set("body", .text(Self.longBody))
        try store.replicate { replica in
            try replica.insert(entity: .note, object: id, values: values, stamps: ["*": stamp])
            try replica.addVersion(
                VersionDraft(object: id, property: .body, stamp: stamp, bases: [], text: Self.longBody))
        }
        #expect(try contents(id, .body) == [Data(Self.longBody.utf8)])
        let copy = fixture.folder.appending("copy.sqlite")
        _ = try store.copyForBaseline(to: copy) { _ in [:] }
        let stored = try DatabaseQueue(path: copy.path).read { db in
            try VersionStorage.line(id, .body, db).entries.map(\.content)
        }
        #expect(stored == [nil])
    }

    /// A body of about 120 KB, its line `changed` replaced.
    private static func longBody(changing changed: Int? = nil, to text: String = "") -> String {
        (0..<2_000).map { $0 == changed ? "\(text)\n" : "line \($0) of a note kept in history apart\n" }.joined()
    }

    /// The versions of a property whose content is kept apart, oldest first, and the rows of
    /// `history_text` of the object.
    private func apart(_ id: UUID, _ property: HistoryProperty) throws -> (versions: [Bool], rows: Int) {
        try store.read { db in
            (
                try VersionStorage.line(id, property, db).entries.map(\.isApart),
                try Int.fetchOne(
                    db, sql: "SELECT COUNT(*) FROM history_text WHERE object = ?",
                    arguments: [HistoryEncoding.bytes(of: id)]) ?? 0
            )
        }
    }

    /// The bytes of a line as stored.
    private func lineBytes(_ id: UUID, _ property: HistoryProperty) throws -> Int {
        try store.read { db in
            try Int.fetchOne(
                db, sql: "SELECT length(line) FROM history_line WHERE object = ? AND property = ?",
                arguments: [HistoryEncoding.bytes(of: id), HistoryEncoding.code(of: property)]) ?? 0
        }
    }

    @Test func aLongTextIsKeptApartFromItsLine() throws {
        let first = Self.longBody()
        let note = try store.addNote(named: "Long", body: first, in: nil)
        #expect(try apart(note.id, .body) == ([false], 0), "its first text is the item's")
        var bodies = [first]
        for edit in 1...(VersionStorage.maximumDepth + 2) {
            let body = Self.longBody(changing: edit * 7, to: "edit \(edit)")
            #expect(try store.edit(note.id, body: body))
            bodies.append(body)
        }
        let (versions, rows) = try apart(note.id, .body)
        #expect(versions.count == bodies.count)
        #expect(versions.first == true, "the first text, written into history by the first edit, is apart")
        #expect(
            versions.filter { $0 }.count == 2 && rows == 2,
            "a whole text again after \(VersionStorage.maximumDepth) deltas, apart too: \(versions)")
        let bytes = try lineBytes(note.id, .body)
        #expect(bytes < 8_000, "the line holds the deltas and no text: \(bytes) bytes")
        #expect(try texts(note.id, .body) == bodies)
        #expect(try store.historyBytes(of: note.id) > 2 * first.utf8.count)
        #expect(try store.check() == [])
    }

    @Test func versionsLeavingHistoryTakeTheirTextsKeptApart() throws {
        let note = try store.addNote(named: "Long", body: Self.longBody(), in: nil)
        #expect(try store.edit(note.id, body: Self.longBody(changing: 3, to: "changed")))
        #expect(try apart(note.id, .body).rows == 1)
        try store.replicate { replica in try replica.removeHistory(of: note.id, .body) }
        #expect(try apart(note.id, .body) == ([], 0))
        #expect(try store.check() == [])
    }

    @Test func aCheckFindsATextKeptApartMissingOrLeftOver() throws {
        let note = try store.addNote(named: "Long", body: Self.longBody(), in: nil)
        #expect(try store.edit(note.id, body: Self.longBody(changing: 3, to: "changed")))
        try store.write { db in try db.execute(sql: "DELETE FROM history_text") }
        #expect(try store.check() == ["database: the long texts of history do not match its lines"])
        let oldest = try #require(try store.history(of: note.id).last?.stamp)
        #expect(throws: StoreError.self) { try store.text(of: note.id, .body, at: oldest) }
    }

    /// A baseline's lines hold their texts, as every build reads them, and a store made from
    /// one keeps them apart again once it writes the line.
    @Test func aBaselineHoldsTheTextsKeptApartInItsLines() throws {
        let first = Self.longBody()
        let second = Self.longBody(changing: 3, to: "changed")
        let note = try store.addNote(named: "Long", body: first, in: nil)
        #expect(try store.edit(note.id, body: second))
        let folder = fixture.folder.appending("new")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let copy = folder.appendingPathComponent("baseline.sqlite")
        _ = try store.copyForBaseline(to: copy) { _ in [:] }
        let baseline = try BaselineDatabase.verify(copy)
        let inCopy = try DatabaseQueue(path: copy.path).read { db in
            (
                try db.tableExists("history_text"),
                try HistoryLine(
                    object: note.id, property: .body,
                    decoding: try #require(
                        try Data.fetchOne(
                            db, sql: "SELECT line FROM history_line WHERE object = ? AND property = ?",
                            arguments: [
                                HistoryEncoding.bytes(of: note.id), HistoryEncoding.code(of: HistoryProperty.body),
                            ]
                        )))?.entries.map(\.content)
            )
        }
        #expect(inCopy.0 == false)
        #expect(inCopy.1?.first == .some(Data(first.utf8)), "the first text is in the line, readable by every build")
        baseline.close()
        let made = try Store.create(folder: folder, fromBaseline: copy, clock: 1) { _, _ in }
        #expect(try made.check() == [])
        let third = Self.longBody(changing: 5, to: "again")
        #expect(try made.edit(note.id, body: third))
        #expect(
            try made.read { db in try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM history_text") } == 1,
            "the line's long text went apart when the edit wrote the line")
        #expect(
            try made.history(of: note.id).filter { $0.property == .body }.sorted { $0.stamp < $1.stamp }.map {
                try made.text(of: note.id, .body, at: $0.stamp)
            } == [first, second, third])
        #expect(try made.check() == [])
    }
}
