import Foundation
import NoteStore
import Testing

@Suite struct ValidationTests {
    @Test func nameIsTrimmedOnSave() throws {
        let fixture = try StoreFixture()
        let note = try fixture.store.addNote(named: "  Groceries \t", body: "", in: nil)
        #expect(try fixture.item(note.id).name == "Groceries")
    }

    @Test(arguments: ["", "   ", "\n"])
    func emptyNameIsRefused(name: String) throws {
        let fixture = try StoreFixture()
        let error = #expect(throws: StoreError.self) { try fixture.store.addNote(named: name, body: "", in: nil) }
        #expect(fixture.rules(of: try #require(error)) == [.nameEmpty])
        #expect(try fixture.store.count(ItemRequest(trash: .included)) == 0)
    }

    @Test func nameOfFiveHundredCharactersIsAcceptedAndOneMoreIsRefused() throws {
        let fixture = try StoreFixture()
        // Counted in characters, for names in plain ASCII (one byte each) as for others.
        _ = try fixture.store.addNote(named: String(repeating: "é", count: 500), body: "", in: nil)
        _ = try fixture.store.addNote(named: String(repeating: "a", count: 500), body: "", in: nil)
        _ = try fixture.store.addNote(named: String(repeating: "👩\u{200D}💻", count: 500), body: "", in: nil)
        for name in [String(repeating: "a", count: 501), String(repeating: "é", count: 501)] {
            let error = #expect(throws: StoreError.self) { try fixture.store.addNote(named: name, body: "", in: nil) }
            #expect(fixture.rules(of: try #require(error)) == [.nameTooLong])
        }
    }

    @Test func lineBreakInsideNameIsRefused() throws {
        let fixture = try StoreFixture()
        let error = #expect(throws: StoreError.self) { try fixture.store.addNote(named: "a\nb", body: "", in: nil) }
        #expect(fixture.rules(of: try #require(error)) == [.nameHasLineBreak])
    }

    /// C0 and C1 controls, DEL and the bidirectional formatting characters can drive a
    /// terminal or disguise a name; other format characters (a zero-width joiner in an
    /// emoji) and ordinary letters of right-to-left scripts are names like any other.
    @Test(arguments: [
        "\u{1B}[31mRED", "bell\u{07}", "tab\there", "\u{01}", "del\u{7F}", "c1\u{9B}", "a\u{202E}b",
        "\u{2066}isolate", "mark\u{200F}",
    ])
    func controlAndBidirectionalFormattingCharactersAreRefusedInNames(_ name: String) throws {
        let fixture = try StoreFixture()
        let error = #expect(throws: StoreError.self) { try fixture.store.addNote(named: name, body: "", in: nil) }
        #expect(fixture.rules(of: try #require(error)) == [.nameHasControlCharacter])
        let note = try fixture.store.addNote(named: "plain", body: "", in: nil)
        #expect(throws: StoreError.self) { try fixture.store.edit(note.id, name: name) }
        #expect(try fixture.item(note.id).name == "plain")
    }

    @Test func rightToLeftLettersAndEmojiJoinersAreAcceptedInNames() throws {
        let fixture = try StoreFixture()
        for name in ["שלום", "مرحبا", "👩\u{200D}💻 work", "café"] {
            #expect(try fixture.store.addNote(named: name, body: "", in: nil).name == name)
        }
    }

