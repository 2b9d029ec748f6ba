import Foundation
import NoteStore
import Testing

/// A replica holds back the new bodies and dates of notes, and writes each note's row once:
/// in between, what it answers and what every other write finds is as if each had been
/// written at once.
@Suite struct HeldChangeTests {
    private static func values(_ pairs: [String: OutboxValue]) -> OutboxChanges {
        var changes = OutboxChanges()
        for (name, value) in pairs.sorted(by: { $0.key < $1.key }) { changes.set(name, value) }
        return changes
    }

    private static let device = UUID()
    private static func stamp(_ n: UInt64) -> ChangeStamp { ChangeStamp(clock: n << 50, device: device) }

    /// Edits of the same note one after the other: the replica reads each back, the row ends
    /// with the last, and the search index with its words alone.
    @Test func editsHeldBackAreReadBackAndTheLastIsWritten() throws {
        let fixture = try StoreFixture()
        let note = try fixture.store.addNote(named: "Held", body: "first words", in: nil)
        try fixture.store.replicate { replica in
            for edit in 1...3 {
                let stamp = Self.stamp(UInt64(edit))
                try replica.update(
                    entity: .note, object: note.id,
                    values: Self.values(["body": .text("edit\(edit) words"), "modified": .integer(Int64(1_000 * edit))]
                    ),
                    stamps: ["body": stamp, "modified": stamp])
                let state = try #require(try replica.state(of: note.id))
                #expect(state.stamp(of: "body") == stamp && state.stamp(of: "modified") == stamp)
                #expect(try replica.currentText(of: note.id, .body) == "edit\(edit) words")
                #expect(try replica.currentText(of: note.id, .body, differsFrom: "edit\(edit) words") == false)
                #expect(try replica.currentText(of: note.id, .body, differsFrom: "first words") == true)
            }
        }
        let item = try #require(try fixture.store.item(note.id, includingBody: true))
        #expect(item.body == "edit3 words")
        #expect(item.modified == Date(timeIntervalSince1970: 3))
        let stamps = try fixture.store.replicate { replica in try replica.state(of: note.id)?.stamps }
        #expect(stamps?["body"] == Self.stamp(3) && stamps?["modified"] == Self.stamp(3))
        #expect(try fixture.store.search("edit3").map(\.item.id) == [note.id])
        #expect(try fixture.store.search("edit1 OR edit2 OR first").isEmpty)
        #expect(try fixture.store.check().isEmpty)
    }

    /// A write that is not held (a purge, a rename) finds the held edits written before it:
    /// a purge's tombstone keeps the body the note had, and a rename keeps the new body.
    @Test func otherWritesFindTheHeldEditsInTheirRows() throws {
        let fixture = try StoreFixture()
        let renamed = try fixture.store.addNote(named: "Renamed", body: "old body", in: nil)
        let purged = try fixture.store.addNote(named: "Purged", body: "old body", in: nil)
        try fixture.store.replicate { replica in
            for note in [renamed, purged] {
                try replica.update(
                    entity: .note, object: note.id, values: Self.values(["body": .text("new body")]),
                    stamps: ["body": Self.stamp(1)])
            }
            try replica.remove(entity: .note, object: purged.id, stamp: Self.stamp(2), seen: [Self.device: 2 << 50])
            let tombstone = try #require(try replica.tombstoneRecord(of: purged.id))
            #expect(tombstone.values?["body"] == .text("new body"))
            #expect(tombstone.stamps["body"] ?? tombstone.stamps["*"] == Self.stamp(1))
            try replica.update(
                entity: .note, object: renamed.id, values: Self.values(["body": .text("newer body")]),
                stamps: ["body": Self.stamp(3)])
            try replica.update(
                entity: .note, object: renamed.id, values: Self.values(["name": .text("Now renamed")]),
                stamps: ["name": Self.stamp(4)])
        }
        let item = try #require(try fixture.store.item(renamed.id, includingBody: true))
        #expect(item.name == "Now renamed" && item.body == "newer body")
        #expect(throws: StoreError.self) { try fixture.store.item(purged.id) }
        #expect(try fixture.store.check().isEmpty)
    }

    /// An edit of a note that is not there is held for nothing: the replica has no body, no
    /// state and no text for it.
    @Test func anEditOfANoteThatIsNotThereHoldsNothing() throws {
        let fixture = try StoreFixture()
        let missing = UUID()
        try fixture.store.replicate { replica in
            try replica.update(
                entity: .note, object: missing, values: Self.values(["body": .text("a body")]),
                stamps: ["body": Self.stamp(1)])
            #expect(try replica.state(of: missing) == nil)
            #expect(try replica.currentText(of: missing, .body) == nil)
            #expect(try replica.currentText(of: missing, .body, differsFrom: "a body") == nil)
        }
        #expect(try fixture.store.check().isEmpty)
    }
}
