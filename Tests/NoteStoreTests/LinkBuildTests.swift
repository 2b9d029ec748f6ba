import Foundation
import GRDB
@testable import NoteStore
import NoteTestSupport
import Testing

/// A store that gets the link index with many notes (one made from a baseline) builds it a
/// part at a time: meanwhile saves write the rows of the notes they change, each part those of
/// its notes, `notes check` finds the part built sound, a note is found by an alias the build
/// has not reached, and whatever reads links finishes the build first. Whole, the index holds
/// what a rebuild writes.
@Suite struct LinkBuildTests {
    let fixture: StoreFixture
    var store: Store { fixture.store }

    init() throws {
        fixture = try StoreFixture()
    }

    /// Both tables, whole, in the order of their keys.
    func tables() throws -> [[Row]] {
        try store.read { db in
            [
                try Row.fetchAll(db, sql: "SELECT * FROM link ORDER BY source, position"),
                try Row.fetchAll(db, sql: "SELECT * FROM link_name ORDER BY item, key"),
            ]
        }
    }

    /// Notes that link to one another, renamed (names before), with aliases, in the trash,
    /// and a collection; returns their ids by name.
    func makeNotes() throws -> [String: UUID] {
        var ids: [String: UUID] = [:]
        let folder = try store.addCollection(named: "Folder", in: nil)
        for number in 0..<12 {
            let body = "[[Note \((number + 1) % 12)]] and [the soup](Soup.md)\n![[Potage#Leeks|shown]]"
            ids["Note \(number)"] = try store.addNote(named: "Note \(number)", body: body, in: folder.id).id
        }
        ids["Soup"] = try store.addNote(named: "Soup", body: "leeks", in: nil).id
        try store.setProperty(ids["Soup"]!, "aliases", to: .list([.string("Potage"), .string("Vichyssoise")]))
        #expect(try store.edit(ids["Note 3"]!, name: "Renamed 3"))
        let trashed = try store.addNote(named: "Old", body: "[[Soup]]", in: nil)
        _ = try store.trash(trashed.id)
        return ids
    }

    /// The notes in the order of ids, as a build reaches them.
    func notesInBuildOrder() throws -> [UUID] {
        try store.read { db in
            try String.fetchAll(db, sql: "SELECT id FROM item WHERE kind = 'note' ORDER BY id").compactMap(
                UUID.init(storeText:))
        }
    }

    @Test func savesAndPartsMakeWhatARebuildMakes() throws {
        var ids = try makeNotes()
        let notes = try notesInBuildOrder()
        try store.write { db in try LinkIndex.startBuilding(db) }
        #expect(try store.linkIndexBuild() == IndexBuild(built: 0, items: notes.count))

        // An alias the build has not reached finds its note, and leaves the build where it is.
        #expect(try store.resolve("POTAGE", matching: .forgiving).id == ids["Soup"])
        #expect(try store.linkIndexBuild() == IndexBuild(built: 0, items: notes.count))

        #expect(try !store.buildLinkIndex(notes: 4))
        #expect(try store.linkIndexBuild() == IndexBuild(built: 4, items: notes.count))
        #expect(try store.check() == [], "four built")

        // Saves of notes the build reached and of notes it did not: links changed, an alias, a
        // new note, one trashed, one purged.
        let numbered = Set((0..<12).compactMap { ids["Note \($0)"] })
        let reached = try #require(notes.prefix(4).first { numbered.contains($0) })
        let beyond = try #require(notes.suffix(from: 7).last { numbered.contains($0) })
        let others = notes.filter { numbered.contains($0) && $0 != reached && $0 != beyond }
        #expect(try store.edit(reached, body: "[[Soup]] [[Nowhere]]"))
        #expect(try store.edit(beyond, body: "[[Reached again]]\n[[Potage]] [[Renamed 3]]"))
        try store.setProperty(beyond, "aliases", to: .string("Far"))
        ids["New"] = try store.addNote(named: "New", body: "[[Far]]", in: nil).id
        _ = try store.trash(others[1])
        _ = try store.emptyTrash()
        _ = try store.trash(others[others.count - 2])
        #expect(try store.check() == [], "saved while building")
        #expect(try store.resolve("far", matching: .forgiving).id == beyond)

        #expect(try !store.buildLinkIndex(notes: 3))
        #expect(try store.check() == [], "seven built")

        // A rename, which rewrites the links that reach the note, finishes the build first.
        #expect(try store.edit(reached, name: "Reached again"))
        #expect(try store.linkIndexBuild() == nil)
        #expect(try store.item(beyond).body?.hasPrefix("[[Reached again]]") == true)
        let backlinks = try store.backlinks(of: ids["Soup"]!)
        #expect(backlinks.count >= 9)
        #expect(try store.check() == [], "whole")
        let built = try tables()
        try store.rebuildLinkIndex()
        #expect(try tables() == built, "what a rebuild writes")
        #expect(try store.backlinks(of: ids["Soup"]!) == backlinks)
    }