    @Test func bodyOfTenMegabytesIsAcceptedAndOneByteMoreIsRefused() throws {
        let fixture = try StoreFixture()
        let limit = Item.maximumBodyBytes
        _ = try fixture.store.addNote(named: "big", body: String(repeating: "x", count: limit), in: nil)
        let error = #expect(throws: StoreError.self) {
            try fixture.store.addNote(named: "too big", body: String(repeating: "x", count: limit + 1), in: nil)
        }
        #expect(fixture.rules(of: try #require(error)) == [.bodyTooLarge])
        #expect(try fixture.store.count(ItemRequest()) == 1)
    }

    @Test func parentMustExist() throws {
        let fixture = try StoreFixture()
        let error = #expect(throws: StoreError.self) { try fixture.store.addNote(named: "x", body: "", in: UUID()) }
        #expect(fixture.rules(of: try #require(error)) == [.parentMissing])
    }

    @Test func parentMustBeACollection() throws {
        let fixture = try StoreFixture()
        let note = try fixture.store.addNote(named: "note", body: "", in: nil)
        let error = #expect(throws: StoreError.self) { try fixture.store.addNote(named: "x", body: "", in: note.id) }
        #expect(fixture.rules(of: try #require(error)) == [.parentNotCollection])
    }

    @Test func parentMustNotBeInTheTrash() throws {
        let fixture = try StoreFixture()
        let tree = try fixture.makeTree()
        try fixture.store.trash(tree.home)
        let error = #expect(throws: StoreError.self) { try fixture.store.move(tree.meeting, to: tree.recipes) }
        #expect(fixture.rules(of: try #require(error)) == [.parentTrashed])
        #expect(try fixture.item(tree.meeting).parent == tree.work)
    }

    @Test func collectionCannotMoveIntoItself() throws {
        let fixture = try StoreFixture()
        let tree = try fixture.makeTree()
        let error = #expect(throws: StoreError.self) { try fixture.store.move(tree.work, to: tree.work) }
        #expect(fixture.rules(of: try #require(error)) == [.cycle])
    }

    @Test func collectionCannotMoveIntoItsDescendant() throws {
        let fixture = try StoreFixture()
        let tree = try fixture.makeTree()
        let deep = try fixture.store.addCollection(named: "Deep", in: tree.ideas)
        let error = #expect(throws: StoreError.self) { try fixture.store.move(tree.work, to: deep.id) }
        #expect(fixture.rules(of: try #require(error)) == [.cycle])
        #expect(try fixture.item(tree.work).parent == nil)
    }

    @Test func cycleMadeBySeveralMovesInOneSaveIsRefused() throws {
        let fixture = try StoreFixture()
        let tree = try fixture.makeTree()
        let context = fixture.store.makeContext()
        try context.move(tree.home, to: tree.ideas)
        try context.move(tree.work, to: tree.recipes)
        let error = #expect(throws: StoreError.self) { try context.save() }
        #expect(fixture.rules(of: try #require(error)).contains(.cycle))
        #expect(try fixture.item(tree.home).parent == nil)
        #expect(try fixture.item(tree.work).parent == nil)
    }

    @Test func severalFailuresAreReportedTogether() throws {
        let fixture = try StoreFixture()
        let context = fixture.store.makeContext()
        context.insertNote(named: "")
        context.insertNote(named: "ok", body: "", in: UUID())
        context.insertCollection(named: "a\rb")
        let error = #expect(throws: StoreError.self) { try context.save() }
        let rules = fixture.rules(of: try #require(error))
        #expect(Set(rules) == [.nameEmpty, .parentMissing, .nameHasLineBreak])
        #expect(try fixture.store.count(ItemRequest(trash: .included)) == 0)
    }

    @Test func onlyTrashedItemsCanBePurged() throws {
        let fixture = try StoreFixture()
        let note = try fixture.store.addNote(named: "keep", body: "", in: nil)
        let context = fixture.store.makeContext()
        let error = #expect(throws: StoreError.self) { try context.purge(note.id) }
        #expect(fixture.rules(of: try #require(error)) == [.purgeNotTrashed])
        #expect(try fixture.item(note.id).name == "keep")
    }

    @Test func failureMessagesNameTheItemAndTheRule() throws {
        let fixture = try StoreFixture()
        let note = try fixture.store.addNote(named: "Groceries", body: "", in: nil)
        let error = #expect(throws: StoreError.self) { try fixture.store.addNote(named: "milk", body: "", in: note.id) }
        let text = try #require(error).description
        #expect(text == "invalid 'milk': 'Groceries' is a note, not a collection")
    }
}
