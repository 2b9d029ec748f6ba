import Foundation
import NoteStore
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

    @Test func queryTextIsNeverASyntaxError() throws {
        let fixture = try StoreFixture()
        _ = try fixture.store.addNote(named: "x", body: "quotes \" and (parens) AND OR NOT", in: nil)
        for query in ["\"", "(", "AND", "a OR", "NEAR(", "*", "-x", "x:y"] {
            _ = try fixture.store.search(query)
        }
        #expect(try fixture.store.search("(parens)").count == 1)
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
}
