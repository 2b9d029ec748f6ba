import Foundation
import GRDB
@testable import NoteStore
import NoteTestSupport
import Testing

/// A store that gets the trigram index with many items (one made from a baseline) builds it a
/// part at a time: meanwhile, searches find what the whole index finds (the items it has not
/// reached are read), saves keep the part it holds in step, and `notes check` finds it sound.
@Suite struct TrigramBuildTests {
    /// Two stores given the same changes: `building` builds its index a part at a time,
    /// `whole` keeps it whole.
    let building: StoreFixture
    let whole: StoreFixture

    init() throws {
        building = try StoreFixture()
        whole = try StoreFixture()
    }

    static let bodies = [
        ("日本語メモ", "今日は東京に行きました。"), ("北京", "中文笔记"),
        ("Thai", "สวัสดีครับ ผมชื่อสมชาย"),
        ("Strings", "concatenate them"), ("C", "learning C++ today"), ("Straße", "Große Straße"),
        ("Café", "un café crème"), ("京都", "京都へ"), ("Plain", "nothing special here"),
    ]
    static let queries = [
        "東京", "京", "へ", "笔记", "ชื่อ", "ดี",
        "*caten*", "*CATEN", "c++", "strasse", "*CAFE*", "*reme",
        "東京 OR *caten*", "*caten* -them", "*ecial* name:Plain", "大阪",
    ]

    /// The names each query finds, sorted: a build in progress ranks nothing by the trigram
    /// index, so the order may differ.
    func found(in store: Store) throws -> [String: [String]] {
        var found: [String: [String]] = [:]
        for query in Self.queries { found[query] = try store.search(query).map(\.item.name).sorted() }
        return found
    }

    func expectSame(_ comment: Comment) throws {
        #expect(try found(in: building.store) == (try found(in: whole.store)), comment)
        #expect(try building.store.check() == [], comment)
    }

    func change(_ body: (Store) throws -> Void) throws {
        try body(building.store)
        try body(whole.store)
    }

    @Test func searchesFindWhatTheWholeIndexFindsWhileItIsBuilt() throws {
        var ids: [String: (UUID, UUID)] = [:]
        for (name, body) in Self.bodies {
            ids[name] = (
                try building.store.addNote(named: name, body: body, in: nil).id,
                try whole.store.addNote(named: name, body: body, in: nil).id
            )
        }
        try building.store.write { db in try TrigramIndex.startBuilding(db) }
        #expect(try building.store.trigramIndexBuild() == IndexBuild(built: 0, items: Self.bodies.count))
        try expectSame("nothing built")

        #expect(try !building.store.buildTrigramIndex(items: 4))
        #expect(try building.store.trigramIndexBuild() == IndexBuild(built: 4, items: Self.bodies.count))
        try expectSame("four built")

        // Edits of items reached and not reached, a new item, and one trashed.
        func edit(_ name: String, body: String) throws {
            let (one, other) = try #require(ids[name])
            #expect(try building.store.edit(one, body: body))
            #expect(try whole.store.edit(other, body: body))
        }
        try edit("日本語メモ", body: "大阪に行きました。")
        try edit("Plain", body: "東京 again")
        try change { _ = try $0.addNote(named: "New", body: "concatenation in 東京", in: nil) }
        let (one, other) = try #require(ids["Strings"])
        _ = try building.store.trash(one)
        _ = try whole.store.trash(other)
        try expectSame("edited while building")

        #expect(try !building.store.buildTrigramIndex(items: 3))
        try expectSame("seven built")
        while try !building.store.buildTrigramIndex(items: 3) {}
        #expect(try building.store.trigramIndexBuild() == nil)
        try expectSame("whole")
        // Whole, the two list the same notes in the same order.
        #expect(
            try building.store.search("東京").map(\.item.name) == (try whole.store.search("東京").map(\.item.name)))
    }

    /// `notes check --repair` builds what is left at once.
    @Test func repairFinishesTheBuild() throws {
        try change { _ = try $0.addNote(named: "Plan", body: "東京", in: nil) }
        try building.store.write { db in try TrigramIndex.startBuilding(db) }
        try building.store.rebuildSearchIndexes()
        #expect(try building.store.trigramIndexBuild() == nil)
        try expectSame("repaired")
    }

    /// `notes check` still sees an index that holds what it should not.
    @Test func checkSeesAStrayEntryBeyondTheBuild() throws {
        try change { _ = try $0.addNote(named: "Plan", body: "東京", in: nil) }
        try building.store.write { db in
            try TrigramIndex.startBuilding(db)
            try TrigramIndex.add(rowid: 1, name: "Plan", body: "東京", db)
        }
        #expect(try building.store.check().contains { $0.contains("trigram index") })
    }
}