    /// Every reader of links finishes the build first, a store opened to read included: it
    /// stays read-only, finishes the build through a writer of its own, and reads the whole
    /// index then.
    @Test func everyReaderFinishesTheBuild() throws {
        let ids = try makeNotes()
        let whole = try tables()
        let readers: [(String, (Store) throws -> Void)] = [
            ("links", { _ = try $0.links(of: ids["Note 0"]!) }),
            ("backlinks", { _ = try $0.backlinks(of: ids["Soup"]!) }),
            ("unresolved", { _ = try $0.unresolvedLinks() }),
            ("orphans", { _ = try $0.orphans() }),
            (
                "resolve a link",
                { store in
                    let reached = try store.resolveLink("Vichyssoise")
                    #expect(reached == ids["Soup"])
                }
            ),
            ("wiki link targets", { _ = try $0.wikiLinkTargets() }),
        ]
        for (name, read) in readers {
            try store.write { db in try LinkIndex.startBuilding(db) }
            let reading = try Store(folder: fixture.folder.appending("store"), access: .readOnly)
            #expect(reading.database.configuration.readonly, "\(name): opened to read")
            try read(reading)
            #expect(try reading.linkIndexBuild() == nil, "\(name)")
            #expect(
                try reading.backlinks(of: ids["Soup"]!).map(\.source)
                    == (try store.backlinks(of: ids["Soup"]!).map(\.source)),
                "\(name)")
            #expect(try store.linkIndexBuild() == nil, "\(name)")
            #expect(try tables() == whole, "\(name)")
        }
    }

    /// `notes check --repair` builds what is left at once.
    @Test func repairFinishesTheBuild() throws {
        _ = try makeNotes()
        let whole = try tables()
        try store.write { db in try LinkIndex.startBuilding(db) }
        #expect(try !store.buildLinkIndex(notes: 5))
        try store.rebuildLinkIndex()
        #expect(try store.linkIndexBuild() == nil)
        #expect(try tables() == whole)
    }

    /// A baseline made while a build is in progress holds neither the index nor the build, and
    /// a store made from it (of few items) builds the index whole when it opens.
    @Test func aBaselineLeavesABuildInProgressOut() throws {
        let ids = try makeNotes()
        let backlinks = try store.backlinks(of: ids["Soup"]!).map(\.line)
        try store.write { db in try LinkIndex.startBuilding(db) }
        #expect(try !store.buildLinkIndex(notes: 5))
        let folder = fixture.folder.appending("new")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let copy = folder.appendingPathComponent("baseline.sqlite")
        _ = try store.copyForBaseline(to: copy) { _ in [:] }
        #expect(
            try DatabaseQueue(path: copy.path).read { db in
                try (
                    db.tableExists("link"),
                    String.fetchOne(
                        db, sql: "SELECT value FROM metadata WHERE key = ?", arguments: [LinkIndex.buildKey]),
                    Bool.fetchOne(
                        db, sql: "SELECT EXISTS (SELECT 1 FROM grdb_migrations WHERE identifier = ?)",
                        arguments: [StoreSchema.linksMigration])
                )
            } == (false, nil, false))
        let made = try Store.create(folder: folder, fromBaseline: copy, clock: 1) { _, _ in }
        #expect(try made.linkIndexBuild() == nil)
        #expect(try made.backlinks(of: ids["Soup"]!).map(\.line) == backlinks)
        #expect(try made.check() == [])
    }

    /// The migration that adds the index builds it at once for up to 5,000 items, and starts
    /// a build a part at a time past them, as the trigram index's does.
    @Test func theMigrationBuildsAtOnceUpToTheLimit() throws {
        let context = store.makeContext()
        for number in 0..<StoreSchema.buildAtOnceLimit {
            _ = context.insertNote(named: "Note \(number)", body: "[[Note \(number + 1)]]")
        }
        try context.save()
        let migrate = {
            try self.store.write { db in
                try db.execute(sql: "DROP TABLE link; DROP TABLE link_name")
                try StoreSchema.addLinkIndex(db)
                try db.execute(sql: "DROP TABLE \(TrigramIndex.vocabulary); DROP TABLE \(TrigramIndex.table)")
                try StoreSchema.addTrigramIndex(db)
            }
        }
        try migrate()
        #expect(try store.linkIndexBuild() == nil)
        #expect(try store.trigramIndexBuild() == nil, "the trigram index decides alike")
        let whole = try tables()
        #expect(whole[0].count == StoreSchema.buildAtOnceLimit)
        _ = try store.addCollection(named: "One more", in: nil)
        try migrate()
        #expect(
            try store.linkIndexBuild() == IndexBuild(built: 0, items: StoreSchema.buildAtOnceLimit))
        #expect(try tables() == [[], []])
        #expect(try store.trigramIndexBuild() != nil, "the trigram index decides alike")
        try store.finishLinkIndex()
        #expect(try tables() == whole)
    }

    /// `notes check` still sees a row the build reached that is wrong.
    @Test func checkSeesAWrongRowTheBuildReached() throws {
        _ = try makeNotes()
        let first = try #require(try notesInBuildOrder().first)
        try store.write { db in
            try LinkIndex.startBuilding(db)
            _ = try LinkIndex.build(notes: 2, db)
            try db.execute(sql: "DELETE FROM link_name WHERE item = ?", arguments: [first.storeString])
        }
        #expect(try store.check().contains { $0.contains("link index") })
    }
}
