import Foundation
import NoteStore
@testable import NoteSync
import NoteTestSupport
import Testing

/// A body edit of a large note travels as a delta against a version every reader holds, with
/// the hash of the text it makes (docs/sync-format.md, 5.3, "delta").
@Suite struct BodyDeltaTests {
    /// A body of `lines` numbered lines, about 40 bytes each.
    static func largeBody(lines: Int = 2_000, tag: String = "") -> String {
        (1...lines).map { "line \($0) of a long note, kept as it was\(tag)\n" }.joined()
    }

    /// The newest log of `device` in the stack's container, and its size.
    static func newestLog(of device: UUID, in stack: SyncStack) throws -> (log: TransactionLog, bytes: Int, url: URL) {
        let container = try stack.container()
        let sequence = try #require(try container.logSequences(of: device).sequences.last)
        let url = container.url.appendingPathComponent(CloudContainer.logPath(device: device, sequence: sequence))
        let data = try Data(contentsOf: url)
        return (try LogCodec.decode(data), data.count, url)
    }

    static func editLine(_ number: Int, of note: UUID, on store: Store, to text: String) throws {
        let body = try #require(try store.item(note, includingBody: true).body)
        var lines = body.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        lines[number - 1] = text
        #expect(try store.edit(note, body: lines.joined(separator: "\n")))
    }

    @Test func aOneLineEditTravelsAsADeltaBothWays() throws {
        let stack = try SyncStack(devices: 2)
        let (a, b) = (stack.stores[0], stack.stores[1])
        let note = try a.addNote(named: "Long", body: Self.largeBody(), in: nil).id
        try stack.syncUntilQuiet()
        let whole = try Self.newestLog(of: a.deviceID, in: stack)
        #expect(whole.bytes > 80_000 && whole.log.changes.allSatisfy { $0.bodyDelta == nil }, "an insert goes whole")
        #expect(whole.log.header.modelVersion == Store.modelVersionWithoutTags)

        try Self.editLine(700, of: note, on: a, to: "line 700, changed on a")
        try stack.engines[0].syncNow()
        let edit = try Self.newestLog(of: a.deviceID, in: stack)
        #expect(edit.bytes < 1_500, "a one-line edit is a log of \(edit.bytes) bytes")
        #expect(edit.log.header.modelVersion == LogCodec.modelVersionWithDeltas)
        let change = try #require(edit.log.changes.first { $0.entity == .note })
        #expect(change.values["body"] == nil && change.bodyDelta != nil)
        #expect(try LogCodec.decode(LogCodec.encode(edit.log)) == edit.log, "the delta reads back as written")

        try stack.engines[1].syncNow()
        #expect(try b.item(note, includingBody: true).body == (try a.item(note, includingBody: true).body))
        // Edits on b go as deltas against a's version; two in a row, in one log.
        try Self.editLine(3, of: note, on: b, to: "line 3, changed on b")
        try Self.editLine(1_999, of: note, on: b, to: "line 1999, changed on b")
        try stack.engines[1].syncNow()
        let both = try Self.newestLog(of: b.deviceID, in: stack)
        #expect(both.log.changes.filter { $0.bodyDelta != nil }.count == 2, "the second delta is against the first")
        try stack.syncUntilQuiet()
        let dumps = try stack.dumps()
        #expect(dumps[0] == dumps[1])
        #expect(try a.item(note, includingBody: true).body?.contains("line 1999, changed on b") == true)
        // Concurrent edits of different lines merge; a new device joins by the logs.
        try Self.editLine(10, of: note, on: a, to: "line 10 on a")
        try Self.editLine(20, of: note, on: b, to: "line 20 on b")
        try stack.syncUntilQuiet()
        try stack.join()
        try stack.syncUntilQuiet()
        let all = try stack.dumps()
        #expect(all[1] == all[0] && all[2] == all[0])
        let body = try #require(try stack.stores[2].item(note, includingBody: true).body)
        #expect(body.contains("line 10 on a") && body.contains("line 20 on b"))
    }

