import Foundation
@testable import NoteStore
import Testing

@Suite struct ReferenceTests {
    @Test func resolvesFullIdsPrefixesAndPaths() throws {
        let fixture = try StoreFixture()
        let tree = try fixture.makeTree()
        let id = tree.launch.uuidString.lowercased()
        #expect(try fixture.store.resolve(id).id == tree.launch)
        #expect(try fixture.store.resolve(id.uppercased()).id == tree.launch)
        #expect(try fixture.store.resolve(String(id.prefix(8))).id == tree.launch)
        #expect(try fixture.store.resolve("Work/Ideas/Launch plan").id == tree.launch)
        #expect(try fixture.store.resolve("/Work/Ideas/Launch plan/").id == tree.launch)
        #expect(try fixture.store.resolve("Home").id == tree.home)
    }

    /// A reference loses the spaces and tabs around it, and only those, as Foundation's
    /// `trimmingCharacters(in: .whitespaces)` would trim it.
    @Test(arguments: [
        "", " ", "\t\t", "Home", "  Home ", "\tWork/Ideas\t", "\u{A0}Home\u{3000}", "\u{2003}e\u{301} \u{301}",
        "Home\n", " \nHome\n ", "a b", "\u{200B}Home", "🙂 ",
    ])
    func spacesAroundAReferenceAreTrimmed(_ text: String) {
        #expect(Store.withoutSpacesAround(text) == text.trimmingCharacters(in: .whitespaces))
    }

    @Test func resolvesAReferenceWithSpacesAround() throws {
        let fixture = try StoreFixture()
        let tree = try fixture.makeTree()
        #expect(try fixture.store.resolve(" \tWork/Ideas/Launch plan\u{A0}").id == tree.launch)
    }

    @Test func prefixShorterThanFourIsNotAnId() throws {
        let fixture = try StoreFixture()
        let tree = try fixture.makeTree()
        let short = String(tree.launch.uuidString.lowercased().prefix(3))
        #expect(throws: StoreError.self) { try fixture.store.resolve(short) }
    }

    @Test func ambiguousPathListsEveryMatch() throws {
        let fixture = try StoreFixture()
        let tree = try fixture.makeTree()
        _ = try fixture.store.addNote(named: "Meeting", body: "", in: tree.work)
        let error = #expect(throws: StoreError.self) { try fixture.store.resolve("Work/Meeting") }
        guard case let .ambiguousReference(_, candidates)? = error else {
            Issue.record("expected an ambiguous reference, got \(String(describing: error))")
            return
        }
        #expect(candidates.count == 2)
        #expect(candidates.allSatisfy { $0.path == "Work/Meeting" })
    }

    @Test func intermediateNamesMustBeCollections() throws {
        let fixture = try StoreFixture()
        let tree = try fixture.makeTree()
        _ = tree
        #expect(throws: StoreError.self) { try fixture.store.resolve("Work/Meeting/x") }
    }

    @Test func slashInsideANameIsEscaped() throws {
        let fixture = try StoreFixture()
        let note = try fixture.store.addNote(named: "either/or", body: "", in: nil)
        #expect(try fixture.store.path(of: note) == "either\\/or")
        #expect(try fixture.store.resolve("either\\/or").id == note.id)
    }

    @Test func pathsLookOnlyInTheirScope() throws {
        let fixture = try StoreFixture()
        let tree = try fixture.makeTree()
        try fixture.store.trash(tree.meeting)
        #expect(throws: StoreError.self) { try fixture.store.resolve("Work/Meeting", scope: .live) }
        #expect(try fixture.store.resolve("Work/Meeting", scope: .trashed).id == tree.meeting)
        let again = try fixture.store.addNote(named: "Meeting", body: "", in: tree.work)
        #expect(try fixture.store.resolve("Work/Meeting", scope: .any).id == again.id)
    }
}

/// References read as a person half remembers them: ignoring case and accents, by the whole
/// path or the name alone; the closest items offered when they name none or several.
@Suite struct ForgivingReferenceTests {
    func resolve(_ store: Store, _ reference: String, scope: ReferenceScope = .live) throws -> Item {
        try store.resolve(reference, scope: scope, matching: .forgiving)
    }

    func candidates(_ body: () throws -> Item) -> (ambiguous: Bool, paths: [String])? {
        do {
            _ = try body()
            return nil
        } catch let StoreError.unknownReference(_, _, candidates) {
            return (false, candidates.map(\.path))
        } catch let StoreError.ambiguousReference(_, candidates) {
            return (true, candidates.map(\.path))
        } catch {
            return nil
        }
    }

