import Foundation
import GRDB
import NoteStore
import NoteTestSupport
import Testing

/// Text of any script, and parts of words, are found through the trigram index beside the
/// word index; results list names that hold the text first, then by recency.
@Suite struct TrigramSearchTests {
    let fixture: StoreFixture
    var store: Store { fixture.store }

    init() throws {
        fixture = try StoreFixture()
    }

    func names(_ query: String) throws -> [String] {
        try store.search(query).map(\.item.name)
    }

    @Test func chineseAndJapaneseAreFoundInsideUnbrokenRuns() throws {
        _ = try store.addNote(
            named: "日本語メモ", body: "今日は東京に行きました。\n雨でした。", in: nil)
        _ = try store.addNote(named: "北京", body: "中文笔记", in: nil)
        #expect(try names("東京") == ["日本語メモ"])
        #expect(try names("日本語") == ["日本語メモ"])
        #expect(try names("行きました") == ["日本語メモ"])
        #expect(try names("笔记") == ["北京"])
        #expect(try names("大阪").isEmpty)
        let result = try #require(try store.search("東京").first)
        #expect(result.snippet == "今日は**東京**に行きました。")
    }

    /// One or two characters, which no trigram finds, are found among the trigrams they
    /// begin: anywhere in a text, at its end too.
    @Test func termsOfOneOrTwoCharactersAreFound() throws {
        _ = try store.addNote(named: "東京", body: "", in: nil)
        _ = try store.addNote(named: "Trip", body: "京都へ", in: nil)
        #expect(try names("京").sorted() == ["Trip", "東京"])
        #expect(try names("東京") == ["東京"])
        #expect(try names("都").sorted() == ["Trip"])
        #expect(try names("へ") == ["Trip"])
        #expect(try names("阪").isEmpty)
    }

    @Test func thaiIsFoundInsideUnbrokenRuns() throws {
        _ = try store.addNote(
            named: "Thai", body: "สวัสดีครับ ผมชื่อสมชาย", in: nil)
        #expect(try names("สวัสดี") == ["Thai"])
        #expect(try names("ชื่อ") == ["Thai"])
        #expect(try names("ดี") == ["Thai"])
    }

    /// A word starting with `*` is a part of a word; symbols the word index drops are kept.
    @Test func partsOfWordsAndSymbolsAreFoundWhenAskedFor() throws {
        _ = try store.addNote(named: "Strings", body: "concatenate them", in: nil)
        _ = try store.addNote(named: "C", body: "learning C++ today", in: nil)
        #expect(try names("caten").isEmpty, "a word is a word")
        #expect(try names("*caten*") == ["Strings"])
        #expect(try names("*CATEN") == ["Strings"])
        #expect(try names("c++") == ["C"])
        #expect(try store.search("*caten*").first?.snippet == "con**caten**ate them")
    }

    @Test func sharpSFoldsToSSInBothIndexesAndInTheQuery() throws {
        _ = try store.addNote(named: "Straße", body: "Die Hauptstraße ist lang.", in: nil)
        _ = try store.addNote(named: "Grüße", body: "an Strasse", in: nil)
        #expect(try names("Strasse").sorted() == ["Grüße", "Straße"])
        #expect(try names("straße").sorted() == ["Grüße", "Straße"])
        #expect(try names("hauptstrasse") == ["Straße"])
        #expect(try names("grusse") == ["Grüße"])
        #expect(try names("*STRASS*").sorted() == ["Grüße", "Straße"])
    }

    @Test func queriesMixBothIndexes() throws {
        _ = try store.addNote(named: "Trip", body: "東京 and the lamp", in: nil)
        _ = try store.addNote(named: "Lamp", body: "a lamp", in: nil)
        _ = try store.addNote(named: "京都", body: "temples", in: nil)
        #expect(try names("東京 lamp") == ["Trip"])
        #expect(try names("lamp -東京") == ["Lamp"])
        #expect(try names("東京 OR temples").sorted() == ["Trip", "京都"])
        #expect(try names("(東京 OR 京都) -temples") == ["Trip"])
    }

    @Test func nameMatchesRankAboveBodyMatchesInTheTrigramIndex() throws {
        let inBody = try store.addNote(named: "Notes", body: "東京都 東京都 and more about 東京都", in: nil)
        let inName = try store.addNote(named: "東京都", body: "a city", in: nil)
        #expect(try store.search("東京都").map(\.item.id) == [inName.id, inBody.id])
    }

    /// The index holds no positions: a note with every trigram of a term, but not the term, is
    /// not found; nor one with some of them in its name and the others in its body.
    @Test func trigramsApartDoNotMakeTheTerm() throws {
        _ = try store.addNote(named: "Apart", body: "abc bcd cde", in: nil)
        _ = try store.addNote(named: "abc", body: "bcde", in: nil)
        _ = try store.addNote(named: "Whole", body: "xabcdex", in: nil)
        #expect(try names("*abcde*") == ["Whole"])
        #expect(try names("*abcde* OR *cde*").sorted() == ["Apart", "Whole", "abc"])
        #expect(try names("*bcd* -*abcde*").sorted() == ["Apart", "abc"])
        _ = try store.addNote(named: "都の話", body: "京都と東京", in: nil)
        _ = try store.addNote(named: "首都", body: "東京都の話", in: nil)
        #expect(try names("東京都") == ["首都"])
    }

    /// A phrase longer than the trigrams a query asks for is found whole, and only whole.
    @Test func aLongPhraseIsFoundWhole() throws {
        let phrase = "今日は東京に行きました。雨でしたが、楽しい一日でした。また行きたいです。"
        _ = try store.addNote(named: "Diary", body: "前置き。" + phrase + "後書き。", in: nil)
        let shuffled = phrase.split(separator: "、").reversed().joined(separator: "、")
        _ = try store.addNote(named: "Other", body: shuffled, in: nil)
        #expect(try names("\"\(phrase)\"") == ["Diary"])
        #expect(try names(phrase) == ["Diary"])
    }