    /// Rounds of concurrent edits (merged on each device) and edits of one device alone: each
    /// delta is made from the note's body as the store holds it when the stamp of its last
    /// change is the delta's base, and from history when that body is another text (a merge's),
    /// so every device, and one joining by the logs, ends with the same note.
    @Test func deltasAfterMergesApplyAndANewDeviceJoinsByThem() throws {
        let stack = try SyncStack(devices: 2)
        let (a, b) = (stack.stores[0], stack.stores[1])
        let note = try a.addNote(named: "Long", body: Self.largeBody(lines: 400), in: nil).id
        try stack.syncUntilQuiet()
        for round in 1...6 {
            try Self.editLine(round * 10, of: note, on: a, to: "round \(round) on a")
            try Self.editLine(round * 10 + 200, of: note, on: b, to: "round \(round) on b")
            try stack.engines[0].syncNow()
            try stack.engines[1].syncNow()
            try Self.editLine(round * 10 + 5, of: note, on: b, to: "round \(round) on b alone")
            try stack.syncUntilQuiet()
            let dumps = try stack.dumps()
            #expect(dumps[0] == dumps[1], "round \(round)")
        }
        try stack.join()
        let all = try stack.dumps()
        #expect(all[2] == all[0])
        let body = try #require(try stack.stores[2].item(note, includingBody: true).body)
        #expect(body.contains("round 6 on a") && body.contains("round 6 on b") && body.contains("round 6 on b alone"))
    }

    /// A one-line edit of a long note on the first device of `stack`, published: the log, the
    /// place of its change that carries the delta, the delta and the text of its base.
    static func publishedEdit(
        in stack: SyncStack
    ) throws -> (note: UUID, log: TransactionLog, index: Int, delta: BodyDelta, base: String) {
        let a = stack.stores[0]
        let note = try a.addNote(named: "Long", body: Self.largeBody(), in: nil).id
        try stack.engines[0].syncNow()
        try Self.editLine(700, of: note, on: a, to: "line 700, changed")
        try stack.engines[0].syncNow()
        let log = try Self.newestLog(of: a.deviceID, in: stack).log
        let index = try #require(log.changes.firstIndex { $0.bodyDelta != nil })
        let delta = try #require(log.changes[index].bodyDelta)
        let base = try #require(try a.text(of: note, .body, at: delta.base))
        return (note, log, index, delta, base)
    }