    @Test func aPathOrANameMatchesIgnoringCaseAndAccents() throws {
        let fixture = try StoreFixture()
        let tree = try fixture.makeTree()
        let cafe = try fixture.store.addNote(named: "Café Crème", body: "", in: tree.home)
        #expect(try resolve(fixture.store, "work/ideas/LAUNCH PLAN").id == tree.launch)
        #expect(try resolve(fixture.store, "launch plan").id == tree.launch)
        #expect(try resolve(fixture.store, "cafe creme").id == cafe.id)
        #expect(try resolve(fixture.store, "HOME/café crème").id == cafe.id)
        #expect(try resolve(fixture.store, "recipes").id == tree.recipes)
        // A path must be whole: its last name alone is not enough.
        #expect(candidates { try resolve(fixture.store, "ideas/launch plan") }?.paths.first == "Work/Ideas/Launch plan")
        // Exact references stay exact.
        #expect(candidates { try fixture.store.resolve("launch plan") }?.paths == ["Work/Ideas/Launch plan"])
    }

    @Test func anExactMatchBeatsAForgivingOne() throws {
        let fixture = try StoreFixture()
        let upper = try fixture.store.addNote(named: "Plan", body: "", in: nil)
        let lower = try fixture.store.addNote(named: "plan", body: "", in: nil)
        #expect(try resolve(fixture.store, "plan").id == lower.id)
        #expect(try resolve(fixture.store, "Plan").id == upper.id)
        #expect(
            candidates { try resolve(fixture.store, "PLAN") }.map { ($0.ambiguous, $0.paths) } ?? (false, []) == (
                true, ["Plan", "plan"]
            ))
        // The whole path of a top-level item beats the name of one further down.
        let work = try fixture.store.addCollection(named: "Work", in: nil)
        _ = try fixture.store.addNote(named: "Soup", body: "", in: work.id)
        let soup = try fixture.store.addNote(named: "soup", body: "", in: nil)
        #expect(try resolve(fixture.store, "SOUP").id == soup.id)
    }

    @Test func severalMatchesAreAmbiguousAndListed() throws {
        let fixture = try StoreFixture()
        let tree = try fixture.makeTree()
        _ = try fixture.store.addNote(named: "Todo", body: "", in: tree.work)
        _ = try fixture.store.addNote(named: "TODO", body: "", in: tree.home)
        let found = try #require(candidates { try resolve(fixture.store, "todo") })
        #expect(found.ambiguous && found.paths.sorted() == ["Home/TODO", "Work/Todo"])
    }

    @Test func nothingMatchingListsAtMostFiveClosestFirst() throws {
        let fixture = try StoreFixture()
        let tree = try fixture.makeTree()
        for index in 1...8 { _ = try fixture.store.addNote(named: "Meeting \(index)", body: "", in: tree.home) }
        let typo = try #require(candidates { try resolve(fixture.store, "work/lanch plan") })
        #expect(!typo.ambiguous && typo.paths.first == "Work/Ideas/Launch plan")
        let many = try #require(candidates { try resolve(fixture.store, "meetin") })
        #expect(many.paths.count == 5 && many.paths.first == "Work/Meeting", "\(many.paths)")
        // Found by a search of its words when no name is near.
        let searched = try #require(candidates { try resolve(fixture.store, "potatoes") })
        #expect(searched.paths == ["Home/Recipes/Soup"])
        #expect(candidates { try resolve(fixture.store, "zzzz") }?.paths == [])
        // A name that holds the reference, beyond the reach of typos, accents folded.
        _ = try fixture.store.addNote(named: "Crème brûlée, la recette", body: "", in: tree.home)
        #expect(candidates { try resolve(fixture.store, "brulee la") }?.paths == ["Home/Crème brûlée, la recette"])
    }

    @Test func candidatesComeFromTheScope() throws {
        let fixture = try StoreFixture()
        let tree = try fixture.makeTree()
        try fixture.store.trash(tree.soup)
        #expect(try resolve(fixture.store, "home/recipes/SOUP", scope: .trashed).id == tree.soup)
        #expect(candidates { try resolve(fixture.store, "home/recipes/soup") }?.paths == [])
        #expect(candidates { try resolve(fixture.store, "sop", scope: .trashed) }?.paths == ["Home/Recipes/Soup"])
        #expect(try resolve(fixture.store, "soup", scope: .any).id == tree.soup)
    }
}
