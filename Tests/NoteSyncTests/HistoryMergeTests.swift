import Foundation
import NoteStore
@testable import NoteSync
import NoteTestSupport
import Testing

/// Concurrent edits of names and bodies, as changes of sync format 2 replayed in every order:
/// bodies merge three-way, overlapping edits leave one winner and one conflict copy, and every
/// version stays in history.
@Suite struct HistoryMergeTests {
    typealias Step = MergeFixtures.Step

    static func stamp(_ clock: UInt64, _ device: UUID) -> ChangeStamp { ChangeStamp(clock: clock, device: device) }

    static let created = stamp(1, MergeFixtures.a)

    func replay(_ steps: [Step]) throws -> (dump: String, store: Store, folder: TemporaryFolder) {
        let folder = TemporaryFolder()
        let store = try Store(folder: folder.appending("s"))
        let merger = Merger()
        for step in steps {
            try store.merge { replica in try merger.apply(step.change, from: step.device, to: replica) }
        }
        return (try CanonicalDump.of(store), store, folder)
    }

    /// Replays `steps` after the creation in every order; returns the store of the first order
    /// after checking that every order gives its dump.
    func sameInEveryOrder(_ steps: [Step]) throws -> (store: Store, folder: TemporaryFolder) {
        let first = try replay([HistoryNote.creation] + steps)
        for order in Permutations.of(steps) {
            #expect(try replay([HistoryNote.creation] + order).dump == first.dump)
        }
        return (first.store, first.folder)
    }

    @Test func editsOfDifferentLinesMergeInEveryOrder() throws {
        let (store, _) = try sameInEveryOrder([
            HistoryNote.edit("ONE\ntwo\nthree\nfour\nfive\n", clock: 5, on: MergeFixtures.a, from: [Self.created]),
            HistoryNote.edit("one\ntwo\nthree\nfour\nFIVE\n", clock: 6, on: MergeFixtures.b, from: [Self.created]),
        ])
        #expect(try store.item(HistoryNote.id).body == "ONE\ntwo\nthree\nfour\nFIVE\n")
        #expect(try store.conflicts(since: .distantPast).isEmpty)
        #expect(try store.history(of: HistoryNote.id).filter { $0.property == .body }.count == 3)
    }

    @Test func threeDevicesMergeInEveryOrder() throws {
        let (store, _) = try sameInEveryOrder([
            HistoryNote.edit("ONE\ntwo\nthree\nfour\nfive\n", clock: 5, on: MergeFixtures.a, from: [Self.created]),
            HistoryNote.edit("one\ntwo\nTHREE\nfour\nfive\n", clock: 7, on: MergeFixtures.b, from: [Self.created]),
            HistoryNote.edit("one\ntwo\nthree\nfour\nfive\nsix\n", clock: 6, on: MergeFixtures.c, from: [Self.created]),
        ])
        #expect(try store.item(HistoryNote.id).body == "ONE\ntwo\nTHREE\nfour\nfive\nsix\n")
        #expect(try store.conflicts(since: .distantPast).isEmpty)
    }

