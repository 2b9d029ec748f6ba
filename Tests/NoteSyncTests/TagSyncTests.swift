import Foundation
import NoteStore
@testable import NoteSync
import NoteTestSupport
import Testing

/// Tags sync as a set in which an addition wins over a concurrent removal: as changes replayed
/// in every order, and between real devices in every order of their syncs.
@Suite struct TagSyncTests {
    typealias Step = MergeFixtures.Step

    static func add(_ tag: String, clock: UInt64, on device: UUID) -> Step {
        Step(
            change: LogChange(
                entity: .tag, object: TaggedNote.id, operation: .insert, clock: clock,
                values: SaveWriterTags.changes(tag)),
            device: device)
    }

    static func remove(_ tag: String, clock: UInt64, on device: UUID, seen: [UUID: UInt64]) -> Step {
        var change = LogChange(
            entity: .tag, object: TaggedNote.id, operation: .delete, clock: clock, values: SaveWriterTags.changes(tag))
        change.history = ChangeHistory(seen: seen)
        return Step(change: change, device: device)
    }

    /// Replays the steps in every order after the note's creation; returns the note's tags,
    /// the same in every order.
    func tagsInEveryOrder(_ steps: [Step]) throws -> [String] {
        var first: (dump: String, tags: [String])?
        for order in Permutations.of(steps) {
            let folder = TemporaryFolder()
            let store = try Store(folder: folder.appending("s"))
            let merger = Merger()
            for step in [TaggedNote.creation] + order {
                #expect(try store.merge { try merger.apply(step.change, from: step.device, to: $0) })
            }
            let result = (try CanonicalDump.of(store), try store.tags(of: TaggedNote.id))
            if let first { #expect(result.0 == first.dump) } else { first = result }
        }
        return first?.tags ?? []
    }

    @Test func anAdditionTheRemovalHadNotSeenStays() throws {
        // A and B add "urgent" each; C had seen B's only when it removed it.
        let tags = try tagsInEveryOrder([
            Self.add("urgent", clock: 10, on: MergeFixtures.a), Self.add("urgent", clock: 11, on: MergeFixtures.b),
            Self.remove("urgent", clock: 12, on: MergeFixtures.c, seen: [MergeFixtures.b: 11]),
        ])
        #expect(tags == ["urgent"])
    }

    @Test func aRemovalThatHadSeenEveryAdditionRemovesTheTag() throws {
        let tags = try tagsInEveryOrder([
            Self.add("urgent", clock: 10, on: MergeFixtures.a), Self.add("urgent", clock: 11, on: MergeFixtures.b),
            Self.add("home", clock: 11, on: MergeFixtures.b),
            Self.remove("urgent", clock: 12, on: MergeFixtures.c, seen: [MergeFixtures.a: 10, MergeFixtures.b: 11]),
        ])
        #expect(tags == ["home"])
    }

    @Test func anAdditionAfterARemovalBringsTheTagBack() throws {
        let tags = try tagsInEveryOrder([
            Self.add("urgent", clock: 10, on: MergeFixtures.a),
            Self.remove("urgent", clock: 12, on: MergeFixtures.b, seen: [MergeFixtures.a: 10]),
            Self.remove("urgent", clock: 13, on: MergeFixtures.c, seen: [MergeFixtures.a: 10]),
            Self.add("urgent", clock: 20, on: MergeFixtures.a),
        ])
        #expect(tags == ["urgent"])
    }

    @Test func tagChangesThatBreakTheRulesAreLeftOut() throws {
        let folder = TemporaryFolder()
        let store = try Store(folder: folder.appending("s"))
        let merger = Merger()
        try store.merge { try merger.apply(TaggedNote.creation.change, from: MergeFixtures.a, to: $0) }
        var noSeen = Self.remove("urgent", clock: 5, on: MergeFixtures.b, seen: [:]).change
        noSeen.history = nil
        let update = LogChange(
            entity: .tag, object: TaggedNote.id, operation: .update, clock: 5, values: SaveWriterTags.changes("urgent"))
        for change in [
            Self.add("with space", clock: 3, on: MergeFixtures.a).change,
            Self.add("", clock: 3, on: MergeFixtures.a).change,
            Self.add("#hash", clock: 3, on: MergeFixtures.a).change, noSeen, update,
        ] {
            #expect(try !store.merge { try merger.apply(change, from: MergeFixtures.b, to: $0) })
        }
        #expect(try store.tags(of: TaggedNote.id).isEmpty)
    }

    /// Three devices: A and B tag the same note concurrently, C removes the tag having seen
    /// B's addition only; whatever the order of their syncs, every device ends with the tag,
    /// the same store, and the tag's removal on a device that had seen both takes it away.
    @Test func threeDevicesInEveryOrderOfTheirSyncs() throws {
        for order in Permutations.of([0, 1, 2]) {
            let stack = try SyncStack(devices: 3)
            let (a, b, c) = (stack.stores[0], stack.stores[1], stack.stores[2])
            let note = try a.addNote(named: "Soup", body: "leeks\n", in: nil)
            try stack.syncUntilQuiet()
            try a.tag(note.id, with: ["urgent"])
            try b.tag(note.id, with: ["urgent", "home"])
            try stack.engines[1].syncNow()
            try stack.engines[2].syncNow()
            #expect(try c.tags(of: note.id) == ["home", "urgent"])
            try c.untag(note.id, ["urgent"])
            for index in order { try stack.engines[index].syncNow() }
            try stack.syncUntilQuiet()
            for store in stack.stores { #expect(try store.tags(of: note.id) == ["home", "urgent"], "order \(order)") }
            let dumps = try stack.dumps()
            #expect(Set(dumps).count == 1)
            try b.untag(note.id, ["urgent"])
            try stack.syncUntilQuiet()
            for store in stack.stores { #expect(try store.tags(of: note.id) == ["home"]) }
        }
    }

    @Test func logsCarryModelVersionFiveOnlyWithATagChange() throws {
        let stack = try SyncStack(devices: 2)
        let store = stack.stores[0]
        let note = try store.addNote(named: "Soup", body: "", in: nil)
        try stack.engines[0].syncNow()
        try store.tag(note.id, with: ["urgent"])
        try stack.engines[0].syncNow()
        let folder = stack.cloud.appendingPathComponent("NoteCollector/logs/\(store.deviceID.storeString)")
        let logs = try FileManager.default.contentsOfDirectory(atPath: folder.path).sorted()
        let versions = try logs.map { name in
            try LogCodec.decode(Data(contentsOf: folder.appendingPathComponent(name))).header.modelVersion
        }
        #expect(versions.first == Store.modelVersionWithoutTags)
        #expect(versions.last == Store.modelVersionWithTags)
        try stack.syncUntilQuiet()
        #expect(try stack.stores[1].tags(of: note.id) == ["urgent"])
    }

    /// A store with tags, and a removal, that joins a container pushes them with its snapshot;
    /// a baseline carries them to a device that joins from it.
    @Test func snapshotsAndBaselinesCarryTags() throws {
        let stack = try SyncStack(devices: 2, enable: false)
        let (a, b) = (stack.stores[0], stack.stores[1])
        let note = try a.addNote(named: "Soup", body: "", in: nil)
        try a.tag(note.id, with: ["urgent", "home", "later"])
        try a.untag(note.id, ["later"])
        try stack.engines[0].enable(cloud: stack.cloud, deviceName: "a")
        try stack.engines[1].enable(cloud: stack.cloud, deviceName: "b")
        try stack.syncUntilQuiet()
        #expect(try b.tags(of: note.id) == ["home", "urgent"])
        _ = try stack.engines[0].compact()
        try stack.join()
        #expect(try stack.stores[2].tags(of: note.id) == ["home", "urgent"])
        #expect(try Set(stack.dumps()).count == 1)
    }
}

/// The values of a tag change, as the store writes them.
enum SaveWriterTags {
    static func changes(_ tag: String) -> OutboxChanges {
        var values = OutboxChanges()
        values.set("name", .text(tag))
        return values
    }
}
