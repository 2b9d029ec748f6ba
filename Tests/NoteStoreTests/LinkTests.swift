import Foundation
import GRDB
@testable import NoteStore
import Testing

/// The link index and the resolution of links, on the corner cases of docs/links.md.
@Suite struct LinkTests {
    let fixture: StoreFixture
    var store: Store { fixture.store }

    init() throws {
        fixture = try StoreFixture()
    }

    func resolved(_ note: UUID) throws -> [String?] {
        try store.links(of: note).map { link in try link.resolved.map { try store.item($0).name } }
    }

    @Test func linksAreIndexedAsWrittenAndNeverInsideCode() throws {
        let target = try store.addNote(named: "Create a vault", body: "# Steps\n", in: nil)
        let note = try store.addNote(
            named: "Guide",
            body: """
                See [[Create a vault#Steps|the steps]], ![[Create a vault]] and [the same](Create%20a%20vault.md).
                `[[In a span]]`
                ```
                [[In a fence]]
                ```
                [[Nowhere]] ![[image.png]] [web](https://example.com/x.md)
                """, in: nil)
        let links = try store.links(of: note.id)
        #expect(links.map(\.target) == ["Create a vault", "Create a vault", "Create a vault.md", "Nowhere"])
        #expect(links.map(\.line) == [1, 1, 1, 6])
        #expect(
            links[0].fragment == "Steps" && links[0].display == "the steps" && !links[0].isEmbed && links[1].isEmbed)
        #expect(links.map(\.resolved) == [target.id, target.id, target.id, nil])
        #expect(try store.backlinks(of: target.id).map(\.line) == [1, 1, 1])
        #expect(try store.unresolvedLinks().map(\.target) == ["Nowhere"])
    }

    /// The links of several notes read together are each note's links read alone, resolved
    /// from that note; notes without links are left out.
    @Test func linksOfSeveralNotesAreEachNotesLinks() throws {
        let tree = try fixture.makeTree()
        _ = try store.addNote(named: "Budget", body: "", in: tree.work)
        let ownBudget = try store.addNote(named: "Budget", body: "", in: tree.recipes)
        let fromIdeas = try store.addNote(named: "From ideas", body: "[[Budget]] and [[Nowhere]]", in: tree.ideas)
        let fromRecipes = try store.addNote(named: "From recipes", body: "[x](Budget.md) [[Budget]]", in: tree.recipes)
        let plain = try store.addNote(named: "Plain", body: "no links", in: tree.work)
        let context = store.makeContext()
        let many = (0..<600).map { context.insertNote(named: "Many \($0)", body: "[[From ideas]]").id }
        try context.save()
        let asked = [fromRecipes.id, plain.id, fromIdeas.id] + many
        let together = try store.links(ofNotes: asked)
        #expect(Set(together.keys) == Set(asked).subtracting([plain.id]))
        for id in asked where id != plain.id {
            #expect(together[id] == (try store.links(of: id)))
        }
        #expect(together[fromRecipes.id]?.map(\.resolved) == [ownBudget.id, ownBudget.id])
        #expect(together[fromIdeas.id]?.map(\.target) == ["Budget", "Nowhere"])
        #expect(try store.links(ofNotes: []).isEmpty)
    }

    /// Two notes of one name: the linking note's own collection first, then the shortest
    /// path, then the smallest id; a path picks one; case does not matter.
    @Test func aNameInTwoCollections() throws {
        let tree = try fixture.makeTree()
        let inWork = try store.addNote(named: "Budget", body: "", in: tree.work)
        let inRecipes = try store.addNote(named: "budget", body: "", in: tree.recipes)
        let fromIdeas = try store.addNote(named: "From ideas", body: "[[BUDGET]]", in: tree.ideas)
        let fromRecipes = try store.addNote(named: "From recipes", body: "[[Budget]] [[Work/budget]]", in: tree.recipes)
        #expect(try store.links(of: fromIdeas.id).map(\.resolved) == [inWork.id], "the shorter path")
        #expect(
            try store.links(of: fromRecipes.id).map(\.resolved) == [inRecipes.id, inWork.id],
            "its own collection, then a path")
        #expect(
            try store.backlinks(of: inWork.id).map(\.source)
                == [fromIdeas.id, fromRecipes.id].sorted { $0.storeString < $1.storeString })
    }

    /// A link written with a name its note had before (on a device that had not seen the
    /// rename) still reaches the note, until another note takes the name.
    @Test func aLinkToAnOldNameReachesTheNoteThatHadItLast() throws {
        let plan = try store.addNote(named: "Plan", body: "", in: nil)
        #expect(try store.edit(plan.id, name: "Launch plan"))
        let note = try store.addNote(named: "Diary", body: "see [[Plan]]", in: nil)
        #expect(try resolved(note.id) == ["Launch plan"])
        #expect(try store.backlinks(of: plan.id).map(\.source) == [note.id])
        let other = try store.addNote(named: "plan", body: "", in: nil)
        #expect(try store.links(of: note.id).map(\.resolved) == [other.id], "a note of that name now")
        #expect(try store.backlinks(of: plan.id).isEmpty)
    }

    @Test func aMovedNoteIsFoundByItsNameWhenItsPathNoLongerLeadsToIt() throws {
        let tree = try fixture.makeTree()
        let note = try store.addNote(named: "Index", body: "[[Home/Recipes/Soup]] and [[Work/Meeting]]", in: nil)
        try store.move(tree.soup, to: tree.work)
        #expect(try store.links(of: note.id).map(\.resolved) == [tree.soup, tree.meeting])
    }

    @Test func aTrashedTargetIsReachedOnlyWithoutAnotherAndAPurgedOneNotAtAll() throws {
        let old = try store.addNote(named: "Recipe", body: "", in: nil)
        let note = try store.addNote(named: "Menu", body: "[[Recipe]]", in: nil)
        _ = try store.trash(old.id)
        #expect(try store.links(of: note.id).map(\.resolved) == [old.id])
        let new = try store.addNote(named: "Recipe", body: "", in: nil)
        #expect(try store.links(of: note.id).map(\.resolved) == [new.id])
        _ = try store.trash(new.id)
        _ = try store.emptyTrash()
        #expect(try store.links(of: note.id).map(\.resolved) == [nil])
        #expect(try store.orphans() == [note.id])
    }

    @Test func orphansHaveNoLinkInOrOut() throws {
        let a = try store.addNote(named: "A", body: "[[B]]", in: nil)
        let b = try store.addNote(named: "B", body: "", in: nil)
        let c = try store.addNote(named: "C", body: "[[Nothing]]", in: nil)
        #expect(try store.orphans() == [c.id])
        #expect(try store.edit(a.id, body: "no more links"))
        #expect(try store.orphans() == [a.id, b.id, c.id])
    }

    /// The indexes of the link index's tables by key are those the schema makes (a rebuild
    /// makes them again after the rows), and the store passes SQLite's integrity check.
    func expectKeyIndexesAsTheSchemaMakesThem(sourceLocation: SourceLocation = #_sourceLocation) throws {
        let keyIndexes = try store.read { db in
            try String.fetchAll(
                db,
                sql: """
                    SELECT sql FROM sqlite_schema
                    WHERE type = 'index' AND tbl_name IN ('link', 'link_name') AND sql IS NOT NULL ORDER BY name
                    """)
        }
        #expect(keyIndexes == [StoreSchema.linkNameKeyIndex, StoreSchema.linkKeyIndex], sourceLocation: sourceLocation)
        #expect(
            try store.read { try String.fetchAll($0, sql: "PRAGMA integrity_check") } == ["ok"],
            sourceLocation: sourceLocation)
    }

    @Test func theIndexIsRebuiltAlike() throws {
        let target = try store.addNote(named: "T", body: "", in: nil)
        let note = try store.addNote(named: "N", body: "[[T]] [[U]]", in: nil)
        let before = try store.links(of: note.id)
        try store.rebuildLinkIndex()
        #expect(try store.links(of: note.id) == before)
        #expect(before.map(\.resolved) == [target.id, nil])
    }

    /// A rebuild writes every row that the saves wrote, in both tables, whatever the body: with
    /// links, with an empty text shown (`[](...)`), with a `<` and no link, without either mark,
    /// empty; in the trash; a collection. Twice over, and with an index by key that was
    /// dropped or altered before the rebuild, made again as the schema has it.
    @Test func aRebuildWritesEveryRowTheSavesWrote() throws {
        let folder = try store.addCollection(named: "Folder [[T]]", in: nil)
        _ = try store.addNote(named: "T", body: "", in: folder.id)
        let bodies = [
            "[[T]] and [the plans](Plans.md) and [](T.md)\n![[T#Top|shown]]", "<https://example.com> <b>bold</b>",
            "plain words", "", "[[Gone]]",
        ]
        for (number, body) in bodies.enumerated() { _ = try store.addNote(named: "N\(number)", body: body, in: nil) }
        let trashed = try store.addNote(named: "Old", body: "[[T]]", in: nil)
        _ = try store.trash(trashed.id)
        let tables: () throws -> [[Row]] = {
            try self.store.read { db in
                [
                    try Row.fetchAll(db, sql: "SELECT * FROM link ORDER BY source, position"),
                    try Row.fetchAll(db, sql: "SELECT * FROM link_name ORDER BY item, key"),
                ]
            }
        }
        let saved = try tables()
        #expect(saved[0].count == 6 && saved[1].count == 7, "the links and names the saves wrote")
        try store.write { db in
            try db.execute(sql: "DROP INDEX link_on_key; DROP INDEX link_name_on_key")
            try db.execute(sql: "CREATE INDEX link_name_on_key ON link_name(until)")
        }
        try store.rebuildLinkIndex()
        #expect(try tables() == saved)
        try store.rebuildLinkIndex()
        #expect(try tables() == saved, "rebuilt twice")
        try expectKeyIndexesAsTheSchemaMakesThem()
    }

    /// A rebuild reads the names of notes a page at a time (``LinkIndex/namePage``), in the
    /// order of their ids: the notes at the ends of each page, renamed once or twice (their
    /// names before kept with the stamps that replaced them) or with aliases, get the names
    /// their saves had indexed; a collection gets none, and a damaged line of names of no
    /// note, among a page's ids, is not read. The indexes by key, made again after the rows,
    /// are whole.
    @Test func aRebuildIndexesTheNamesOfManyNotesAsTheirSavesDid() throws {
        let context = store.makeContext()
        let made = (0..<(LinkIndex.namePage * 2 + 100)).map { number in
            context.insertNote(named: "Note \(number)", body: "[[Note \(number + 1)]]").id
        }
        _ = context.insertCollection(named: "Note 1")
        try context.save()
        let number = Dictionary(uniqueKeysWithValues: made.enumerated().map { ($1, $0) })
        let notes = made.sorted { $0.precedesInStoreOrder($1) }
        var expected: [UUID: [String: String]] = [:]
        for note in notes { expected[note] = ["note \(number[note]!)": ""] }
        let ends = [0, 499, 500, 999, 1_000, 1_099]
        for (index, position) in ends.enumerated() {
            let note = notes[position]
            let n = number[note]!
            #expect(try store.edit(note, name: "Renamed \(n)"))
            expected[note] = ["renamed \(n)": "", "note \(n)": "stamp"]
            if index % 2 == 0 {
                #expect(try store.edit(note, name: " Again \(n) "))
                expected[note] = ["again \(n)": "", "renamed \(n)": "stamp", "note \(n)": "stamp"]
            }
            if index % 3 == 0 {
                try store.setProperty(note, "aliases", to: .list([.string("Alias \(n)"), .string("note \(n)")]))
                expected[note]!["alias \(n)"] = "alias"
                expected[note]!["note \(n)"] = "alias"
            }
        }
        // Just after the first note in the order of ids: inside the first page's range.
        var bytes = withUnsafeBytes(of: notes[0].uuid) { Array($0) }
        for index in bytes.indices.reversed() {
            bytes[index] &+= 1
            if bytes[index] != 0 { break }
        }
        let stray = bytes.withUnsafeBytes { UUID(uuid: $0.load(as: uuid_t.self)) }
        try #require(notes[0].precedesInStoreOrder(stray) && stray.precedesInStoreOrder(notes[1]))
        try store.write { db in
            try db.execute(
                sql:
                    "INSERT INTO history_line (object, property, versions, oldest, line) VALUES (?, 1, 1, x'00', x'00')",
                arguments: [withUnsafeBytes(of: stray.uuid) { Data($0) }])
        }
        let index: () throws -> [UUID: [String: String]] = {
            try self.store.read { db in
                var found: [UUID: [String: String]] = [:]
                for row in try Row.fetchAll(db, sql: "SELECT item, key, until FROM link_name") {
                    let until: String = row["until"]
                    found[UUID(uuidString: row["item"])!, default: [:]][row["key"]] =
                        until.isEmpty || until == "alias" ? until : "stamp"
                }
                return found
            }
        }
        #expect(try index() == expected, "as the saves indexed them")
        try store.rebuildLinkIndex()
        #expect(try index() == expected)
        #expect(try store.links(of: made[2]).map(\.resolved) == [made[3]])
        try expectKeyIndexesAsTheSchemaMakesThem()
    }

    /// A rename rewrites the links that reach the note, in their notes' bodies, in the same
    /// save: names and paths, embeds, headings and shown texts kept, Markdown links too; a
    /// link to another note of the old name's neighbour is left alone.
    @Test func aRenameRewritesTheLinksThatReachTheNote() throws {
        let tree = try fixture.makeTree()
        let guide = try store.addNote(
            named: "Guide",
            body: """
                See [[Soup#Leeks|the soup]], ![[soup]] and [[Home/Recipes/Soup]].
                Also [it](../Recipes/Soup.md#top) and `[[Soup]]` in code, and [[Meeting]].
                """, in: tree.work)
        let versions = try store.history(of: guide.id).count
        #expect(try store.edit(tree.soup, name: "Leek soup"))
        #expect(
            try store.item(guide.id).body == """
                See [[Leek soup#Leeks|the soup]], ![[Leek soup]] and [[Home/Recipes/Leek soup]].
                Also [it](../Recipes/Leek%20soup.md#top) and `[[Soup]]` in code, and [[Meeting]].
                """)
        #expect(try store.history(of: guide.id).count == versions + 1, "an edit with its version in history")
        #expect(
            try store.links(of: guide.id).map(\.resolved) == [tree.soup, tree.soup, tree.soup, tree.soup, tree.meeting])
    }

    /// A move rewrites the links that reach the note by its path, and only those.
    @Test func aMoveRewritesPathsOnly() throws {
        let tree = try fixture.makeTree()
        let note = try store.addNote(named: "Index", body: "[[Home/Recipes/Soup]] and [[Soup]]\n", in: nil)
        try store.move(tree.soup, to: tree.ideas)
        #expect(try store.item(note.id).body == "[[Work/Ideas/Soup]] and [[Soup]]\n")
        #expect(try store.links(of: note.id).map(\.resolved) == [tree.soup, tree.soup])
    }

    /// A note's aliases (its `aliases` property) are names it is found by, after every note's
    /// own name; a rename leaves the links that reach it by an alias as written; without the
    /// alias, they reach nothing.
    @Test func aliasesAreNamesAfterNames() throws {
        let soup = try store.addNote(named: "Soup", body: "", in: nil)
        try store.setProperty(soup.id, "aliases", to: .list([.string("Potage"), .string("Vichyssoise")]))
        let menu = try store.addNote(named: "Menu", body: "[[potage]] [[Vichyssoise|cold]] [[Soup]]", in: nil)
        #expect(try store.links(of: menu.id).map(\.resolved) == [soup.id, soup.id, soup.id])
        #expect(try store.resolve("POTAGE", matching: .forgiving).id == soup.id)
        #expect(try store.edit(soup.id, name: "Leek soup"))
        #expect(try store.item(menu.id).body == "[[potage]] [[Vichyssoise|cold]] [[Leek soup]]")
        #expect(try store.links(of: menu.id).map(\.resolved) == [soup.id, soup.id, soup.id])
        let potage = try store.addNote(named: "Potage", body: "", in: nil)
        #expect(
            try store.links(of: menu.id).map(\.resolved) == [potage.id, soup.id, soup.id], "a name before an alias")
        try store.rebuildLinkIndex()
        #expect(try store.links(of: menu.id).map(\.resolved) == [potage.id, soup.id, soup.id])
        #expect(try store.removeProperty(soup.id, "aliases"))
        #expect(try store.links(of: menu.id).map(\.resolved) == [potage.id, nil, soup.id])
        try store.setProperty(soup.id, "aliases", to: .string("Vichyssoise"))
        #expect(
            try store.links(of: menu.id).map(\.resolved) == [potage.id, soup.id, soup.id], "a text alone is one alias")
    }

    /// Notes made in one save with their aliases, more than a query's worth of them (as an
    /// import saves them), are found by those aliases, spaces around an alias aside; a note
    /// of the same save without aliases by its name alone.
    @Test func aliasesOfNotesSavedTogetherFindThem() throws {
        let context = store.makeContext()
        var notes: [UUID] = []
        for number in 0..<700 {
            let note = context.insert(
                .note, id: UUID(), named: "Note \(number)", body: "", in: nil, created: Date(), modified: Date())
            notes.append(note.id)
            if number % 100 == 1 {
                let aliases: PropertyValue = .list([
                    .string("\u{00A0}Alias \(number)\t"), .string("\u{200B}Zero \(number)"),
                ])
                try context.replaceProperties(note.id, with: [("aliases", aliases)])
            }
        }
        try context.save()
        let menu = try store.addNote(
            named: "Menu", body: "[[alias 601]] [[ZERO 1]] [[Zero 301]] [[Note 2]] [[Alias 2]]", in: nil)
        #expect(try store.links(of: menu.id).map(\.resolved) == [notes[601], notes[1], notes[301], notes[2], nil])
        try store.rebuildLinkIndex()
        #expect(try store.links(of: menu.id).map(\.resolved) == [notes[601], notes[1], notes[301], notes[2], nil])
    }

    /// A purge and the return of the same note in one transaction (a change the purge had not
    /// seen, arriving with it): SQLite gives the row the rowid of the one that went, whose links
    /// and names went with it; the index writes them again though the text is the same.
    @Test func aNotePurgedAndBroughtBackInOneTransactionKeepsItsLinksAndNames() throws {
        let target = try store.addNote(named: "Plans", body: "", in: nil)
        let other = UUID()
        let id = UUID()
        var values = OutboxChanges()
        values.set("name", .text("Soup"))
        values.set("body", .text("see [[Plans]]"))
        values.set("created", .integer(1))
        values.set("modified", .integer(1))
        try store.replicate { replica in
            try replica.insert(
                entity: .note, object: id, values: values, stamps: ["*": ChangeStamp(clock: 1 << 16, device: other)])
        }
        #expect(try resolved(id) == ["Plans"])
        try store.replicate { replica in
            try replica.remove(entity: .note, object: id, stamp: ChangeStamp(clock: 2 << 16, device: other))
            try replica.insert(
                entity: .note, object: id, values: values, stamps: ["*": ChangeStamp(clock: 3 << 16, device: other)])
        }
        #expect(try resolved(id) == ["Plans"])
        #expect(try store.check() == [])
        #expect(try store.backlinks(of: target.id).map(\.source) == [id])
        let linking = try store.addNote(named: "Index", body: "[[Soup]]", in: nil)
        #expect(try resolved(linking.id) == ["Soup"])
    }

    /// The same when the note comes back under a smaller rowid: SQLite gives a new row the
    /// greatest rowid there is then, plus one, and the rows before it went in the same
    /// transaction.
    @Test func aNoteBroughtBackUnderASmallerRowidKeepsItsLinksAndNames() throws {
        let other = UUID()
        func values(_ name: String, _ body: String) -> OutboxChanges {
            var values = OutboxChanges()
            values.set("name", .text(name))
            values.set("body", .text(body))
            values.set("created", .integer(1))
            values.set("modified", .integer(1))
            return values
        }
        let (first, id) = (UUID(), UUID())
        try store.replicate { replica in
            for (object, name) in [(first, "Plans"), (id, "Soup")] {
                try replica.insert(
                    entity: .note, object: object, values: values(name, "see [[Plans]]"),
                    stamps: ["*": ChangeStamp(clock: 1 << 16, device: other)])
            }
        }
        try store.replicate { replica in
            for object in [id, first] {
                try replica.remove(entity: .note, object: object, stamp: ChangeStamp(clock: 2 << 16, device: other))
            }
            try replica.insert(
                entity: .note, object: id, values: values("Soup", "see [[Plans]]"),
                stamps: ["*": ChangeStamp(clock: 3 << 16, device: other)])
        }
        #expect(try store.check() == [])
        #expect(try store.links(of: id).map(\.target) == ["Plans"])
        let linking = try store.addNote(named: "Index", body: "[[Soup]]", in: nil)
        #expect(try resolved(linking.id) == ["Soup"])
    }

    /// `notes check` sees a link index that does not hold what the notes make, whichever
    /// table strays, and the repair builds it again.
    @Test(arguments: [
        "DELETE FROM link", "UPDATE link SET line = line + 1", "DELETE FROM link_name WHERE until = ''",
        "UPDATE link_name SET until = 'alias'",
        "INSERT INTO link_name (item, key, until) SELECT item, 'stray', '' FROM link_name LIMIT 1",
    ])
    func checkSeesALinkIndexOutOfStepAndRepairBuildsItAgain(damage: String) throws {
        let target = try store.addNote(named: "Plans", body: "", in: nil)
        let note = try store.addNote(named: "Soup", body: "one\nsee [[Plans]]", in: nil)
        #expect(try store.check() == [])
        let queue = try DatabaseQueue(path: store.folder.appendingPathComponent(Store.databaseFileName).path)
        try queue.write { db in try db.execute(sql: damage) }
        try queue.close()
        #expect(try store.check().contains { $0.contains("the link index does not match the notes") }, "\(damage)")
        try store.rebuildLinkIndex()
        #expect(try store.check() == [])
        #expect(try resolved(note.id) == ["Plans"])
        #expect(try store.backlinks(of: target.id).map(\.source) == [note.id])
    }
}