    /// Criss-cross: after A's and B's edits merged, each edits the merge again before they
    /// sync, lines next to the first merge's. Edited from merges by this build, they merge on
    /// the merge of their common versions, silently, in every order; as format 2 marked no such
    /// version, the older rule (the newest common version as base) still applies to them, and
    /// leaves a conflict copy, as the release of format 2 does.
    @Test(arguments: [true, false]) func editsOfAMergeMergeOnTheMergeOfTheirBases(fromMerge: Bool) throws {
        let first = HistoryNote.edit(
            "ONE\ntwo\nthree\nfour\nfive\n", clock: 5, on: MergeFixtures.a, from: [Self.created])
        let second = HistoryNote.edit(
            "one\ntwo\nthree\nfour\nFIVE\n", clock: 6, on: MergeFixtures.b, from: [Self.created])
        let heads = [Self.stamp(5, MergeFixtures.a), Self.stamp(6, MergeFixtures.b)]
        var again = [
            HistoryNote.edit("ONE\nTWO\nthree\nfour\nFIVE\n", clock: 10, on: MergeFixtures.a, from: heads),
            HistoryNote.edit("ONE\ntwo\nthree\nFOUR\nFIVE\n", clock: 11, on: MergeFixtures.b, from: heads),
        ]
        if fromMerge {
            for index in again.indices { again[index].change.history?.fromMerge = [.body] }
        }
        // Every order in which a version comes after those it was edited from, as logs arrive.
        var dumps: Set<String> = []
        var stores: [Store] = []
        var folders: [TemporaryFolder] = []
        for before in Permutations.of([first, second]) {
            for after in Permutations.of(again) {
                let result = try replay([HistoryNote.creation] + before + after)
                dumps.insert(result.dump)
                folders.append(result.folder)
                stores.append(result.store)
            }
        }
        #expect(dumps.count == 1)
        let store = try #require(stores.first)
        if fromMerge {
            #expect(try store.item(HistoryNote.id).body == "ONE\nTWO\nthree\nFOUR\nFIVE\n")
            #expect(try store.conflicts(since: .distantPast).isEmpty)
        } else {
            #expect(try store.conflictCopies().count == 1)
        }
    }

    /// The same between two devices: each edits the merged body before they sync again, and
    /// both end with every edit and no conflict; the logs with such edits carry model 5.
    @Test func devicesEditingAMergeConcurrentlyMergeSilently() throws {
        let stack = try SyncStack(devices: 2)
        let (a, b) = (stack.stores[0], stack.stores[1])
        let note = try a.addNote(named: "Soup", body: HistoryNote.base, in: nil)
        try stack.syncUntilQuiet()
        try a.edit(note.id, body: "ONE\ntwo\nthree\nfour\nfive\n")
        try b.edit(note.id, body: "one\ntwo\nthree\nfour\nFIVE\n")
        try stack.syncUntilQuiet()
        #expect(try a.item(note.id).body == "ONE\ntwo\nthree\nfour\nFIVE\n")
        try a.edit(note.id, body: "ONE\nTWO\nthree\nfour\nFIVE\n")
        try b.edit(note.id, body: "ONE\ntwo\nthree\nFOUR\nFIVE\n")
        try stack.syncUntilQuiet()
        for store in stack.stores {
            #expect(try store.item(note.id).body == "ONE\nTWO\nthree\nFOUR\nFIVE\n")
            #expect(try store.conflicts(since: .distantPast).isEmpty)
        }
        #expect(Set(try stack.dumps()).count == 1)
        let folder = stack.cloud.appendingPathComponent("NoteCollector/logs/\(a.deviceID.storeString)")
        let last = try #require(try FileManager.default.contentsOfDirectory(atPath: folder.path).sorted().last)
        #expect(try LogCodec.decode(Data(contentsOf: folder.appendingPathComponent(last))).header.modelVersion == 5)
    }

    @Test func sameLineEditsLeaveOneWinnerAndOneCopy() throws {
        let (store, _) = try sameInEveryOrder([
            HistoryNote.edit(
                "one\ntwo\n3\nfour\nfive\n", clock: 5, on: MergeFixtures.a, from: [Self.created], name: "laptop"),
            HistoryNote.edit("one\ntwo\nTHREE\nfour\nfive\n", clock: 6, on: MergeFixtures.b, from: [Self.created]),
        ])
        #expect(try store.item(HistoryNote.id).body == "one\ntwo\nTHREE\nfour\nfive\n")
        let conflicts = try store.conflicts(since: .distantPast)
        #expect(conflicts.count == 1)
        let copyID = try #require(conflicts.first?.copy)
        let copy = try store.item(copyID)
        #expect(copy.body == "one\ntwo\n3\nfour\nfive\n")
        #expect(copy.name.hasPrefix("Soup (conflict, laptop, 1970-01-01 00:00 UTC)"))
        #expect(try store.conflictCopies() == [copyID])
    }