    /// A delta is made against the body an earlier log of the same import carried, and when
    /// that body is not the text of the delta's base (its SHA-256 fails), against the store's.
    @Test func aDeltaIsMadeFromTheBodyAnEarlierLogCarriedElseFromTheStore() throws {
        let stack = try SyncStack(devices: 2)
        let a = stack.stores[0]
        let (note, log, index, delta, base) = try Self.publishedEdit(in: stack)
        let expected = try #require(try a.item(note, includingBody: true).body)
        for (carried, what) in [(base, "the base's text"), (Self.largeBody(tag: "!"), "another text")] {
            let earlier = CarriedBodies()
            earlier.keep(carried, of: note, at: delta.base)
            #expect(earlier.text(of: note, at: delta.base) == carried)
            let made = try a.replicate { replica in
                var reader = DeltaReader(replica: replica, device: a.deviceID, earlier: earlier)
                let change = try reader.whole(log.changes[index], at: index)
                guard case let .text(text)? = change.values["body"] else { return String?.none }
                return text
            }
            #expect(made == expected, "carried: \(what)")
            #expect(
                earlier.text(of: note, at: log.changes[index].stamp(of: "body", device: a.deviceID)) == expected,
                "the made body is kept for the next log")
        }
        // A device that does not hold the base (the log that carried it was passed over) asks
        // for the note again, whatever an earlier log of the import carried.
        let earlier = CarriedBodies()
        earlier.keep(base, of: note, at: delta.base)
        let missing = try stack.stores[1].replicate { replica -> Bool in
            var reader = DeltaReader(replica: replica, device: a.deviceID, earlier: earlier)
            do {
                _ = try reader.whole(log.changes[index], at: index)
                return false
            } catch DeltaReader.Failure.missingBase {
                return true
            } catch {
                return false
            }
        }
        #expect(missing)
    }

    /// The reader says which deltas made another text than their base's: the merge writes
    /// those without reading the note's current body. A delta that makes its base's text
    /// again (no writer makes one, a log may carry one) is not among them.
    @Test func aDeltaSaysWhetherItMadeAnotherTextThanItsBase() throws {
        let stack = try SyncStack(devices: 1)
        let a = stack.stores[0]
        let (_, log, index, delta, base) = try Self.publishedEdit(in: stack)
        var unchanged = log.changes[index]
        unchanged.bodyDelta = try #require(BodyDelta.make(from: base, base: delta.base, to: base))
        var whole = log.changes[index]
        whole.bodyDelta = nil
        whole.values.set("body", .text(base))
        for checkedFirst in [false, true] {
            let found = try a.replicate { replica -> [Bool] in
                let log = TransactionLog(header: log.header, changes: [log.changes[index], unchanged, whole])
                var reader = DeltaReader(replica: replica, device: a.deviceID)
                if checkedFirst { try reader.check(log) }
                var found: [Bool] = []
                for (place, change) in log.changes.enumerated() {
                    _ = try reader.whole(change, at: place)
                    found.append(reader.changesItsBase(at: place))
                }
                return found
            }
            #expect(found == [true, false, false], "checked first: \(checkedFirst)")
        }
    }

    @Test func carriedBodiesKeepLongBodiesUpToTheirBound() {
        let bodies = CarriedBodies()
        let (first, second) = (UUID(), UUID())
        let stamp = ChangeStamp(clock: 1 << 16, device: UUID())
        bodies.keep("short", of: first, at: stamp)
        #expect(bodies.text(of: first, at: stamp) == nil, "no delta is made against a short body")
        let long = String(repeating: "x", count: CarriedBodies.keptBytes / 2 + 1)
        bodies.keep(long, of: first, at: stamp)
        #expect(bodies.text(of: first, at: stamp) == long)
        #expect(bodies.text(of: first, at: ChangeStamp(clock: 2 << 16, device: stamp.device)) == nil)
        bodies.keep(long, of: second, at: stamp)
        #expect(bodies.text(of: second, at: stamp) == long)
        #expect(bodies.text(of: first, at: stamp) == nil, "the other body made room")
    }

    @Test func aSmallNoteGoesWhole() throws {
        let stack = try SyncStack(devices: 1)
        let store = stack.stores[0]
        let note = try store.addNote(named: "Short", body: "one\ntwo\n", in: nil).id
        try stack.engines[0].syncNow()
        _ = try store.edit(note, body: "one\nTWO\n")
        try stack.engines[0].syncNow()
        let log = try Self.newestLog(of: store.deviceID, in: stack).log
        #expect(log.changes.allSatisfy { $0.bodyDelta == nil })
        #expect(log.header.modelVersion == Store.modelVersionWithoutTags, "readable by builds of model 8")
    }

    /// Rewrites the newest log of `device` with `change` applied to its delta (and a new checksum).
    static func damageNewestDelta(of device: UUID, in stack: SyncStack, _ change: (inout BodyDelta) -> Void) throws {
        let newest = try newestLog(of: device, in: stack)
        var log = newest.log
        let index = try #require(log.changes.firstIndex { $0.bodyDelta != nil })
        change(&log.changes[index].bodyDelta!)
        try LogCodec.encode(log).write(to: newest.url)
    }

    @Test(arguments: ["hash", "lines", "base"])
    func aDamagedDeltaIsRefusedAndNeverApplied(damage: String) throws {
        let stack = try SyncStack(devices: 2)
        let (a, b) = (stack.stores[0], stack.stores[1])
        let note = try a.addNote(named: "Long", body: Self.largeBody(), in: nil).id
        try stack.syncUntilQuiet()
        let before = try b.item(note, includingBody: true).body
        try Self.editLine(5, of: note, on: a, to: "line 5 changed")
        try stack.engines[0].syncNow()
        try Self.damageNewestDelta(of: a.deviceID, in: stack) { delta in
            switch damage {
            case "hash": delta.sha256 = String(repeating: "0", count: 64)
            case "lines": delta.lines = [1, 0x02, 0xFF, 0x7F]  // copies a line the base does not have
            default: delta.base = ChangeStamp(clock: delta.base.clock + 1, device: delta.base.device)
            }
        }
        let report = try stack.engines[1].syncNow()
        let reasons = report.skipped.map(\.reason.description)
        #expect(reasons.count == 1 && reasons[0].contains("corrupt"), "\(reasons)")
        #expect(try b.item(note, includingBody: true).body == before, "nothing of the log is applied")
        #expect(report.waiting.count == 1, "the device's later logs wait behind it")
    }

    @Test func aReaderWithoutTheBaseAsksItsWriterAndConverges() throws {
        let stack = try SyncStack(devices: 2)
        let (writer, reader) = (stack.stores[0], stack.stores[1])
        let note = try writer.addNote(named: "Long", body: Self.largeBody(), in: nil).id
        try stack.syncUntilQuiet()
        // The log of the next version is passed over by the reader (its header rewritten):
        // the reader lacks the base of the delta after it.
        try Self.editLine(1, of: note, on: writer, to: "first edit")
        try stack.engines[0].syncNow()
        _ = try stack.rewriteNewestLog(of: writer.deviceID)
        try Self.editLine(2, of: note, on: writer, to: "second edit")
        try stack.engines[0].syncNow()
        #expect(try Self.newestLog(of: writer.deviceID, in: stack).log.changes.contains { $0.bodyDelta != nil })

        let passing = try stack.engines[1].syncNow()
        #expect(passing.skipped.map(\.reason) == [.foreignContainer, .missingBase])
        #expect(passing.waiting.isEmpty)
        guard case let .present(registration) = try stack.container().registration(of: reader.deviceID) else {
            Issue.record("the reader's registration is not there")
            return
        }
        #expect(registration.passedOver?[writer.deviceID]?.count == 2)
        try stack.syncUntilQuiet()
        let dumps = try stack.dumps()
        #expect(dumps[1] == dumps[0])
        #expect(try reader.item(note, includingBody: true).body?.hasPrefix("first edit\nsecond edit\n") == true)
    }

    @Test func aDeviceJoiningFromABaselineThatCutHistoryReadsTheDeltasAfterIt() throws {
        let stack = try SyncStack(devices: 2)
        let note = try stack.stores[0].addNote(named: "Long", body: Self.largeBody(), in: nil).id
        try stack.syncUntilQuiet()
        for round in 1...6 {
            try Self.editLine(round * 10, of: note, on: stack.stores[round % 2], to: "edit \(round)")
            try stack.syncUntilQuiet()
        }
        try stack.quiet()
        let result = try stack.engines[0].compact(keepVersions: 1, keepDays: 0)
        #expect(result.baseline.historyDropped)
        try stack.join()
        let joined = stack.stores[2]
        #expect(try joined.history(of: note).filter { $0.property == .body }.count == 1, "history was cut")

        // Every later delta is against a head the baseline kept, or a version after it.
        try Self.editLine(100, of: note, on: stack.stores[1], to: "after the baseline")
        try stack.engines[1].syncNow()
        #expect(
            try Self.newestLog(of: stack.stores[1].deviceID, in: stack).log.changes.contains { $0.bodyDelta != nil })
        let report = try stack.engines[2].syncNow()
        #expect(report.skipped.isEmpty && report.waiting.isEmpty, "\(report.skipped) \(report.waiting)")
        try Self.editLine(200, of: note, on: joined, to: "on the joined device")
        try stack.syncUntilQuiet()
        let dumps = try stack.commonDumps()
        #expect(dumps[1] == dumps[0] && dumps[2] == dumps[0])
        #expect(try stack.stores[0].item(note, includingBody: true).body?.contains("on the joined device") == true)
    }
}
