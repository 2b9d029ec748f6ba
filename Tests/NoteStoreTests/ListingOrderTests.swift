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

    /// With items trashed, and items left in the trash's collections out of it (as a merge of
    /// two devices' changes may leave them), a recursive listing of the store, of a collection
    /// and of the trash is the tree of the items it lists: each under its collection when
    /// that collection is listed, else at the top, each collection's contents in order.
    @Test func aRecursiveListingIsTheTreeOfTheItemsItLists() throws {
        let fixture = try StoreFixture()
        let context = fixture.store.makeContext()
        var generator = SystemRandomNumberGenerator()
        var collections: [UUID] = []
        var all: [UUID] = []
        for index in 0..<400 {
            let parent = index < 4 ? nil : collections.randomElement(using: &generator)
            let name = ["b", "A", "c 10", "c 9", "é"].randomElement(using: &generator)! + " \(index % 7)"
            let id =
                index % 5 == 0
                ? context.insertCollection(named: name, in: parent).id
                : context.insertNote(named: name, body: "", in: parent).id
            if index % 5 == 0 { collections.append(id) }
            all.append(id)
        }
        try context.save()
        for id in all.shuffled(using: &generator).prefix(40) where try fixture.store.item(id).trashed == nil {
            try fixture.store.trash(id)
        }
        // Some items inside trashed collections taken out of the trash alone.
        let trashedInside = try fixture.store.read { db in
            try String.fetchAll(
                db,
                sql: """
                    SELECT item.id FROM item JOIN item AS container ON container.id = item.parent
                    WHERE item.trashed IS NOT NULL AND container.trashed IS NOT NULL
                    """)
        }
        #expect(!trashedInside.isEmpty)
        try fixture.store.write { db in
            for id in trashedInside.prefix(10) {
                try db.execute(sql: "UPDATE item SET trashed = NULL WHERE id = ?", arguments: [id])
            }
        }
        let items = try fixture.store.read { db in
            try Item.fetchAll(db, sql: "SELECT \(ItemFilter.columns(includingBody: false)) FROM item")
        }
        /// The listing as a tree of the listed items, made here from every item.
        func tree(under root: UUID?, trash: Bool, sort: ItemSort) -> [ListingEntry] {
            var inScope = items.filter { $0.isTrashed == trash }
            if let root {
                var below: Set<UUID> = [root]
                var grew = true
                while grew {
                    grew = false
                    for item in items where !below.contains(item.id) && item.parent.map(below.contains) == true {
                        below.insert(item.id)
                        grew = true
                    }
                }
                inScope = inScope.filter { $0.id != root && below.contains($0.id) }
            }
            let listed = Set(inScope.filter(\.isCollection).map(\.id))
            var entries: [ListingEntry] = []
            func add(_ parent: UUID?, depth: Int) {
                let contents = inScope.filter { item in
                    guard let parent else { return item.parent.map(listed.contains) != true }
                    return item.parent == parent
                }
                for item in contents.sorted(by: { sort.orders($0, before: $1) }) {
                    entries.append(ListingEntry(item: item, depth: depth))
                    if item.isCollection { add(item.id, depth: depth + 1) }
                }
            }
            add(nil, depth: 0)
            return entries
        }
        for trash in [false, true] {
            for sort in [ItemSort(.name), ItemSort(.modified, ascending: false)] {
                #expect(
                    try fixture.store.listing(of: nil, recursive: true, trash: trash, sort: sort)
                        == tree(under: nil, trash: trash, sort: sort), "trash: \(trash), \(sort.key)")
                for root in collections.prefix(6) {
                    #expect(
                        try fixture.store.listing(of: root, recursive: true, trash: trash, sort: sort)
                            == tree(under: root, trash: trash, sort: sort), "trash: \(trash), \(sort.key)")
                }
            }
        }
    }
}
