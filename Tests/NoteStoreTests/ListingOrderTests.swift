import Foundation
import GRDB
import Testing

@testable import NoteStore

/// The order of listings: SQL's name collation and the recursive listing's tree.
@Suite struct ListingOrderTests {
    /// SQLite's `itemName` collation, called with the bytes of each name, orders every pair
    /// as ``ItemSort/compareNames(_:_:)`` orders their strings: plain ASCII names, names with
    /// accents and combining marks, numbers, empty names.
    @Test func theSQLCollationOrdersAsTheStoreComparesNames() throws {
        let fixture = try StoreFixture()
        var generator = SystemRandomNumberGenerator()
        let alphabet: [String] = [
            "a", "A", "b", "Z", "0", "1", "9", " ", "_", "é", "e\u{301}", "ß", "ss", "会", "\u{338}",
        ]
        func name() -> String {
            (0..<Int.random(in: 0...6, using: &generator)).map { _ in alphabet.randomElement(using: &generator)! }
                .joined()
        }
        var pairs: [(String, String)] = [
            ("a01", "a1"), ("Note 9", "note 10"), ("é", "e"), ("Ab", "a\u{301}c"), ("", "a"), ("<\u{338}", "="),
            ("Straße", "strasse"), ("x", "x"),
        ]
        for _ in 0..<3_000 { pairs.append((name(), name())) }
        let collation = ItemSort.nameCollationName
        let orders = try fixture.store.read { db in
            try pairs.map { left, right in
                try Int.fetchOne(
                    db,
                    sql: """
                        SELECT CASE WHEN ?1 = ?2 COLLATE \(collation) THEN 0 \
                        WHEN ?1 < ?2 COLLATE \(collation) THEN -1 ELSE 1 END
                        """,
                    arguments: [left, right])!
            }
        }
        for ((left, right), order) in zip(pairs, orders) {
            #expect(order == ItemSort.compareNames(left, right).rawValue, "'\(left)' '\(right)'")
        }
    }

    /// A recursive listing is each collection followed by its contents, at any depth, each
    /// collection's contents in the order of its own listing, for every sort.
    @Test func aRecursiveListingNestsEachCollectionsOwnListing() throws {
        let fixture = try StoreFixture()
        let context = fixture.store.makeContext()
        var generator = SystemRandomNumberGenerator()
        let names = ["note 10", "Note 9", "a", "B", "é", "e", "Zeta", "_x", "会議", "10", "9"]
        var collections: [UUID?] = [nil]
        for index in 0..<300 {
            let parent = collections.randomElement(using: &generator)!
            let name = names.randomElement(using: &generator)! + (index % 3 == 0 ? "" : " \(index)")
            if index % 4 == 0 {
                collections.append(context.insertCollection(named: name, in: parent).id)
            } else {
                _ = context.insertNote(named: name, body: "", in: parent)
            }
        }
        try context.save()
        for key in [ItemSort.Key.name, .created, .modified] {
            let sort = ItemSort(key, ascending: key == .name)
            func expected(under parent: UUID?, depth: Int) throws -> [ListingEntry] {
                try fixture.store.listing(of: parent, sort: sort).flatMap { entry in
                    let here = ListingEntry(item: entry.item, depth: depth)
                    guard entry.item.isCollection else { return [here] }
                    return [here] + (try expected(under: entry.item.id, depth: depth + 1))
                }
            }
            let whole = try fixture.store.listing(of: nil, recursive: true, sort: sort)
            #expect(whole.count == 300)
            #expect(whole == (try expected(under: nil, depth: 0)), "sorted by \(key)")
            let inner = collections[1]!
            #expect(
                try fixture.store.listing(of: inner, recursive: true, sort: sort)
                    == (try expected(under: inner, depth: 0)))
        }
    }
}
