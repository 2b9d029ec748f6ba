import Foundation
import NoteStore
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
        #expect(candidates.allSatisfy { $0.hasSuffix(" Work/Meeting") })
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
