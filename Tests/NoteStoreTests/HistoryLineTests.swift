import Foundation
@testable import NoteStore
import NoteTestSupport
import Testing

/// The blob of a line of history (model version 8, docs/sync-format.md "History in the store"):
/// every line reads back as it was written, and a blob that is not exactly one is refused, as
/// it comes from a baseline, which is untrusted.
@Suite struct HistoryLineTests {
    private static func randomLine(_ random: inout SplitMix64) -> HistoryLine {
        let devices = (0..<Int.random(in: 1...3, using: &random)).map { _ in UUID() }
        var clock = UInt64.random(in: 0...(1 << 60), using: &random)
        var entries: [HistoryLine.Entry] = []
        func stamp() -> ChangeStamp {
            ChangeStamp(
                clock: UInt64.random(in: 0...UInt64.max, using: &random), device: devices.randomElement(using: &random)!
            )
        }
        for position in 0..<Int.random(in: 1...20, using: &random) {
            clock += UInt64.random(in: 0...70_000, using: &random) + (position == 0 ? 0 : 1)
            let previous = entries.last?.stamp
            var bases: [ChangeStamp]?
            switch Int.random(in: 0...4, using: &random) {
            case 0: bases = nil
            case 1: bases = []
            case 2: bases = previous.map { [$0] } ?? []
            default: bases = (0..<Int.random(in: 1...3, using: &random)).map { _ in stamp() }.sorted()
            }
            let content =
                Bool.random(using: &random)
                ? Data(
                    (0..<Int.random(in: 0...300, using: &random)).map { _ in UInt8.random(in: 0...255, using: &random) }
                ) : nil
            // A delta is of content.
            let deltaOf: ChangeStamp? =
                switch content == nil ? 0 : Int.random(in: 0...2, using: &random) {
                case 0: nil
                case 1: bases?.count == 1 ? bases![0] : stamp()
                default: stamp()
                }
            let context: String? = [nil, "", #"{"name":"Plan ✓","parent":null}"#].randomElement(using: &random)!
            entries.append(
                HistoryLine.Entry(
                    stamp: ChangeStamp(clock: clock, device: devices.randomElement(using: &random)!),
                    origin: [.edit, .restore, .conflict].randomElement(using: &random)!, bases: bases,
                    restored: Bool.random(using: &random) ? stamp() : nil, context: context,
                    isHead: Bool.random(using: &random),
                    size: Int.random(in: 0...Int(Int32.max), using: &random), deltaOf: deltaOf,
                    depth: Int.random(in: 0...VersionStorage.maximumDepth, using: &random),
                    content: content,
                    fromMerge: Bool.random(using: &random)))
        }
        return HistoryLine(object: UUID(), property: Bool.random(using: &random) ? .body : .name, entries: entries)
    }

    @Test func everyLineReadsBackAsItWasWritten() throws {
        var random = SplitMix64(seed: 8)
        for _ in 0..<500 {
            let line = Self.randomLine(&random)
            let read = try #require(HistoryLine(object: line.object, property: line.property, decoding: line.encoded()))
            #expect(read.entries == line.entries)
        }
    }

    /// A content kept apart (in the store's `history_text`) reads back in a store, and makes
    /// the line unreadable anywhere else: a baseline's lines hold their contents.
    @Test func aContentKeptApartReadsOnlyInAStore() throws {
        var random = SplitMix64(seed: 9)
        var linesWithApart = 0
        for _ in 0..<300 {
            var line = Self.randomLine(&random)
            line.updateAll { entry in
                if entry.content != nil, Bool.random(using: &random) {
                    entry.content = nil
                    entry.isApart = true
                }
            }
            let apart = Set(line.entries.filter(\.isApart).map(\.stamp))
            let blob = line.encoded()
            let read = try #require(
                HistoryLine(object: line.object, property: line.property, decoding: blob, inStore: true))
            #expect(read.entries == line.entries)
            #expect(read.apartWhenRead == apart)
            if !apart.isEmpty {
                linesWithApart += 1
                #expect(HistoryLine(object: line.object, property: line.property, decoding: blob) == nil)
                #expect(blob.withUnsafeBytes { HistoryLine.summary(of: $0) } == nil)
            }
        }
        #expect(linesWithApart > 100)
    }