    /// With nothing to rank by, a note whose name holds the text comes before more recent ones
    /// that hold it in their bodies.
    @Test func aNameThatHoldsTheTextComesFirst() throws {
        let inName = try store.addNote(named: "東京都", body: "a city", in: nil)
        let inBody = try store.addNote(named: "Notes", body: "東京都 東京都 and more about 東京都", in: nil)
        #expect(try store.search("東京都").map(\.item.id) == [inName.id, inBody.id])
        #expect(try store.search("*京都*").map(\.item.id) == [inName.id, inBody.id])
    }

    /// Equal ranks: the most recently modified first.
    @Test func recencyBreaksTies() throws {
        let context = store.makeContext()
        let day = Date(timeIntervalSince1970: 1_700_000_000)
        let older = context.insert(
            .note, id: UUID(), named: "Note A", body: "a lamp", in: nil, created: day, modified: day)
        let newer = context.insert(
            .note, id: UUID(), named: "Note B", body: "a lamp", in: nil, created: day,
            modified: day.addingTimeInterval(60))
        try context.save()
        #expect(try store.search("lamp").map(\.item.id) == [newer.id, older.id])
        #expect(try store.search("*amp").map(\.item.id) == [newer.id, older.id])
        #expect(try store.edit(older.id, name: "Note C"))
        #expect(try store.search("lamp").map(\.item.id) == [older.id, newer.id])
        #expect(try store.search("*amp").map(\.item.id) == [older.id, newer.id])
    }

    @Test func editsAndTrashKeepTheTrigramIndexInStep() throws {
        let note = try store.addNote(named: "Plan", body: "東京", in: nil)
        #expect(try store.edit(note.id, body: "大阪"))
        #expect(try names("東京").isEmpty)
        #expect(try names("大阪") == ["Plan"])
        #expect(try store.check().isEmpty)
    }

    /// `notes check` sees a trigram index that does not match the items, and
    /// `rebuildSearchIndexes` (`notes check --repair`) builds it again.
    @Test func repairBuildsTheTrigramIndexAgain() throws {
        _ = try store.addNote(named: "Plan", body: "東京", in: nil)
        let queue = try DatabaseQueue(path: store.folder.appendingPathComponent(Store.databaseFileName).path)
        try queue.write { db in try db.execute(sql: "INSERT INTO item_trigram(item_trigram) VALUES ('delete-all')") }
        try queue.close()
        #expect(try names("東京").isEmpty)
        #expect(try store.check().contains { $0.contains("trigram index") })
        try store.rebuildSearchIndexes()
        #expect(try store.check().isEmpty)
        #expect(try names("東京") == ["Plan"])
    }

    /// A store made before the trigram index has it built when it opens to write.
    @Test func anOlderStoreGetsTheTrigramIndexWhenItOpens() throws {
        let (folder, storeURL) = try copyOfStoreFixture("store-v7.sqlite")
        defer { _ = folder }
        let opened = try Store(folder: storeURL)
        let words = try opened.search("*e*", limit: 1000).count
        #expect(words > 0)
        #expect(try opened.check().isEmpty)
        let queue = try DatabaseQueue(path: storeURL.appendingPathComponent(Store.databaseFileName).path)
        defer { try? queue.close() }
        let counts = try queue.read { db in
            (
                try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM item")!,
                try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM item_trigram_docsize")!
            )
        }
        #expect(counts.0 == counts.1)
    }

    /// A store whose trigram index holds positions (made by the release before it went without
    /// them, `make-store-trigram-positions.sh`) has it made again without them when it opens,
    /// and finds the same notes.
    @Test func aTrigramIndexWithPositionsIsMadeAgainWithout() throws {
        let (folder, storeURL) = try copyOfStoreFixture("store-trigram-positions.sqlite")
        defer { _ = folder }
        let opened = try Store(folder: storeURL)
        #expect(try opened.check().isEmpty)
        #expect(try opened.search("東京").map(\.item.name) == ["日本語メモ"])
        #expect(try opened.search("*caten*").map(\.item.name) == ["Strings"])
        #expect(try opened.search("c++").map(\.item.name) == ["C"])
        #expect(try opened.search("*abcde*").isEmpty)
        #expect(try opened.search("大阪 is:trashed").map(\.item.name) == ["Old plan"])
        let queue = try DatabaseQueue(path: storeURL.appendingPathComponent(Store.databaseFileName).path)
        defer { try? queue.close() }
        let made = try queue.read { db in
            try String.fetchOne(db, sql: "SELECT sql FROM sqlite_master WHERE name = 'item_trigram'")
        }
        #expect(made?.contains("detail = 'none'") == true)
        #expect(try Self.hashSizes(queue) == [4 << 20, 4 << 20])
    }

    /// Both indexes of a new store gather 4 MiB of a transaction's tokens before writing a
    /// segment.
    @Test func bothIndexesGatherLargerSegments() throws {
        let queue = try DatabaseQueue(path: store.folder.appendingPathComponent(Store.databaseFileName).path)
        defer { try? queue.close() }
        #expect(try Self.hashSizes(queue) == [4 << 20, 4 << 20])
    }

    static func hashSizes(_ queue: DatabaseQueue) throws -> [Int?] {
        try queue.read { db in
            try ["item_fts_config", "item_trigram_config"].map {
                try Int.fetchOne(db, sql: "SELECT v FROM \($0) WHERE k = 'hashsize'")
            }
        }
    }
}
