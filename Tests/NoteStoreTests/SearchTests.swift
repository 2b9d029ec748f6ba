import Foundation
@testable import NoteStore
import NoteTestSupport
import Synchronization
import Testing

@Suite struct SearchTests {
    @Test func findsWordsInNamesAndBodiesWithASnippet() throws {
        let fixture = try StoreFixture()
        let tree = try fixture.makeTree()
        let results = try fixture.store.search("potatoes")
        #expect(results.map(\.item.id) == [tree.soup])
        #expect(results.first?.snippet == "leeks and **potatoes**")
    }

    @Test func nameMatchesRankAboveBodyMatches() throws {
        let fixture = try StoreFixture()
        let inBody = try fixture.store.addNote(named: "Shopping", body: "buy a lamp and some garden lamp oil", in: nil)
        let inName = try fixture.store.addNote(named: "Lamp", body: "the one in the hall", in: nil)
        #expect(try fixture.store.search("lamp").map(\.item.id) == [inName.id, inBody.id])
    }

    @Test func everyWordMustOccurInAnyOrder() throws {
        let fixture = try StoreFixture()
        let both = try fixture.store.addNote(named: "a", body: "red apples and green pears", in: nil)
        _ = try fixture.store.addNote(named: "b", body: "red wine", in: nil)
        #expect(try fixture.store.search("pears red").map(\.item.id) == [both.id])
    }

    @Test func ignoresCaseAndDiacriticsAndMatchesPrefixes() throws {
        let fixture = try StoreFixture()
        let note = try fixture.store.addNote(named: "Café", body: "Crème brûlée recipe", in: nil)
        #expect(try fixture.store.search("CAFE").map(\.item.id) == [note.id])
        #expect(try fixture.store.search("brulee").map(\.item.id) == [note.id])
        #expect(try fixture.store.search("rec*").map(\.item.id) == [note.id])
        #expect(try fixture.store.search("rec").isEmpty)
    }

    /// Text is never FTS5's syntax: what reads is searched, what does not is an error that
    /// says what and where.
    @Test func queryTextIsNeverFTSSyntaxAndABadQuerySaysWhere() throws {
        let fixture = try StoreFixture()
        _ = try fixture.store.addNote(named: "x", body: "quotes \" and (parens) AND OR NOT x:y NEAR", in: nil)
        #expect(try fixture.store.search("(parens)").count == 1)
        #expect(try fixture.store.search("x:y NEAR").count == 1)
        #expect(try fixture.store.search("*").isEmpty)
        let problems: [(String, String)] = [
            ("\"", "'\"' opens a phrase that no '\"' closes at column 1 of the query"),
            ("quotes (", "'(' holds nothing to look for at column 8 of the query"),
            ("(quotes", "'(' opens a group that no ')' closes at column 1 of the query"),
            ("quotes)", "')' closes no '(' at column 7 of the query"),
            ("a OR", "'OR' needs a word or a phrase after it at column 3 of the query"),
            ("-x", "a query needs a word or a filter to find besides those it excludes at column 1 of the query"),
            ("quotes NOT", "'NOT' needs a word or a phrase after it at column 8 of the query"),
            ("AND", "nothing to look for at column 1 of the query"),
        ]
        for (query, problem) in problems {
            #expect(throws: StoreError.self, "\(query)") { try fixture.store.search(query) }
            do {
                _ = try fixture.store.search(query)
            } catch {
                #expect("\(error)" == "invalid search: " + problem, "\(query)")
            }
        }
    }

    /// Phrases, OR, NOT and groups, as search engines read them.
    @Test func phrasesAlternativesAndExclusions() throws {
        let fixture = try StoreFixture()
        let store = fixture.store
        _ = try store.addNote(named: "one", body: "link notes together", in: nil)
        _ = try store.addNote(named: "two", body: "notes that link", in: nil)
        _ = try store.addNote(named: "three", body: "encryption of notes", in: nil)
        func names(_ query: String) throws -> [String] { try store.search(query).map(\.item.name).sorted() }
        #expect(try names("link notes") == ["one", "two"])
        #expect(try names("\"link notes\"") == ["one"])
        #expect(try names("notes -encryption") == ["one", "two"])
        #expect(try names("notes NOT link") == ["three"])
        #expect(try names("together OR encryption") == ["one", "three"])
        #expect(try names("notes (together OR encryption) -link") == ["three"])
        #expect(try names("enc* AND notes") == ["three"])
    }

