import Foundation
import NoteStore
@testable import NoteSync
import NoteTestSupport
import Testing

/// Properties sync per key: the later of two concurrent values wins, and a removal takes away
/// only the values it had seen; as changes replayed in every order, and between real devices
/// in every order of their syncs.
@Suite struct PropertySyncTests {
    typealias Step = MergeFixtures.Step
    static let note = TaggedNote.id
    static let creation = TaggedNote.creation

    static func set(
        _ key: String, _ value: PropertyValue, position: Int64 = 0, clock: UInt64, on device: UUID,
        seen: [UUID: UInt64] = [:]
    ) -> Step {
        var change = LogChange(
            entity: .property, object: note, operation: .insert, clock: clock,
            values: Self.values(key, value.json, position))
        if !seen.isEmpty { change.history = ChangeHistory(seen: seen) }
        return Step(change: change, device: device)
    }

    static func remove(_ key: String, clock: UInt64, on device: UUID, seen: [UUID: UInt64]) -> Step {
        var change = LogChange(
            entity: .property, object: note, operation: .delete, clock: clock, values: Self.values(key))
        change.history = ChangeHistory(seen: seen)
        return Step(change: change, device: device)
    }

    static func values(_ key: String, _ json: String? = nil, _ position: Int64? = nil) -> OutboxChanges {
        var values = OutboxChanges()
        values.set("key", .text(key))
        if let json { values.set("value", .text(json)) }
        if let position { values.set("position", .integer(position)) }
        return values
    }

    /// Replays the steps in every order after the note's creation; returns the note's
    /// properties as `key=json`, the same in every order.
    func propertiesInEveryOrder(_ steps: [Step]) throws -> [String] {
        var first: (dump: String, properties: [String])?
        for order in Permutations.of(steps) {
            let folder = TemporaryFolder()
            let store = try Store(folder: folder.appending("s"))
            let merger = Merger()
            for step in [Self.creation] + order {
                #expect(try store.merge { try merger.apply(step.change, from: step.device, to: $0) })
            }
            let result = (
                try CanonicalDump.of(store), try store.properties(of: Self.note).map { "\($0.key)=\($0.value.json)" }
            )
            if let first { #expect(result.0 == first.dump) } else { first = result }
        }
        return first?.properties ?? []
    }

    @Test func theLaterOfTwoConcurrentValuesWins() throws {
        let properties = try propertiesInEveryOrder([
            Self.set("status", .string("draft"), clock: 10, on: MergeFixtures.a),
            Self.set("status", .string("done"), clock: 11, on: MergeFixtures.b),
        ])
        #expect(properties == [#"status="done""#])
    }

    @Test func aValueSetAfterSeeingAnotherReplacesIt() throws {
        // B had seen A's value when it set its own, with an earlier clock (a slow clock).
        let properties = try propertiesInEveryOrder([
            Self.set("status", .string("draft"), clock: 10, on: MergeFixtures.a),
            Self.set("status", .string("done"), clock: 12, on: MergeFixtures.b, seen: [MergeFixtures.a: 10]),
            Self.set("rating", .integer(3), position: 1, clock: 11, on: MergeFixtures.a),
        ])
        #expect(properties == [#"status="done""#, "rating=3"])
    }

    @Test func aRemovalTakesAwayOnlyWhatItHadSeen() throws {
        // C removed the key having seen B's value only: A's concurrent value stays, though
        // earlier than the removal.
        let properties = try propertiesInEveryOrder([
            Self.set("status", .string("draft"), clock: 10, on: MergeFixtures.a),
            Self.set("status", .string("done"), clock: 11, on: MergeFixtures.b),
            Self.remove("status", clock: 12, on: MergeFixtures.c, seen: [MergeFixtures.b: 11]),
        ])
        #expect(properties == [#"status="draft""#])
        let gone = try propertiesInEveryOrder([
            Self.set("status", .string("draft"), clock: 10, on: MergeFixtures.a),
            Self.set("status", .string("done"), clock: 11, on: MergeFixtures.b),
            Self.remove("status", clock: 12, on: MergeFixtures.c, seen: [MergeFixtures.a: 10, MergeFixtures.b: 11]),
        ])
        #expect(gone.isEmpty)
    }

    @Test func changesThatBreakTheRulesAreLeftOut() throws {
        let folder = TemporaryFolder()
        let store = try Store(folder: folder.appending("s"))
        let merger = Merger()
        try store.merge { try merger.apply(Self.creation.change, from: MergeFixtures.a, to: $0) }
        var noSeen = Self.remove("status", clock: 5, on: MergeFixtures.b, seen: [:]).change
        noSeen.history = nil
        var notJSON = Self.set("status", .null, clock: 3, on: MergeFixtures.a).change
        notJSON.values = Self.values("status", "{not json", 0)
        var noPosition = Self.set("status", .null, clock: 3, on: MergeFixtures.a).change
        noPosition.values = Self.values("status", "1")
        let update = LogChange(
            entity: .property, object: Self.note, operation: .update, clock: 5, values: Self.values("status", "1", 0))
        let badKeys = ["", "id", "name", " padded", "line\nbreak"].map {
            Self.set($0, .integer(1), clock: 3, on: MergeFixtures.a).change
        }
        for change in badKeys + [noSeen, notJSON, noPosition, update] {
            #expect(try !store.merge { try merger.apply(change, from: MergeFixtures.b, to: $0) })
        }
        #expect(try store.properties(of: Self.note).isEmpty)
    }

    /// Three devices: A and B set the same key concurrently, C removes it having seen B's
    /// value only; whatever the order of their syncs, every device ends with A's value and the
    /// same store.
    @Test func threeDevicesInEveryOrderOfTheirSyncs() throws {
        for order in Permutations.of([0, 1, 2]) {
            let stack = try SyncStack(devices: 3)
            let (a, b, c) = (stack.stores[0], stack.stores[1], stack.stores[2])
            let note = try a.addNote(named: "Soup", body: "leeks\n", in: nil)
            try stack.syncUntilQuiet()
            try a.setProperty(note.id, "status", to: .string("draft"))
            try b.setProperty(note.id, "status", to: .string("done"))
            try b.setProperty(note.id, "aliases", to: .list([.string("Potage")]))
            try stack.engines[1].syncNow()
            try stack.engines[2].syncNow()
            try c.removeProperty(note.id, "status")
            for index in order { try stack.engines[index].syncNow() }
            try stack.syncUntilQuiet()
            for store in stack.stores {
                let properties = try store.properties(of: note.id).map { "\($0.key)=\($0.value.json)" }
                #expect(properties == [#"status="draft""#, #"aliases=["Potage"]"#], "order \(order)")
            }
            #expect(Set(try stack.dumps()).count == 1)
        }
    }

    @Test func logsCarryModelVersionTenOnlyWithAPropertyChange() throws {
        let stack = try SyncStack(devices: 2)
        let store = stack.stores[0]
        let note = try store.addNote(named: "Soup", body: "", in: nil)
        try stack.engines[0].syncNow()
        try store.setProperty(note.id, "status", to: .string("draft"))
        try stack.engines[0].syncNow()
        try store.tag(note.id, with: ["hot"])
        try stack.engines[0].syncNow()
        let folder = stack.cloud.appendingPathComponent("NoteCollector/logs/\(store.deviceID.storeString)")
        let logs = try FileManager.default.contentsOfDirectory(atPath: folder.path).sorted()
        let versions = try logs.map { name in
            try LogCodec.decode(Data(contentsOf: folder.appendingPathComponent(name))).header.modelVersion
        }
        #expect(
            versions == [Store.modelVersionWithoutTags, Store.modelVersionWithProperties, Store.modelVersionWithTags])
        try stack.syncUntilQuiet()
        #expect(try stack.stores[1].properties(of: note.id).map(\.key) == ["status"])
    }