    /// A linear history costs its deltas and about a dozen bytes a version.
    @Test func aLinearHistoryIsSmall() {
        let device = UUID()
        var entries: [HistoryLine.Entry] = []
        var clock: UInt64 = 0x01A2_0E09_1437_0000
        for position in 0..<11 {
            let stamp = ChangeStamp(clock: clock, device: device)
            entries.append(
                HistoryLine.Entry(
                    stamp: stamp, origin: .edit, bases: entries.last.map { [$0.stamp] } ?? [], restored: nil,
                    context: position == 0 ? #"{"name":"Plan","parent":null}"# : nil, isHead: position == 10,
                    size: 700 + position,
                    deltaOf: entries.last?.stamp, depth: position, content: Data(count: position == 0 ? 0 : 17),
                    fromMerge: false))
            clock += 0x3000_0000
        }
        let blob = HistoryLine(object: UUID(), property: .body, entries: entries).encoded()
        #expect(blob.count < 10 * (17 + 14) + 80, "\(blob.count) bytes")
    }

    @Test(arguments: [
        ("empty", [UInt8]()),
        ("another format", [2, 0, 0]),
        ("more devices than bytes", [1, 0xFF, 0xFF, 0xFF, 0xFF, 0x0F, 0]),
        ("a varint past 64 bits", [1, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x02]),
        ("more versions than bytes", [1, 0, 0x7F]),
        ("bytes after the versions", [1, 0, 0, 0]),
    ])
    func aBlobThatIsNotALineIsRefused(_ name: String, _ bytes: [UInt8]) {
        #expect(HistoryLine(object: UUID(), property: .body, decoding: Data(bytes)) == nil, "\(name)")
    }

    /// Every way one version can break the rules, in a line otherwise well formed.
    @Test func aVersionThatBreaksTheRulesIsRefused() throws {
        let device = UUID()
        let first = ChangeStamp(clock: 100, device: device)
        let second = ChangeStamp(clock: 200, device: device)
        let good = HistoryLine(
            object: UUID(), property: .body,
            entries: [
                HistoryLine.Entry(
                    stamp: first, origin: .edit, bases: [], restored: nil, context: "", isHead: false, size: 1,
                    deltaOf: nil, depth: 0,
                    content: Data("a".utf8), fromMerge: false),
                HistoryLine.Entry(
                    stamp: second, origin: .edit, bases: [first], restored: nil, context: nil, isHead: true, size: 1,
                    deltaOf: first,
                    depth: 1, content: Data("b".utf8), fromMerge: false),
            ])
        let blob = [UInt8](good.encoded())
        #expect(HistoryLine(object: good.object, property: .body, decoding: Data(blob))?.entries == good.entries)
        // Format byte, one device (16 bytes), two versions: the first version starts at 19.
        let firstVersion = 19
        func refused(_ change: (inout [UInt8]) -> Void) -> Bool {
            var bytes = blob
            change(&bytes)
            return HistoryLine(object: good.object, property: .body, decoding: Data(bytes)) == nil
        }
        #expect(refused { $0[firstVersion + 1] = 3 }, "an origin out of range")
        #expect(refused { $0[firstVersion + 1] = 3 << 2 }, "a delta code out of range")
        #expect(refused { $0[firstVersion + 1] = 1 << 2 }, "a delta against the only base of a version without one")
        #expect(refused { $0[firstVersion + 1] = 1 << 4 }, "high bits of the second byte")
        #expect(refused { $0[firstVersion] |= 3 << 6 }, "a context code out of range")
        #expect(refused { $0[firstVersion] = $0[firstVersion] & ~(3 << 4) | 2 << 4 }, "the version before the first")
        #expect(refused { $0[firstVersion + 3] = 1 }, "a device out of the list")
        #expect(refused { $0.removeLast() }, "a content cut short")
        #expect(refused { $0[firstVersion + 5] = UInt8(VersionStorage.maximumDepth + 1) }, "a depth past the most")
        // The second version's clock offset (100) made 0: a stamp equal to the first's.
        let secondVersion = try #require(
            (firstVersion + 1..<blob.count).first { blob[$0] == 0x25 && blob[$0 + 2] == 100 },
            "the second version's flags")
        #expect(refused { $0[secondVersion + 2] = 0 }, "stamps not ascending")
        #expect(
            refused {
                $0[secondVersion] &= ~4; $0.removeLast(2)
            }, "a delta without content")
    }
}