    @Test func indexFollowsEditsTrashAndPurge() throws {
        let fixture = try StoreFixture()
        let tree = try fixture.makeTree()
        try fixture.store.edit(tree.soup, body: "tomatoes")
        #expect(try fixture.store.search("potatoes").isEmpty)
        #expect(try fixture.store.search("tomatoes").map(\.item.id) == [tree.soup])
        try fixture.store.edit(tree.soup, name: "Gazpacho")
        #expect(try fixture.store.search("gazpacho").map(\.item.id) == [tree.soup])
        try fixture.store.trash(tree.soup)
        #expect(try fixture.store.search("tomatoes").isEmpty)
        try fixture.store.restore(tree.soup)
        #expect(try fixture.store.search("tomatoes").count == 1)
        try fixture.store.trash(tree.soup)
        try fixture.store.emptyTrash()
        #expect(try fixture.store.search("tomatoes").isEmpty)
        #expect(try fixture.store.search("spring").map(\.item.id) == [tree.launch])
    }

    /// The index's entries of a transaction are written at its end in row order: imported
    /// changes in any order of rows, the same note changed twice, and a purged note's row
    /// taken again by a new one leave an index that matches the items.
    @Test func indexFollowsImportedChangesInAnyOrderOfRows() throws {
        let fixture = try StoreFixture()
        let notes = try (0..<20).map { try fixture.store.addNote(named: "n\($0)", body: "alpha\($0)", in: nil) }
        let other = UUID()
        let stamp = ChangeStamp(clock: 1 << 50, device: other)
        func values(_ pairs: [String: OutboxValue]) -> OutboxChanges {
            var changes = OutboxChanges()
            for (name, value) in pairs.sorted(by: { $0.key < $1.key }) { changes.set(name, value) }
            return changes
        }
        let fresh = UUID()
        try fixture.store.replicate { replica in
            for (offset, note) in notes.enumerated().reversed() {
                try replica.update(
                    entity: .note, object: note.id, values: values(["body": .text("beta\(offset)")]),
                    stamps: ["body": stamp])
            }
            try replica.update(
                entity: .note, object: notes[3].id, values: values(["name": .text("renamed")]), stamps: ["name": stamp])
            try replica.update(
                entity: .note, object: notes[3].id, values: values(["body": .text("delta")]), stamps: ["body": stamp])
            try replica.remove(entity: .note, object: notes[19].id, stamp: stamp)
            try replica.insert(
                entity: .note, object: fresh,
                values: values([
                    "name": .text("fresh"), "body": .text("gamma"), "created": .integer(1), "modified": .integer(1),
                ]),
                stamps: ["*": stamp])
        }
        #expect(try fixture.store.check().isEmpty)
        #expect(try fixture.store.search("alpha*").isEmpty)
        #expect(try fixture.store.search("beta7").map(\.item.id) == [notes[7].id])
        #expect(try fixture.store.search("beta3").isEmpty)
        #expect(try fixture.store.search("beta19").isEmpty)
        #expect(try fixture.store.search("delta").map(\.item.id) == [notes[3].id])
        #expect(try fixture.store.search("renamed").map(\.item.id) == [notes[3].id])
        #expect(try fixture.store.search("gamma").map(\.item.id) == [fresh])
    }

