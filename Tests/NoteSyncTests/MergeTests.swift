import Foundation
import NoteStore
@testable import NoteSync
import NoteTestSupport
import Testing

/// Corner cases of merging, as small fixtures of changes replayed through the merge rules in
/// every order: the end state must be the same whatever the order.
@Suite struct MergeTests {
    typealias Step = MergeFixtures.Step

    static func parent(_ id: UUID?) -> OutboxValue { id.map { .text($0.uuidString.lowercased()) } ?? .null }

    /// Applies the steps in order to a fresh store (after `base`), and returns its dump.
    func replay(base: [Step], _ steps: [Step]) throws -> String {
        let folder = TemporaryFolder()
        let store = try Store(folder: folder.appending("s"))
        let merger = Merger()
        for step in base + steps {
            try store.merge { replica in try merger.apply(step.change, from: step.device, to: replica) }
        }
        return try CanonicalDump.of(store)
    }

    /// Every order of `steps` gives the same dump; returns it.
    func sameInEveryOrder(base: [Step] = [], _ steps: [Step]) throws -> String {
        let first = try replay(base: base, steps)
        for order in Permutations.of(steps) {
            #expect(try replay(base: base, order) == first)
        }
        return first
    }

    @Test func concurrentRenamesKeepTheLaterStamp() throws {
        let note = UUID()
        let base = [Step(change: MergeFixtures.insert(.note, note, name: "n", clock: 10), device: MergeFixtures.a)]
        let dump = try sameInEveryOrder(
            base: base,
            [
                Step(
                    change: MergeFixtures.update(.note, note, "name", .text("from a"), clock: 20),
                    device: MergeFixtures.a),
                Step(
                    change: MergeFixtures.update(.note, note, "name", .text("from b"), clock: 20),
                    device: MergeFixtures.b),
                Step(
                    change: MergeFixtures.update(.note, note, "body", .text("body from c"), clock: 15),
                    device: MergeFixtures.c),
            ])
        #expect(dump.contains("from b"), "equal clocks: the greater device id wins")
        #expect(dump.contains("body from c"), "other properties merge independently")
    }

    @Test func purgeIsForEver() throws {
        let note = UUID()
        let base = [Step(change: MergeFixtures.insert(.note, note, name: "n", clock: 10), device: MergeFixtures.a)]
        let delete = LogChange(entity: .note, object: note, operation: .delete, clock: 30, values: OutboxChanges())
        let dump = try sameInEveryOrder(
            base: base,
            [
                Step(change: delete, device: MergeFixtures.a),
                Step(
                    change: MergeFixtures.update(.note, note, "name", .text("late edit"), clock: 40),
                    device: MergeFixtures.b),
            ])
        #expect(!dump.contains("late edit"))
        #expect(!dump.contains(note.uuidString.lowercased() + " "))
    }

    @Test func moveIntoAPurgedCollectionShowsTheItemAtTheTopLevel() throws {
        let box = UUID()
        let note = UUID()
        let base = [
            Step(change: MergeFixtures.insert(.collection, box, name: "box", clock: 10), device: MergeFixtures.a),
            Step(change: MergeFixtures.insert(.note, note, name: "n", clock: 11), device: MergeFixtures.a),
        ]
        let dump = try sameInEveryOrder(
            base: base,
            [
                Step(
                    change: LogChange(
                        entity: .collection, object: box, operation: .delete, clock: 20, values: OutboxChanges()),
                    device: MergeFixtures.a),
                Step(
                    change: MergeFixtures.update(.note, note, "parent", Self.parent(box), clock: 21),
                    device: MergeFixtures.b),
            ])
        #expect(dump.contains("n parent=nil"))
    }

    @Test func concurrentMovesNeverMakeACycle() throws {
        let x = UUID(), y = UUID(), z = UUID()
        let base = [
            Step(change: MergeFixtures.insert(.collection, x, name: "x", clock: 1), device: MergeFixtures.a),
            Step(change: MergeFixtures.insert(.collection, y, name: "y", clock: 2), device: MergeFixtures.a),
            Step(change: MergeFixtures.insert(.collection, z, name: "z", clock: 3), device: MergeFixtures.a),
        ]
        // a: x into y (5); b: y into x (9); c: x into z (7). Merged: x in z, y in x: no cycle.
        let xIntoY = Step(
            change: MergeFixtures.update(.collection, x, "parent", Self.parent(y), clock: 5), device: MergeFixtures.a)
        let yIntoX = Step(
            change: MergeFixtures.update(.collection, y, "parent", Self.parent(x), clock: 9), device: MergeFixtures.b)
        let dump = try sameInEveryOrder(
            base: base,
            [
                xIntoY, yIntoX,
                Step(
                    change: MergeFixtures.update(.collection, x, "parent", Self.parent(z), clock: 7),
                    device: MergeFixtures.c),
            ])
        #expect(dump.contains("x parent=\(z.uuidString.lowercased())"))
        #expect(dump.contains("y parent=\(x.uuidString.lowercased())"))
        let cycle = try sameInEveryOrder(base: base, [xIntoY, yIntoX])
        #expect(cycle.contains("y parent=nil"), "the cycle breaks at the member moved last")
        #expect(cycle.contains("x parent=\(y.uuidString.lowercased())"))
    }

