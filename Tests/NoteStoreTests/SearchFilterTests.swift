import Foundation
import NoteTestSupport
import Testing

@testable import NoteStore

/// The filters of the search language against a store: alone, with words, excluded, and in
/// alternatives.
@Suite struct SearchFilterTests {
    let fixture: StoreFixture
    let tree: StoreFixture.Tree
    let old: Item

    init() throws {
        fixture = try StoreFixture()
        tree = try fixture.makeTree()
        let context = fixture.store.makeContext()
        let january = try #require(
            DateBound.calendar.date(from: DateComponents(year: 2026, month: 1, day: 31, hour: 12)))
        old = context.insert(
            .note, id: UUID(), named: "Old plan", body: "from january", in: tree.ideas, created: january,
            modified: january)
        try context.save()
        _ = try fixture.store.tag(tree.launch, with: ["work/plans"])
        _ = try fixture.store.tag(tree.soup, with: ["home"])
        _ = try fixture.store.attachImages([SampleFiles.image("plain.png")], to: tree.meeting)
    }

    func names(_ query: String) throws -> [String] {
        try fixture.store.search(query).map(\.item.name).sorted()
    }

    @Test func tagsFindTheirNestedTags() throws {
        #expect(try names("tag:work") == ["Launch plan"])
        #expect(try names("tag:work/plans") == ["Launch plan"])
        #expect(try names("tag:wor").isEmpty)
        #expect(try names("tag:#home") == ["Soup"])
    }

    @Test func inLooksAtEveryDepthOfTheCollection() throws {
        #expect(try names("in:Work") == ["Launch plan", "Meeting", "Old plan"])
        #expect(try names("in:work/ideas") == ["Launch plan", "Old plan"])
        #expect(try names("plan in:Work") == ["Launch plan", "Old plan"])
        #expect(try names("in:Home -tag:home").isEmpty)
        #expect(throws: StoreError.self) { try fixture.store.search("in:Work/Meeting") }
        #expect(throws: StoreError.self) { try fixture.store.search("in:Nowhere") }
    }

    @Test func nameHoldsTheTextIgnoringCaseAndAccents() throws {
        _ = try fixture.store.addNote(named: "Crème brûlée", body: "", in: nil)
        #expect(try names("name:PLAN") == ["Launch plan", "Old plan"])
        #expect(try names("name:creme") == ["Crème brûlée"])
        #expect(try names("name:\"launch p\"") == ["Launch plan"])
        // The word is found in the body; the filter looks at the name alone.
        #expect(try names("spring name:plan") == ["Launch plan"])
        #expect(try names("spring name:soup").isEmpty)
    }

    @Test func attachmentsImagesAndConflictCopies() throws {
        #expect(try names("has:attachment") == ["Meeting"])
        #expect(try names("has:image budget") == ["Meeting"])
        #expect(try names("budget -has:image").isEmpty)
        let copy = try fixture.store.addNote(named: "Soup (conflict)", body: "leeks", in: tree.recipes)
        try fixture.store.write { db in
            try db.execute(
                sql: "INSERT INTO conflict (object, property, loser, winner, copy) VALUES (?, 'body', '1', '2', ?)",
                arguments: [tree.soup.storeString, copy.id.storeString])
        }
        #expect(try names("is:conflict") == ["Soup (conflict)"])
        #expect(try names("leeks -is:conflict") == ["Soup"])
    }

    @Test func theTrashIsSearchedWhenTheQueryNamesIt() throws {
        try fixture.store.trash(tree.meeting)
        #expect(try names("budget").isEmpty)
        #expect(try names("budget is:trashed") == ["Meeting"])
        #expect(try names("is:trashed") == ["Meeting"])
        #expect(try names("tag:work is:trashed").isEmpty)
        #expect(try names("in:Work -is:trashed") == ["Launch plan", "Old plan"])
    }

    @Test func datesAndAgesCompareWithCreatedAndModified() throws {
        #expect(try names("created:2026-01-31") == ["Old plan"])
        #expect(try names("created:<=2026-01-31") == ["Old plan"])
        #expect(try names("created:>2026-01-31 in:Work") == ["Launch plan", "Meeting"])
        #expect(try names("modified:<7d") == ["Old plan"])
        #expect(try names("plan modified:>7d") == ["Launch plan"])
        #expect(try names("modified:>=1d in:work/ideas") == ["Launch plan"])
    }

    @Test func filtersCombineWithWordsInAlternativesAndGroups() throws {
        #expect(try names("tag:home OR spring") == ["Launch plan", "Soup"])
        #expect(try names("(tag:home OR has:image) -leeks") == ["Meeting"])
        #expect(try names("potatoes OR (in:Work name:old)") == ["Old plan", "Soup"])
        // A query of filters alone lists notes, most recently modified first.
        let listed = try fixture.store.search("in:Work").map(\.item.name)
        #expect(listed.count == 3 && listed.last == "Old plan", "\(listed)")
        #expect(try fixture.store.search("in:Work", limit: 1).count == 1)
    }
}