    /// A word that many notes hold: the results are the best matches of the word index taken
    /// first, and the same as ranking every match when those may not hold them: the last
    /// result ties with matches left out, or too few of them are out of the trash.
    @Test func theBestOfManyMatchesAreThoseOfEveryMatchRanked() throws {
        let folder = TemporaryFolder("notes-search")
        // Each save a second after the one before: every note modified at a time of its own.
        let seconds = Mutex(1_700_000_000.0)
        let clock = WallClock {
            Date(
                timeIntervalSince1970: seconds.withLock {
                    $0 += 1; return $0
                })
        }
        let store = try Store(folder: folder.appending("store"), wallClock: clock)
        // Bodies of ten words, `count` of them the word: the more, the better the rank.
        var notes: [String: [(id: UUID, count: Int)]] = [:]
        func add(_ word: String, count: Int, times: Int) throws {
            for _ in 0..<times {
                let body = (Array(repeating: word, count: count) + Array(repeating: "filler", count: 10 - count))
                    .joined(separator: " ")
                let note = try store.addNote(named: "n", body: body, in: nil)
                notes[word, default: []].append((note.id, count))
            }
        }
        // The best in order of rank, then the most recent first (the last added).
        func best(_ word: String, _ limit: Int, trashed: Set<UUID> = []) -> [UUID] {
            let kept = notes[word]!.enumerated().filter { !trashed.contains($0.element.id) }
            return kept.sorted { ($0.element.count, $0.offset) > ($1.element.count, $1.offset) }.prefix(limit)
                .map(\.element.id)
        }
        let limit = 5
        let candidates = limit * Store.candidatesPerResult
        // Taken among the candidates: the last result ranks above the last candidate.
        try add("alpha", count: 10, times: 3)
        try add("alpha", count: 8, times: 4)
        try add("alpha", count: 5, times: candidates * 2)
        // The last result ties with the last candidate, and the newest of the ties (the last
        // added) come before the others.
        try add("bravo", count: 5, times: candidates * 2)
        try add("bravo", count: 10, times: candidates + 10)
        // Most of the candidates in the trash: those that rank below the best three.
        try add("charlie", count: 10, times: 3)
        try add("charlie", count: 8, times: candidates)
        try add("charlie", count: 5, times: candidates)
        let trashed = Set(notes["charlie"]!.filter { $0.count == 8 }.map(\.id))
        for id in trashed { _ = try store.trash(id) }

        #expect(try store.search("alpha", limit: limit).map(\.item.id) == best("alpha", limit))
        #expect(try store.search("bravo", limit: limit).map(\.item.id) == best("bravo", limit))
        #expect(
            try store.search("charlie", limit: limit).map(\.item.id) == best("charlie", limit, trashed: trashed))
        // Fewer matches than candidates: every one.
        try add("delta", count: 3, times: 2)
        #expect(try store.search("delta", limit: limit).map(\.item.id) == best("delta", limit))
        // Taken among the candidates where they hold the results, else by ranking every match.
        func amongBest(_ word: String) throws -> [UUID]? {
            try store.read { db in
                let expression = try #require(try Store.searchExpression(word))
                let plan = try SearchPlan(expression, filters: [:], db)
                return try Store.amongBestMatches(plan, limit: limit, db)?.map { try Item(row: $0).id }
            }
        }
        #expect(try amongBest("alpha") == best("alpha", limit))
        #expect(try amongBest("bravo") == nil)
        #expect(try amongBest("charlie") == nil)
        #expect(try amongBest("delta") == best("delta", limit))
        let ranks = try store.search("alpha", limit: limit).map(\.rank)
        #expect(ranks == ranks.sorted() && ranks.first! < ranks.last!)
    }
}

/// Notes of several megabytes: search answers with a short excerpt around the first match,
/// whatever the number of matches (the time itself is measured by notes-bench).
@Suite struct LongNoteSearchTests {
    /// `count` words, every `every`-th one being `word`, the others filler.
    static func text(words count: Int, word: String, every: Int, filler: [String] = ["ipsum", "dolor", "amet"])
        -> String
    {
        var parts: [String] = []
        parts.reserveCapacity(count)
        for index in 0..<count {
            parts.append(index % every == 0 ? word : filler[index % filler.count])
        }
        return parts.joined(separator: " ")
    }

    /// The marked words of an excerpt.
    static func marked(_ snippet: String) -> [String] {
        snippet.components(separatedBy: "**").enumerated().filter { $0.offset % 2 == 1 }.map(\.element)
    }

    @Test func aNoteOfFiveMegabytesFullOfTheWordGivesAShortExcerpt() throws {
        let fixture = try StoreFixture()
        let body = Self.text(words: 900_000, word: "lorem", every: 2)
        #expect(body.utf8.count > 5_000_000)
        let big = try fixture.store.addNote(named: "Big", body: body, in: nil)
        let small = try fixture.store.addNote(named: "Small", body: "one lorem here", in: nil)
        let results = try fixture.store.search("lorem")
        #expect(Set(results.map(\.item.id)) == [big.id, small.id])
        let excerpt = try #require(results.first { $0.item.id == big.id }?.snippet)
        #expect(excerpt.count < 400)
        #expect(excerpt.hasPrefix("**lorem** dolor **lorem** ipsum **lorem**"))
        #expect(excerpt.hasSuffix("…"))
        #expect(Set(Self.marked(excerpt)) == ["lorem"])
        #expect(Self.marked(excerpt).count == 20)
    }