    /// A local move that ends a cycle of merged parents lets the member that broke it go back
    /// under its merged parent, on the device that moved (at its sync) as on the others.
    @Test func aLocalMoveThatEndsACycleBringsTheDisplacedMemberBack() throws {
        let stack = try SyncStack(devices: 2)
        let x = try stack.stores[0].addCollection(named: "x", in: nil).id
        let y = try stack.stores[0].addCollection(named: "y", in: nil).id
        try stack.syncUntilQuiet()
        try stack.stores[0].move(x, to: y)
        try stack.stores[1].move(y, to: x)
        try stack.syncUntilQuiet()
        // y moved last: it breaks the cycle, shown at the top, its merged parent kept.
        for store in stack.stores {
            #expect(try store.item(y).parent == nil)
            #expect(try store.item(x).parent == y)
        }
        try stack.stores[0].move(x, to: nil)
        try stack.syncUntilQuiet()
        for store in stack.stores {
            #expect(try store.item(x).parent == nil)
            #expect(try store.item(y).parent == x, "no cycle is left: y is shown at its merged parent")
        }
        let dumps = try stack.dumps()
        #expect(dumps[0] == dumps[1])
    }

    @Test func editWhileTrashedElsewhereSurvivesInTheTrash() throws {
        let note = UUID()
        let base = [Step(change: MergeFixtures.insert(.note, note, name: "n", clock: 10), device: MergeFixtures.a)]
        let dump = try sameInEveryOrder(
            base: base,
            [
                Step(
                    change: MergeFixtures.update(.note, note, "trashed", .integer(5000), clock: 20),
                    device: MergeFixtures.a),
                Step(
                    change: MergeFixtures.update(.note, note, "body", .text("kept text"), clock: 21),
                    device: MergeFixtures.b),
            ])
        #expect(dump.contains("kept text"))
        #expect(dump.contains("trashed=5000"))
    }

    @Test func aBadValueIsLeftOutAndTheRestApplies() throws {
        let note = UUID()
        let dump = try replay(
            base: [Step(change: MergeFixtures.insert(.note, note, name: "n", clock: 10), device: MergeFixtures.a)],
            [
                Step(change: MergeFixtures.update(.note, note, "modified", .null, clock: 20), device: MergeFixtures.a),
                Step(
                    change: MergeFixtures.update(.note, note, "parent", .integer(7), clock: 21), device: MergeFixtures.a
                ),
                Step(
                    change: MergeFixtures.update(.note, note, "name", .text("still applied"), clock: 22),
                    device: MergeFixtures.a),
            ])
        #expect(dump.contains("still applied"))
        #expect(dump.contains("modified=1000"))
    }

    @Test func aSnapshotCarriesTheMergedParentNotTheShownOne() throws {
        let folder = TemporaryFolder()
        let store = try Store(folder: folder.appending("s"))
        let x = UUID(), y = UUID()
        let steps = [
            MergeFixtures.insert(.collection, x, name: "x", clock: 1),
            MergeFixtures.insert(.collection, y, name: "y", clock: 2),
            MergeFixtures.update(.collection, x, "parent", Self.parent(y), clock: 5),
            MergeFixtures.update(.collection, y, "parent", Self.parent(x), clock: 9),
        ]
        for change in steps {
            try store.merge { try Merger().apply(change, from: MergeFixtures.a, to: $0) }
        }
        #expect(try store.item(y).parent == nil, "shown at the top level, breaking the cycle")
        let record = try #require(try store.snapshot().records.first { $0.object == y })
        #expect(record.values["parent"] == .text(x.uuidString.lowercased()))
    }

    @Test func stampClocksMoveTheLocalClockOn() throws {
        let stack = try SyncStack(devices: 2)
        let note = try stack.stores[0].addNote(named: "n", body: "", in: nil)
        try stack.syncUntilQuiet()
        let far: UInt64 = HybridClock.physical(Date().addingTimeInterval(3600))
        var values = OutboxChanges()
        values.set("name", .text("from the future"))
        let change = LogChange(
            entity: .note, object: note.id, operation: .update, clock: 1, values: values,
            stamps: ["*": ChangeStamp(clock: far, device: MergeFixtures.c)])
        try stack.stores[1].merge { try Merger().apply(change, from: MergeFixtures.c, to: $0) }
        try stack.stores[1].recordSync { try $0.observe(clock: far) }
        try stack.stores[1].edit(note.id, name: "later")
        #expect(try stack.stores[1].outboxEntries().last.map { $0.clock > far } == true)
    }

    @Test func invalidValuesAreLeftOutNotApplied() throws {
        let folder = TemporaryFolder()
        let store = try Store(folder: folder.appending("s"))
        let accepted = try store.merge { replica in
            try Merger().apply(
                MergeFixtures.insert(.note, UUID(), name: "  ", clock: 1), from: MergeFixtures.a, to: replica)
        }
        #expect(!accepted)
        #expect(try store.fetch(ItemRequest(trash: .included)).isEmpty)
    }

    /// A name that could drive a terminal is left out on import, as on a local save: an
    /// insert is not applied, a rename keeps the name the item had.
    @Test(arguments: [
        "\u{1B}[31mred", "title\u{1B}]0;pwned\u{07}", "a\u{202E}b", "tab\there", "c1\u{9B}31m", "del\u{7F}",
    ])
    func aNameWithAControlCharacterIsLeftOut(_ name: String) throws {
        let folder = TemporaryFolder()
        let store = try Store(folder: folder.appending("s"))
        let note = UUID()
        let inserted = try store.merge { replica in
            try Merger().apply(
                MergeFixtures.insert(.note, UUID(), name: name, clock: 1), from: MergeFixtures.a, to: replica)
        }
        #expect(!inserted)
        try store.merge {
            try Merger().apply(
                MergeFixtures.insert(.note, note, name: "plain", clock: 2), from: MergeFixtures.a, to: $0)
        }
        try store.merge {
            try Merger().apply(
                MergeFixtures.update(.note, note, "name", .text(name), clock: 3), from: MergeFixtures.b, to: $0)
        }
        #expect(try store.fetch(ItemRequest(trash: .included)).map(\.name) == ["plain"])
    }
}
