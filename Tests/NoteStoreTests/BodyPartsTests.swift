import Foundation
import GRDB
@testable import NoteStore
import NoteTestSupport
import Testing

/// A long body is indexed in parts (``BodyParts``): an edit writes the entries of the parts
/// it changed, a search takes the name and parts of such a note together, and every path that
/// builds or checks the indexes (`check`, `--repair`, a baseline, a store that had the body
/// whole, a trigram build) agrees with it.
@Suite struct BodyPartsTests {
    let fixture: StoreFixture
    var store: Store { fixture.store }

    init() throws {
        fixture = try StoreFixture()
    }

    /// Numbered lines of about 50 bytes, `count` of them, with `lines` in place of some.
    static func body(lines count: Int = 24_000, with lines: [Int: String] = [:]) -> String {
        (0..<count).map { lines[$0] ?? "\($0): a line of a long note, about fifty bytes long" }
            .joined(separator: "\n") + "\n"
    }

    func parts(of id: UUID) throws -> [(id: Int64, range: Range<Int>)] {
        try store.read { db in
            let rowid = try Int64.fetchOne(db, sql: "SELECT rowid FROM item WHERE id = ?", arguments: [id.storeString])!
            return try BodyParts.parts(of: rowid, db).map { ($0.id, $0.range) }
        }
    }

    func names(_ query: String) throws -> [String] {
        try store.search(query).map(\.item.name).sorted()
    }

    @Test func partsAreRunsOfLinesEachWithTheStartOfTheNextOneAndAnEditMovesFewCuts() throws {
        let body = Self.body()
        let ranges = BodyParts.ranges(of: body)
        let bytes = Array(body.utf8)
        #expect(ranges.count > 5)
        #expect(ranges.first?.lowerBound == 0)
        #expect(ranges.last?.upperBound == bytes.count)
        for (range, next) in zip(ranges, ranges.dropFirst()) {
            // Each starts a line, and reaches into the next part by the fewest whole lines that
            // hold the overlap.
            #expect(bytes[next.lowerBound - 1] == 0x0A)
            #expect(range.upperBound > next.lowerBound && range.upperBound < next.upperBound)
            #expect(bytes[range.upperBound - 1] == 0x0A)
            #expect(range.upperBound - next.lowerBound >= BodyParts.overlapBytes)
            let lastBreak = bytes[next.lowerBound..<(range.upperBound - 1)].lastIndex(of: 0x0A) ?? next.lowerBound
            #expect(lastBreak - next.lowerBound < BodyParts.overlapBytes)
            // Past the most bytes, a part ends with its line.
            #expect(range.count - (range.upperBound - next.lowerBound) <= BodyParts.maximumBytes + 64)
        }
        // A line changed in the middle: the parts before and after it keep their text.
        let edited = Self.body(with: [12_000: "a changed line"])
        let texts = { (text: String) in Set(BodyParts.ranges(of: text).map { Array(text.utf8)[$0] }) }
        let kept = texts(body).intersection(texts(edited))
        #expect(kept.count >= ranges.count - 2)
        // A body of one line is one part.
        #expect(BodyParts.ranges(of: String(repeating: "x", count: 700_000)) == [0..<700_000])
    }

    @Test func aNoteInPartsIsFoundByItsNameAndPartsTakenTogether() throws {
        let plain = Self.body(with: [10: "the zebra crossing", 23_000: "an okapi far away, 東京タワー"])
        // The line that starts the third part, made blank (what comes after a cut does not
        // move it): `long N` is a phrase over the cut and the blank line.
        let cut = BodyParts.ranges(of: plain)[2].lowerBound
        let startingLine = Array(plain.utf8)[..<cut].filter { $0 == 0x0A }.count
        let body = Self.body(
            with: [10: "the zebra crossing", 23_000: "an okapi far away, 東京タワー", startingLine: ""])
        try #require(BodyParts.ranges(of: body)[2].lowerBound == cut)
        let long = try store.addNote(named: "Long list", body: body, in: nil).id
        _ = try store.addNote(named: "Short", body: "a zebra without an okapi", in: nil)
        #expect(try parts(of: long).count == BodyParts.ranges(of: body).count)
        #expect(try names("zebra") == ["Long list", "Short"])
        #expect(try names("zebra okapi") == ["Long list", "Short"])
        #expect(try names("zebra -okapi") == [])
        #expect(try names("zebra -東京") == ["Short"])
        #expect(try names("\"zebra crossing\"") == ["Long list"])
        #expect(try names("\"long \(startingLine + 1)\"") == ["Long list"])
        #expect(try names("list okapi") == ["Long list"])
        #expect(try names("list -okapi") == [])
        #expect(try names("東京 zebra") == ["Long list"])
        #expect(try names("*ebr* *kap*") == ["Long list", "Short"])
        #expect(try names("タ") == ["Long list"])
        #expect(try names("nothing OR crossing") == ["Long list"])
        #expect(try names("zebra name:Short") == ["Short"])
        // The note in parts ranks by its best part, and its snippet is that part's line.
        let found = try store.search("crossing")
        #expect(found.map(\.item.name) == ["Long list"])
        #expect(found.first?.snippet == "the zebra **crossing**")
        #expect(try store.search("list").first?.snippet.contains("**list**") == true)
        #expect(try store.check() == [])
    }