    @Test func theOnlyMatchAtTheEndOfALongNoteIsShownWithTextBeforeIt() throws {
        let fixture = try StoreFixture()
        let body = Self.text(words: 300_000, word: "ipsum", every: 1) + " just before the needle, and after."
        let note = try fixture.store.addNote(named: "Haystack", body: body, in: nil)
        let results = try fixture.store.search("needle")
        #expect(results.map(\.item.id) == [note.id])
        // The line from three words before the match, to its end.
        #expect(results.first?.snippet == "…just before the **needle**, and after.")
    }

    /// The text is read a prefix at a time: whatever the place of the window against the cut
    /// of a prefix (inside a word, inside a character of several bytes), the excerpt is the
    /// forty words from three before the match.
    @Test(arguments: [16_300, 16_370, 16_380, 16_384, 16_390, 131_060, 131_072, 131_080])
    func theExcerptIsWholeWhereverThePrefixIsCut(near offset: Int) throws {
        for shift in 0..<4 {
            let fixture = try StoreFixture()
            var words: [String] = ["x" + String(repeating: "y", count: shift)]
            var bytes = words[0].utf8.count
            while bytes < offset {
                let word = String(repeating: "é", count: 1 + words.count % 3)
                words.append(word)
                bytes += word.utf8.count + 1
            }
            let needle = words.count - 6
            words[needle] = "needle"
            words += (0..<40).map { _ in "ééé" }
            _ = try fixture.store.addNote(named: "n", body: words.joined(separator: " "), in: nil)
            var window = Array(words[(needle - 3)..<(needle + 37)])
            window[3] = "**needle**"
            let expected = "…" + window.joined(separator: " ") + "…"
            #expect(try fixture.store.search("needle").first?.snippet == expected, "offset \(offset), shift \(shift)")
        }
    }

    @Test func theExcerptComesFromTheBodyWhenTheNameMatchesToo() throws {
        let fixture = try StoreFixture()
        _ = try fixture.store.addNote(
            named: "Lorem lorem", body: Self.text(words: 50, word: "lorem", every: 10), in: nil)
        let excerpt = try #require(try fixture.store.search("lorem").first?.snippet)
        #expect(excerpt.hasPrefix("**lorem** dolor amet ipsum dolor amet ipsum dolor amet ipsum **lorem**"))
        let nameOnly = try fixture.store.addNote(named: "Kayak plans", body: "nothing here", in: nil)
        let results = try fixture.store.search("kayak")
        #expect(results.map(\.item.id) == [nameOnly.id])
        #expect(results.first?.snippet == "**Kayak** plans")
    }

    /// The snippet is the line with the most of the query's words, then the most matches.
    @Test func theSnippetIsTheBestMatchingLine() throws {
        let fixture = try StoreFixture()
        _ = try fixture.store.addNote(
            named: "n", body: "a pear here\nnothing\npears and apples, apple again\napple only\napples apples apples",
            in: nil)
        #expect(try fixture.store.search("pear* apple*").first?.snippet == "**pears** and **apples**, **apple** again")
        #expect(try fixture.store.search("apples").first?.snippet == "**apples** **apples** **apples**")
    }

    @Test func everyMatchOfAPhraseAndOfEachWordIsMarkedSeparately() throws {
        let fixture = try StoreFixture()
        _ = try fixture.store.addNote(named: "n", body: "an e-mail, then apples apples and an E-Mail again", in: nil)
        #expect(
            try fixture.store.search("e-mail").first?.snippet
                == "an **e-mail**, then apples apples and an **E-Mail** again")
        #expect(
            try fixture.store.search("apples e-mail").first?.snippet
                == "an **e-mail**, then **apples** **apples** and an **E-Mail** again")
    }

    @Test func theLimitAndTheTrashHoldAmongManyLongMatchingNotes() throws {
        let fixture = try StoreFixture()
        let body = Self.text(words: 100_000, word: "lorem", every: 3)
        var kept: [UUID] = []
        for index in 0..<5 {
            let note = try fixture.store.addNote(named: "Long \(index)", body: body, in: nil)
            if index % 2 == 0 { try fixture.store.trash(note.id) } else { kept.append(note.id) }
        }
        let named = try fixture.store.addNote(named: "Lorem", body: "short", in: nil)
        let results = try fixture.store.search("lorem", limit: 2)
        #expect(results.count == 2)
        #expect(Set(results.map(\.item.id)).isSubset(of: Set(kept + [named.id])))
        #expect(results[0].rank <= results[1].rank)
        #expect(Set(try fixture.store.search("lorem").map(\.item.id)) == Set(kept + [named.id]))
    }
}