    /// A store with properties, and a removal, that joins a container pushes them with its
    /// snapshot; a baseline carries them to a device that joins from it.
    @Test func snapshotsAndBaselinesCarryProperties() throws {
        let stack = try SyncStack(devices: 2, enable: false)
        let (a, b) = (stack.stores[0], stack.stores[1])
        let note = try a.addNote(named: "Soup", body: "", in: nil)
        let map = PropertyValue.map([("b", .integer(1)), ("a", .list([.bool(true), .null, .number(2.5)]))])
        try a.setProperty(note.id, "meta", to: map)
        try a.setProperty(note.id, "status", to: .string("draft"))
        try a.setProperty(note.id, "later", to: .string("x"))
        try a.removeProperty(note.id, "later")
        try stack.engines[0].enable(cloud: stack.cloud, deviceName: "a")
        try stack.engines[1].enable(cloud: stack.cloud, deviceName: "b")
        try stack.syncUntilQuiet()
        let expected = [
            NoteProperty(key: "meta", value: map, position: 0),
            NoteProperty(key: "status", value: .string("draft"), position: 1),
        ]
        #expect(try b.properties(of: note.id) == expected)
        let baseline = try stack.engines[0].compact().baseline
        #expect(baseline.modelVersion == Store.currentModelVersion)
        try stack.join()
        #expect(try stack.stores[2].properties(of: note.id) == expected)
        #expect(try Set(stack.dumps()).count == 1)
    }

    /// A container without properties gets baselines of model 8, which builds before
    /// properties read.
    @Test func aBaselineWithoutPropertiesIsOfModelEight() throws {
        let stack = try SyncStack(devices: 1)
        _ = try stack.stores[0].addNote(named: "Soup", body: "", in: nil)
        try stack.syncUntilQuiet()
        let baseline = try stack.engines[0].compact().baseline
        #expect(baseline.modelVersion == Store.baselineModelVersionWithoutProperties)
        try stack.join()
        #expect(stack.stores[1].modelVersion == Store.currentModelVersion)
        #expect(try Set(stack.dumps()).count == 1)
    }

    /// Saved searches are settings of the store: a search saved on one device is there on the
    /// other; of two saved at once under one name, the later wins on both.
    @Test func savedSearchesSync() throws {
        let stack = try SyncStack(devices: 2)
        let (a, b) = (stack.stores[0], stack.stores[1])
        try a.saveSearch("soups", query: "soup OR stew")
        try stack.syncUntilQuiet()
        #expect(try b.savedSearches() == [SavedSearch(name: "soups", query: "soup OR stew")])
        try a.saveSearch("urgent", query: "tag:urgent")
        try b.saveSearch("urgent", query: "tag:urgent -done")
        try stack.syncUntilQuiet()
        #expect(try a.savedSearches() == b.savedSearches())
        #expect(try a.savedSearches().map(\.name) == ["soups", "urgent"])
        #expect(try b.forgetSearch("soups"))
        try stack.syncUntilQuiet()
        #expect(try a.savedSearches().map(\.name) == ["urgent"])
        #expect(try a.fetch(ItemRequest(trash: .included)).isEmpty, "settings are no item")
        #expect(Set(try stack.dumps()).count == 1)
    }
}