    @Test func anEditWritesTheChangedPartsAndEveryChangeKeepsTheIndexSound() throws {
        let body = Self.body()
        let id = try store.addNote(named: "Long", body: body, in: nil).id
        let before = try parts(of: id)
        _ = try store.edit(id, body: Self.body(with: [12_000: "a giraffe line"]))
        let after = try parts(of: id)
        // The parts before the edit keep their rows; after it, their text, in new places.
        let kept = Set(before.map(\.id)).intersection(after.map(\.id))
        #expect(kept.count >= before.count - 2)
        #expect(try names("giraffe") == ["Long"])
        #expect(try names("\"12000: a line\"") == [])
        #expect(try store.check() == [])
        // Shorter than the threshold: no parts, the entry whole; longer again: parts.
        _ = try store.edit(id, body: "a short giraffe")
        #expect(try parts(of: id).isEmpty)
        #expect(try names("giraffe") == ["Long"])
        #expect(try store.check() == [])
        _ = try store.edit(id, body: body)
        #expect(try parts(of: id).count == before.count)
        #expect(try names("giraffe") == [])
        _ = try store.edit(id, name: "Renamed", body: nil)
        #expect(try names("renamed 12000") == ["Renamed"])
        #expect(try store.check() == [])
        _ = try store.trash(id)
        #expect(try names("12000") == [])
        #expect(try names("12000 is:trashed") == ["Renamed"])
        _ = try store.emptyTrash()
        #expect(try store.read { db in try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM body_part") } == 0)
        #expect(try store.check() == [])
    }

    /// More old text than the search index holds at once (32 MiB) goes in one save: the
    /// entries are written once the rows have gone, not before.
    @Test func purgingLongNotesOfMoreThanTheTextHeldAtOnceLeavesNoEntry() throws {
        let lines = 190_000
        for name in ["One", "Two", "Three", "Four"] {
            let id = try store.addNote(named: name, body: Self.body(lines: lines, with: [1: "a zebra"]), in: nil).id
            _ = try store.trash(id)
        }
        _ = try store.emptyTrash()
        #expect(try store.read { db in try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM body_part") } == 0)
        #expect(try names("zebra is:trashed") == [])
        #expect(try store.check() == [])
    }

    @Test func checkFindsPartsThatDoNotMatchTheBodyAndRepairMakesThemAgain() throws {
        let id = try store.addNote(named: "Long", body: Self.body(), in: nil).id
        _ = id
        try store.write { db in try db.execute(sql: "UPDATE body_part SET start = start + 1 WHERE start > 0") }
        #expect(try store.check().contains("database: the full-text index does not match the items"))
        try store.rebuildSearchIndexes()
        #expect(try store.check() == [])
        #expect(try names("12000") == ["Long"])
    }

    @Test func aStoreWhoseIndexHoldsLongBodiesWholePartsThemWhenItOpens() throws {
        let folder = fixture.folder.appending("old")
        var opened: Store? = try Store(folder: folder)
        let id = try opened!.addNote(named: "Long", body: Self.body(with: [5: "a zebra"]), in: nil).id
        // As before parts: the word and trigram entries whole, no tables of parts.
        try opened!.write { db in
            let rowid = try Int64.fetchOne(db, sql: "SELECT rowid FROM item WHERE id = ?", arguments: [id.storeString])!
            try BodyParts.indexWhole(db)
            try TrigramIndex.remove(rowid: rowid, name: "Long", body: "", db)
            try TrigramIndex.add(rowid: rowid, name: "Long", body: Self.body(with: [5: "a zebra"]), db)
            try db.execute(
                sql: """
                    DROP TABLE \(BodyParts.trigramVocabulary); DROP TABLE \(BodyParts.trigramTable);
                    DROP TABLE \(BodyParts.wordTable); DROP TABLE \(BodyParts.table);
                    DELETE FROM grdb_migrations WHERE identifier = '\(StoreSchema.bodyPartsMigration)';
                    """)
        }
        opened = nil
        let store = try Store(folder: folder)
        #expect(try store.check() == [])
        #expect(try store.search("zebra").map(\.item.name) == ["Long"])
        #expect(try store.search("*ebr*").map(\.item.name) == ["Long"])
        #expect(
            try store.read { db in try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM body_part") }
                == BodyParts.ranges(of: Self.body(with: [5: "a zebra"])).count)
    }

    @Test func aBaselineHoldsTheWordIndexWholeAndAStoreMadeFromItPartsTheBody() throws {
        _ = try store.addNote(named: "Long", body: Self.body(with: [7: "an okapi"]), in: nil)
        let folder = fixture.folder.appending("new")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let copy = folder.appendingPathComponent("baseline.sqlite")
        _ = try store.copyForBaseline(to: copy) { _ in [:] }
        let baseline = try BaselineDatabase.verify(copy)
        #expect(
            try DatabaseQueue(path: copy.path).read { db in
                try (
                    db.tableExists(BodyParts.table),
                    Int.fetchOne(db, sql: "SELECT COUNT(*) FROM item_fts WHERE item_fts MATCH '12000'")
                )
            } == (false, 1))
        baseline.close()
        let made = try Store.create(folder: folder, fromBaseline: copy, clock: 1) { _, _ in }
        #expect(try made.check() == [])
        #expect(try made.search("okapi").map(\.item.name) == ["Long"])
        #expect(try made.read { db in try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM body_part") } ?? 0 > 5)
    }

    @Test func aTrigramBuildReachesTheParts() throws {
        _ = try store.addNote(named: "Long", body: Self.body(with: [9: "東京タワー"]), in: nil)
        _ = try store.addNote(named: "Short", body: "京都", in: nil)
        try store.write { db in try TrigramIndex.startBuilding(db) }
        #expect(try names("東京") == ["Long"])
        #expect(try names("京") == ["Long", "Short"])
        #expect(try store.check() == [])
        while try !store.write({ db in try TrigramIndex.build(items: 1, db) }) {}
        #expect(try names("東京") == ["Long"])
        #expect(try names("京") == ["Long", "Short"])
        #expect(try store.check() == [])
    }
}