    @Test func anEditOfTheMergeEndsTheConflictButKeepsTheCopy() throws {
        let a = HistoryNote.edit("one\ntwo\n3\nfour\nfive\n", clock: 5, on: MergeFixtures.a, from: [Self.created])
        let b = HistoryNote.edit("one\ntwo\nTHREE\nfour\nfive\n", clock: 6, on: MergeFixtures.b, from: [Self.created])
        let after = HistoryNote.edit(
            "fixed\n", clock: 9, on: MergeFixtures.a,
            from: [Self.stamp(5, MergeFixtures.a), Self.stamp(6, MergeFixtures.b)])
        let first = try replay([HistoryNote.creation, a, b, after])
        let second = try replay([HistoryNote.creation, b, a, after])
        #expect(first.dump == second.dump)
        #expect(try first.store.item(HistoryNote.id).body == "fixed\n")
        #expect(try first.store.conflictCopies().count == 1)
    }

    @Test func aSecondImportChangesNothing() throws {
        let a = HistoryNote.edit("ONE\ntwo\nthree\nfour\nfive\n", clock: 5, on: MergeFixtures.a, from: [Self.created])
        let b = HistoryNote.edit("one\ntwo\nthree\nfour\nFIVE\n", clock: 6, on: MergeFixtures.b, from: [Self.created])
        #expect(
            try replay([HistoryNote.creation, a, b]).dump
                == replay([HistoryNote.creation, a, b, a, b, HistoryNote.creation]).dump)
    }

    @Test func formatOneEditsKeepLastWriterWinsAndHistory() throws {
        let creation = Step(
            change: MergeFixtures.insert(.note, HistoryNote.id, name: "Soup", clock: 1, body: HistoryNote.base),
            device: MergeFixtures.a)
        let older = Step(
            change: MergeFixtures.update(.note, HistoryNote.id, "body", .text("older\n"), clock: 5),
            device: MergeFixtures.a)
        let newer = Step(
            change: MergeFixtures.update(.note, HistoryNote.id, "body", .text("newer\n"), clock: 6),
            device: MergeFixtures.b)
        let first = try replay([creation, older, newer])
        #expect(first.dump == (try replay([creation, newer, older])).dump)
        #expect(try first.store.item(HistoryNote.id).body == "newer\n")
        #expect(try first.store.history(of: HistoryNote.id).filter { $0.property == .body }.count == 3)
        #expect(try first.store.conflictCopies().isEmpty)
    }

    @Test func concurrentRenamesKeepTheLaterNameAndReportTheOther() throws {
        func rename(_ name: String, clock: UInt64, on device: UUID) -> Step {
            var change = MergeFixtures.update(.note, HistoryNote.id, "name", .text(name), clock: clock)
            change.history = ChangeHistory(bases: [.name: [Self.created]])
            return Step(change: change, device: device)
        }
        let (store, _) = try sameInEveryOrder([
            rename("Broth", clock: 5, on: MergeFixtures.a), rename("Stock", clock: 6, on: MergeFixtures.b),
        ])
        #expect(try store.item(HistoryNote.id).name == "Stock")
        let conflicts = try store.conflicts(since: .distantPast)
        #expect(conflicts.map(\.property) == [.name] && conflicts.first?.copy == nil)
        #expect(try store.history(of: HistoryNote.id).filter { $0.property == .name }.count == 3)
    }

    @Test func anEditConcurrentWithAPurgeStillMakesItsCopyInEveryOrder() throws {
        let a = HistoryNote.edit("one\ntwo\n3\nfour\nfive\n", clock: 5, on: MergeFixtures.a, from: [Self.created])
        let b = HistoryNote.edit("one\ntwo\nTHREE\nfour\nfive\n", clock: 6, on: MergeFixtures.b, from: [Self.created])
        let purge = Step(
            change: LogChange(
                entity: .note, object: HistoryNote.id, operation: .delete, clock: 7, values: OutboxChanges()),
            device: MergeFixtures.a)
        let (store, _) = try sameInEveryOrder([a, b, purge])
        #expect(try store.conflictCopies().count == 1)
    }
}
