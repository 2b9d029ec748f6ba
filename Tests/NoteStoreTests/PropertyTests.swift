import Foundation
import NoteStore
import NoteTestSupport
import Testing

/// A note's properties: set, replaced, removed, kept in their order, checked against the rules,
/// and their JSON read back as written.
@Suite struct PropertyTests {
    let folder = TemporaryFolder()

    func store() throws -> (Store, Item) {
        let store = try Store(folder: folder.appending("store"))
        return (store, try store.addNote(named: "Soup", body: "leeks\n", in: nil))
    }

    @Test func propertiesKeepTheirOrderAndTheirPlaceWhenChanged() throws {
        let (store, note) = try store()
        try store.setProperty(note.id, "title", to: .string("Leek soup"))
        try store.setProperty(note.id, "aliases", to: .list([.string("Potage"), .string("Vichyssoise")]))
        try store.setProperty(note.id, "rating", to: .integer(4))
        try store.setProperty(note.id, "title", to: .string("Leek and potato soup"))
        #expect(try store.properties(of: note.id).map(\.key) == ["title", "aliases", "rating"])
        #expect(try store.removeProperty(note.id, "aliases"))
        #expect(try !store.removeProperty(note.id, "aliases"))
        try store.setProperty(note.id, "aliases", to: .string("Potage"))
        #expect(try store.properties(of: note.id).map(\.key) == ["title", "rating", "aliases"])
        #expect(try store.properties(of: note.id).first?.value == .string("Leek and potato soup"))
    }

    @Test func settingAValueAsItIsChangesNothing() throws {
        let (store, note) = try store()
        try store.setProperty(note.id, "rating", to: .integer(4))
        let history = try store.outboxEntries().count
        try store.setProperty(note.id, "rating", to: .integer(4))
        #expect(try store.outboxEntries().count == history)
    }

    @Test func anImportReplacesEveryProperty() throws {
        let (store, note) = try store()
        try store.setProperty(note.id, "old", to: .bool(true))
        try store.change { try $0.replaceProperties(note.id, with: [("b", .integer(2)), ("a", .null)]) }
        #expect(
            try store.properties(of: note.id) == [
                NoteProperty(key: "b", value: .integer(2), position: 0),
                NoteProperty(key: "a", value: .null, position: 1),
            ])
    }

    @Test(arguments: [
        "", "id", "name", " lead", "trail ", "line\nbreak", "bidi\u{202E}", String(repeating: "k", count: 201),
    ])
    func keysThatBreakTheRulesAreRefused(key: String) throws {
        let (store, note) = try store()
        #expect(throws: StoreError.self) { try store.setProperty(note.id, key, to: .integer(1)) }
        #expect(try store.properties(of: note.id).isEmpty)
    }

    @Test func valuesThatBreakTheRulesAreRefused() throws {
        let (store, note) = try store()
        var deep = PropertyValue.null
        for _ in 0...PropertyValue.maximumDepth { deep = .list([deep]) }
        let big = PropertyValue.string(String(repeating: "x", count: PropertyValue.maximumBytes))
        for value in [deep, big, .number(.infinity), .string("bell\u{7}"), .map([("a", .null), ("a", .null)])] {
            #expect(throws: StoreError.self) { try store.setProperty(note.id, "key", to: value) }
        }
        #expect(throws: StoreError.self) {
            let collection = try store.addCollection(named: "Box", in: nil)
            try store.setProperty(collection.id, "key", to: .integer(1))
        }
        #expect(try store.properties(of: note.id).isEmpty)
    }

    @Test func jsonReadsBackAsWritten() throws {
        let value = PropertyValue.map([
            ("z", .list([.integer(-3), .number(2.5), .number(1e300), .bool(false), .null])),
            ("a", .string("é \"q\" \\ \n\t \u{1F600}")),
        ])
        #expect(PropertyValue(json: value.json) == value)
        #expect(value.json.hasPrefix(#"{"z":[-3,2.5,"#))
        #expect(
            PropertyValue(json: #" [1, 2.0, "\ud83d\ude00", {"k": true}] "#)
                == .list([.integer(1), .number(2), .string("😀"), .map([("k", .bool(true))])]))
        for bad in [
            "", "[1,]", "{\"a\" 1}", "01x", "\"open", "[\"\\x\"]", "tru", "1 2",
            String(repeating: "[", count: 40) + String(repeating: "]", count: 40),
        ] {
            #expect(PropertyValue(json: bad) == nil, "\(bad)")
        }
    }
}
