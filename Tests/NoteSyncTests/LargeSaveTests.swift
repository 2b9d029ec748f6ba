import Foundation
import NoteStore
@testable import NoteSync
import NoteTestSupport
import Testing

/// One save of 6,000 notes of about 2 KB each (and 300 collections holding half of them)
/// travels as a series of logs of about 4 MiB, each imported in its own transaction
/// (docs/sync-format.md, "Size" and "Export").
@Suite struct LargeSaveTests {
    static let count = 6_000
    static let collections = 300
    /// Words that make each body about 2 KB, so that the save fills several logs.
    static let filler = String(repeating: "lorem ipsum dolor sit amet ", count: 76)

    @Test func aSaveOfManyNotesIsCutIntoLogsAndArrivesWhole() throws {
        let stack = try SyncStack(devices: 2)
        let context = stack.stores[0].makeContext()
        var ids: [UUID] = []
        ids.reserveCapacity(Self.count)
        for index in 0..<Self.count {
            ids.append(context.insertNote(named: "Note \(index)", body: "body \(index) \(Self.filler)").id)
        }
        // Collections inserted after the notes they hold: the logs must still name each
        // collection before the notes in it, whichever log they fall in.
        let collections = (0..<Self.collections).map { context.insertCollection(named: "Box \($0)").id }
        for (index, id) in ids.enumerated() where index % 2 == 0 {
            try context.move(id, to: collections[index % Self.collections])
        }
        try context.save()

        let exported = try stack.engines[0].syncNow()
        #expect(exported.exportedLogs >= 3)
        #expect(try stack.stores[0].outboxEntries().isEmpty)
        let container = try CloudContainer.create(in: stack.cloud)
        let device = stack.stores[0].deviceID
        let sequences = try container.logSequences(of: device).sequences
        #expect(sequences == Array(1...Int64(exported.exportedLogs)))
        var changes = 0
        for sequence in sequences {
            let data = try container.readLog(device: device, sequence: sequence)
            let lines = data.split(separator: UInt8(ascii: "\n"))
            let changeBytes = lines.dropFirst(2).dropLast().reduce(0) { $0 + $1.count + 1 }
            let largest = lines.dropFirst(2).dropLast().map(\.count).max() ?? 0
            #expect(changeBytes <= LogCodec.targetSize, "log \(sequence) has \(changeBytes) bytes of changes")
            #expect(data.count <= LogCodec.targetSize + largest + 1 + 65_536, "log \(sequence) is \(data.count) bytes")
            if sequence != sequences.last {
                #expect(
                    changeBytes > LogCodec.targetSize - largest - 1,
                    "log \(sequence) was cut early: \(changeBytes) bytes")
            }
            changes += try LogCodec.decode(data).changes.count
        }
        #expect(changes == Self.count + Self.collections)

        let imported = try stack.engines[1].syncNow()
        #expect(imported.importedLogs == exported.exportedLogs)
        #expect(imported.importedChanges == Self.count + Self.collections)
        #expect(try stack.stores[1].count(ItemRequest(kind: .note)) == Self.count)
        #expect(try stack.stores[1].count(ItemRequest(kind: .collection)) == Self.collections)
        #expect(try stack.stores[1].count(ItemRequest(scope: .topLevel)) == Self.count / 2 + Self.collections)
        var random = SplitMix64(seed: 7)
        for _ in 0..<200 {
            let index = Int.random(in: 0..<Self.count, using: &random)
            let item = try stack.stores[1].item(ids[index])
            #expect(item.name == "Note \(index)" && item.body == "body \(index) \(Self.filler)")
            #expect(item.parent == (index % 2 == 0 ? collections[index % Self.collections] : nil))
        }
        #expect(try stack.stores[1].item(ids[0]) == stack.stores[0].item(ids[0]))
        #expect(try stack.stores[1].item(ids[Self.count - 1]) == stack.stores[0].item(ids[Self.count - 1]))
    }
}
