import Foundation
import NoteStore
import NoteTestSupport
import Testing

@testable import NoteInterchange

/// Entries that name an id: an id given again later in the same import updates the note it
/// made, whether a save fell between the two or not.
@Suite struct ImportIDTests {
    /// A batch of the import's lookups of notes with ids, read and placed but not saved; an id
    /// of it again in the next batch, before any save; more notes, a save, and two ids again
    /// after it: each repeat finds its note, and no second note has its id.
    @Test func anIdGivenAgainUpdatesTheNoteThisImportMade() throws {
        let folder = TemporaryFolder("notes-import-ids")
        let store = try Store(folder: folder.appending("store"))
        var importer = Importer(store: store)
        importer.idleSaveItems = 1
        let batch = Importer.lookupItems
        let ids = (0..<batch + 100).map { _ in UUID() }
        func entry(_ index: Int, body: String? = nil) -> ImportEntry {
            var entry = ImportEntry(source: "n\(index)", kind: .note, id: ids[index], name: "n\(index)")
            entry.body = body ?? "text \(index)"
            return entry
        }
        let report = try importer.run(total: ids.count + 3, into: nil, dryRun: false) {
            (add: (ImportEntry, String?, String?) throws -> Void, whenWaiting: () throws -> Void) in
            // A full batch is placed as it comes, and saved later.
            for index in 0..<batch { try add(entry(index), nil, nil) }
            try add(entry(10, body: "again 10"), nil, nil)
            for index in batch..<ids.count { try add(entry(index), nil, nil) }
            try whenWaiting()
            try add(entry(batch + 50, body: "again"), nil, nil)
            try add(entry(20), nil, nil)
        }
        #expect(
            report.created == ids.count && report.updated == 2 && report.unchanged == 1 && report.problems.isEmpty,
            "\(report)")
        #expect(try store.statistics().notes == ids.count)
        #expect(try store.item(ids[10]).body == "again 10")
        #expect(try store.item(ids[batch + 50]).body == "again")
        #expect(try store.check() == [])
    }
}
