import Foundation
import NoteStore
@testable import NoteSync
import Testing

@Suite struct LogCodecTests {
    static let device = UUID(uuidString: "5d0b8f3e-3f4a-4c59-9d2e-0a1b2c3d4e5f")!
    static let container = UUID(uuidString: "0f1e2d3c-4b5a-4968-8776-a5b4c3d2e1f0")!

    static func sample() -> TransactionLog {
        var values = OutboxChanges()
        values.set("name", .text("Groceries \"weekly\"\n"))
        values.set("parent", .null)
        values.set("created", .integer(1_763_700_000_123))
        values.set("body", .text("milk\teggs 🥚"))
        let other = UUID(uuidString: "11111111-2222-4333-8444-555555555555")!
        let changes = [
            LogChange(
                entity: .note, object: UUID(), operation: .insert, clock: 115_593_790_521_278_465, values: values),
            LogChange(
                entity: .collection, object: UUID(), operation: .delete, clock: 115_593_790_521_278_466,
                values: OutboxChanges(),
                stamps: ["*": ChangeStamp(clock: 115_593_790_521_278_400, device: other)]),
        ]
        let header = LogHeader(
            modelVersion: 3, container: container, device: device, sequence: 7, changes: changes.count,
            dependencies: [other: 12], blobs: [String(repeating: "ab", count: 32)],
            written: Date(timeIntervalSince1970: 1_763_700_000.5), outbox: 10...11)
        return TransactionLog(header: header, changes: changes)
    }

    @Test(arguments: ["", "\n", "\n\n", "a", "a\n", "a\nb", "\na\n\nb\n", "line one\nline two\n"])
    func linesAreSplitAtEveryLineBreakKeepingEmptyOnes(text: String) {
        let data = Data(("x" + text).utf8).dropFirst()  // a slice that does not start at 0
        let expected = data.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false)
        #expect(LogCodec.lines(of: data).map { Array($0) } == expected.map { Array($0) })
    }

    /// Lines the fast scanner declines go through JSONSerialization and the same rules.
    @Test func linesOutsideTheScannersShapeFollowTheSameRules() throws {
        let object = #""object":"0a1b2c3d-4e5f-4a6b-8c7d-9e0f1a2b3c4d","operation":"update","entity":"Note""#
        func decode(_ text: String) throws(LogProblem) -> LogChange {
            try LogCodec.decodeChange(Data(text.utf8)[...], line: 3)
        }
        let fraction = try decode(#"{"clock":1.0,\#(object),"values":{"name":"A"},"extra":[1,2]}"#)
        #expect(fraction.clock == 1 && fraction.values["name"] == .text("A"))
        #expect(throws: LogProblem.corrupt("line 3 has a value that is neither text, number nor null")) {
            try decode(#"{"clock":1,\#(object),"values":{"name":[1]}}"#)
        }
        #expect(throws: LogProblem.corrupt("line 3 is not a change")) {
            try decode(#"{"clock":1,\#(object),"values":[1]}"#)
        }
        #expect(throws: LogProblem.corrupt("line 3 is not a change")) {
            try decode(#"{"clock":-1.5,\#(object),"values":{}}"#)
        }
        let ignoredStamps = try decode(#"{"clock":2,\#(object),"values":{},"stamps":[true]}"#)
        #expect(ignoredStamps.stamps.isEmpty)
    }

    @Test func roundTripsEveryFieldExactly() throws {
        let log = Self.sample()
        let decoded = try LogCodec.decode(LogCodec.encode(log))
        #expect(decoded == log)
        #expect(decoded.changes[0].clock == 115_593_790_521_278_465, "clocks beyond 2^53 survive exactly")
    }

    @Test func aLogOfOneChangeReadsBack() throws {
        var log = Self.sample()
        log.changes.removeLast()
        log.header.changes = 1
        log.header.dependencies = [Self.device: 1]
        #expect(try LogCodec.decode(LogCodec.encode(log)) == log)
    }

    @Test func encodingIsTheDocumentedText() throws {
        let text = String(decoding: LogCodec.encode(Self.sample()), as: UTF8.self)
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false)
        #expect(lines.count == 6)
        #expect(lines[0] == "NOTE-COLLECTOR-LOG 1")
        #expect(lines[1].hasPrefix("{\"blobs\":[\""))
        #expect(lines[4].hasPrefix("END "))
        #expect(lines[5].isEmpty)
        let covered = Data(text.utf8).prefix(text.utf8.count - 69)
        #expect(String(lines[4].dropFirst(4)) == LogCodec.sha256(covered))
    }

    @Test func everyCutIsRefused() throws {
        let data = LogCodec.encode(Self.sample())
        for length in [0, 5, 20, 21, 100, data.count / 2, data.count - 70, data.count - 1] {
            #expect(throws: LogProblem.self, "cut at \(length)") { try LogCodec.decode(data.prefix(length)) }
        }
    }

    @Test func aChangedByteIsCaughtByTheChecksum() throws {
        var data = LogCodec.encode(Self.sample())
        let index = data.firstIndex(of: UInt8(ascii: "m"))!
        data[index] = UInt8(ascii: "M")
        #expect(throws: LogProblem.checksumMismatch) { try LogCodec.decode(data) }
    }

    @Test func otherFormatsAreRecognised() throws {
        #expect(throws: LogProblem.self) { try LogCodec.decode(Data("hello\n".utf8)) }
        var newer = Self.sample()
        newer.header.formatVersion = 2
        #expect(throws: LogProblem.unknownFormat("format version 2")) { try LogCodec.decode(LogCodec.encode(newer)) }
    }

    @Test func extraLinesAreCorrupt() throws {
        var data = LogCodec.encode(Self.sample())
        data.append(Data("more\n".utf8))
        #expect(throws: LogProblem.self) { try LogCodec.decode(data) }
    }

    @Test func oversizedDataIsRefusedUnread() throws {
        #expect(throws: LogProblem.tooLarge(LogCodec.maximumSize + 1)) {
            try LogCodec.decode(Data(count: LogCodec.maximumSize + 1))
        }
    }
}
