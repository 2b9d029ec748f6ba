import Foundation
import GRDB
import NoteStore
import Testing

/// A row that no model allows (written here with raw SQL, past the schema's checks) is
/// reported as damaged, naming its table and id, and never read as a made-up value.
@Suite struct DamagedRowTests {
    /// Runs `sql` on the fixture's database through a connection of its own, with the checks
    /// and foreign keys that would refuse the damage switched off.
    private func damage(_ fixture: StoreFixture, _ sql: SQL) throws {
        var configuration = Configuration()
        configuration.foreignKeysEnabled = false
        let path = fixture.store.folder.appendingPathComponent(Store.databaseFileName).path
        let queue = try DatabaseQueue(path: path, configuration: configuration)
        try queue.writeWithoutTransaction { db in
            try db.execute(sql: "PRAGMA ignore_check_constraints = ON")
            try db.execute(literal: sql)
        }
        try queue.close()
    }

    /// The table, id and problem of a damaged-row error; nil for any other error.
    private func damagedRow(_ body: () throws -> Void) -> (table: String, id: String, problem: String)? {
        do {
            try body()
        } catch let StoreError.damagedRow(table, id, problem) {
            return (table, id, problem)
        } catch {
            Issue.record("expected a damaged row, got \(error)")
        }
        return nil
    }

    @Test func anItemOfAnUnknownKindIsDamage() throws {
        let fixture = try StoreFixture()
        let note = try fixture.store.addNote(named: "Plan", body: "text", in: nil)
        try damage(fixture, "UPDATE item SET kind = 'x' WHERE id = \(note.id.storeString)")

        let found = damagedRow { _ = try fixture.store.item(note.id) }
        #expect(found?.table == "item")
        #expect(found?.id == note.id.storeString)
        #expect(found?.problem == "its kind 'x' is unknown")
        #expect(damagedRow { _ = try fixture.store.fetch(ItemRequest()) }?.id == note.id.storeString)
        #expect(damagedRow { _ = try fixture.store.listing(of: nil) }?.id == note.id.storeString)

        let error = StoreError.damagedRow(table: "item", id: note.id.storeString, problem: "its kind 'x' is unknown")
        #expect(error.description == "row '\(note.id.storeString)' of table item is damaged: its kind 'x' is unknown")
    }

    @Test func anItemWhoseIdIsNotAnIdIsDamage() throws {
        let fixture = try StoreFixture()
        let note = try fixture.store.addNote(named: "Plan", body: "text", in: nil)
        try damage(fixture, "UPDATE item SET id = 'febaa344-not-an-id' WHERE id = \(note.id.storeString)")

        let found = damagedRow { _ = try fixture.store.fetch(ItemRequest()) }
        #expect(found?.table == "item")
        #expect(found?.id == "febaa344-not-an-id")
        #expect(found?.problem == "its id is not a UUID")
    }

    @Test func anItemWhoseParentIsNotAnIdIsDamage() throws {
        let fixture = try StoreFixture()
        let note = try fixture.store.addNote(named: "Plan", body: "text", in: nil)
        try damage(fixture, "UPDATE item SET parent = 'nowhere' WHERE id = \(note.id.storeString)")

        let found = damagedRow { _ = try fixture.store.fetch(ItemRequest()) }
        #expect(found?.table == "item")
        #expect(found?.id == note.id.storeString)
        #expect(found?.problem == "its parent 'nowhere' is not a UUID")
    }

    @Test func anAttachmentOfAnUnknownFormatIsDamageNotPassedOver() throws {
        let fixture = try StoreFixture()
        let note = try fixture.store.addNote(named: "Plan", body: "text", in: nil)
        let id = UUID().storeString
        try damage(
            fixture,
            """
            INSERT INTO attachment (id, kind, note, sha256, format, width, height, bytes, caption, created)
            VALUES (\(id), 'image', \(note.id.storeString), \(String(repeating: "0", count: 64)), \
            'tiff', 1, 1, 1, NULL, 0)
            """)

        let found = damagedRow { _ = try fixture.store.attachments(of: note.id) }
        #expect(found?.table == "attachment")
        #expect(found?.id == id)
        #expect(found?.problem == "its format 'tiff' is unknown")
    }

    @Test func anOutboxRowOfAnUnknownOperationIsDamage() throws {
        let fixture = try StoreFixture(recordingChanges: true)
        _ = try fixture.store.addNote(named: "Plan", body: "text", in: nil)
        let sequence = try #require(fixture.store.outboxEntries().first).sequence
        try damage(fixture, "UPDATE outbox SET operation = 'rename' WHERE id = \(sequence)")

        let found = damagedRow { _ = try fixture.store.outboxEntries() }
        #expect(found?.table == "outbox")
        #expect(found?.id == String(sequence))
        #expect(found?.problem == "its operation 'rename' is unknown")
    }

    @Test func anOutboxRowWhoseChangesAreNotJSONIsDamage() throws {
        let fixture = try StoreFixture(recordingChanges: true)
        _ = try fixture.store.addNote(named: "Plan", body: "text", in: nil)
        let sequence = try #require(fixture.store.outboxEntries().first).sequence
        try damage(fixture, "UPDATE outbox SET changes = 'not json' WHERE id = \(sequence)")

        let found = damagedRow { _ = try fixture.store.outboxEntries() }
        #expect(found?.table == "outbox")
        #expect(found?.id == String(sequence))
        #expect(found?.problem == "its changes are not a JSON object")
    }
}
