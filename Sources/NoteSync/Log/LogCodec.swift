import Crypto
import Foundation
import NoteFiles
import NoteStore

/// Encodes and decodes transaction logs (docs/sync-format.md, "Transaction log").
///
/// A log is UTF-8 text: a magic line, a header line, one line per change, and an `END` line with
/// the SHA-256 of every byte before it. Decoding checks the whole file and never trusts a
/// count or a size written in it.
public enum LogCodec {
    public static let formatVersion = 1
    public static let magic = "NOTE-COLLECTOR-LOG 1"
    /// Readers refuse larger files without reading them.
    public static let maximumSize = 64 * 1024 * 1024
    /// Writers start a new log once this much is written.
    public static let targetSize = 4 * 1024 * 1024
    /// The model version of a log that carries a body as a delta (docs/sync-format.md,
    /// "Versions"): builds of model 8 wait on it. Stores and baselines stay of model 8.
    public static let modelVersionWithDeltas = 9
    /// The highest model version of the logs this build applies.
    public static let readableModelVersion = max(Store.currentModelVersion, modelVersionWithDeltas)

    // MARK: Encoding

    public static func encode(_ log: TransactionLog) -> Data {
        var text = magic + "\n" + headerLine(log.header) + "\n"
        for change in log.changes {
            text += changeLine(change) + "\n"
        }
        var data = Data(text.utf8)
        data.append(Data("END \(sha256(data))\n".utf8))
        return data
    }

    static func headerLine(_ header: LogHeader) -> String {
        var fields: [(String, String)] = [
            ("blobs", "[" + header.blobs.map(JSONText.string).joined(separator: ",") + "]"),
            ("changes", String(header.changes)),
            ("container", JSONText.string(header.container.storeString)),
            (
                "dependencies",
                "{"
                    + header.dependencies.sorted { $0.key.storeString < $1.key.storeString }
                    .map { JSONText.string($0.key.storeString) + ":" + String($0.value) }.joined(separator: ",") + "}"
            ),
            ("device", JSONText.string(header.device.storeString)),
            ("formatVersion", String(header.formatVersion)),
            ("modelVersion", String(header.modelVersion)),
            ("sequence", String(header.sequence)),
            ("written", JSONText.string(header.written.isoText)),
        ]
        if let outbox = header.outbox {
            fields.append(("outbox", "[\(outbox.lowerBound),\(outbox.upperBound)]"))
        }
        return "{" + fields.sorted { $0.0 < $1.0 }.map { JSONText.string($0.0) + ":" + $0.1 }.joined(separator: ",")
            + "}"
    }

    /// One change as one line of JSON.
    public static func changeLine(_ change: LogChange) -> String {
        var line = "{\"clock\":\(change.clock)"
        if let delta = change.bodyDelta { line += ",\"delta\":" + delta.json }
        line += ",\"entity\":" + JSONText.string(change.entityName)
        if let history = change.history, !history.isEmpty { line += ",\"history\":" + history.json }
        line += ",\"object\":\"\(change.object.storeString)\",\"operation\":\"\(change.operation.rawValue)\""
        if !change.stamps.isEmpty {
            var stamps = OutboxChanges()
            for (name, stamp) in change.stamps.sorted(by: { $0.key < $1.key }) { stamps.set(name, .text(stamp.text)) }
            line += ",\"stamps\":" + stamps.json
        }
        return line + ",\"values\":" + change.values.json + "}"
    }

    static func sha256(_ data: Data) -> String {
        HexText.lowercase(SHA256.hash(data: data))
    }

    // MARK: Decoding

    /// Decodes and checks a whole log: the magic line, then the checksum of the `END` line
    /// over everything before it, then the header and every change.
    public static func decode(_ data: Data) throws(LogProblem) -> TransactionLog {
        guard data.count <= maximumSize else { throw .tooLarge(data.count) }
        let lines = Self.lines(of: data)
        guard let first = lines.first, !first.isEmpty else { throw .truncated }
        guard String(decoding: first, as: UTF8.self) == magic else {
            if lines.count == 1 && magic.utf8.starts(with: first) { throw .truncated }
            throw .unknownFormat("the first line is not '\(magic)'")
        }
        // A whole log ends with its END line and a line break: the last piece is empty.
        guard lines.count >= 4, lines[lines.count - 1].isEmpty else { throw .truncated }
        let endLine = lines[lines.count - 2]
        let end = String(decoding: endLine, as: UTF8.self)
        guard end.hasPrefix("END ") else { throw .truncated }
        guard end.count == 68 else { throw .corrupt("the END line is not a checksum") }
        guard sha256(Data(data.prefix(upTo: endLine.startIndex))) == String(end.dropFirst(4)) else {
            throw .checksumMismatch
        }
        let header = try decodeHeader(lines[1])
        guard header.formatVersion == formatVersion else {
            throw .unknownFormat("format version \(header.formatVersion)")
        }
        guard lines.count == header.changes + 4 else {
            throw .corrupt("it has \(lines.count - 4) change lines, the header says \(header.changes)")
        }
        var changes: [LogChange] = []
        changes.reserveCapacity(header.changes)
        for index in 2..<(2 + header.changes) {
            changes.append(try decodeChange(lines[index], line: index + 1))
        }
        return TransactionLog(header: header, changes: changes)
    }

    /// The pieces of `data` between line breaks, empty ones included (as `split` with
    /// `omittingEmptySubsequences: false`), found with `memchr(3)`: a log holds megabytes.
    static func lines(of data: Data) -> [Data.SubSequence] {
        var bounds: [Range<Int>] = []
        data.withUnsafeBytes { (buffer: UnsafeRawBufferPointer) in
            guard let base = buffer.baseAddress else { return }
            var start = 0
            while start <= buffer.count {
                let rest = buffer.count - start
                guard rest > 0, let found = memchr(base + start, 0x0A, rest) else {
                    bounds.append(start..<buffer.count)
                    break
                }
                let end = base.distance(to: UnsafeRawPointer(found))
                bounds.append(start..<end)
                start = end + 1
            }
        }
        if bounds.isEmpty { bounds.append(0..<0) }
        let origin = data.startIndex
        return bounds.map { data[(origin + $0.lowerBound)..<(origin + $0.upperBound)] }
    }

    private static func object(_ line: Data.SubSequence, what: String) throws(LogProblem) -> [String: Any] {
        guard let value = try? JSONSerialization.jsonObject(with: Data(line)), let object = value as? [String: Any]
        else {
            throw .corrupt("\(what) is not a JSON object")
        }
        return object
    }

    static func decodeHeader(_ line: Data.SubSequence) throws(LogProblem) -> LogHeader {
        let object = try object(line, what: "the header")
        func uuid(_ key: String) throws(LogProblem) -> UUID {
            guard let text = object[key] as? String, let id = UUID(storeText: text) else {
                throw .corrupt("the header's \(key) is not an id")
            }
            return id
        }
        func integer(_ key: String) throws(LogProblem) -> Int64 {
            guard let number = object[key] as? NSNumber else {
                throw .corrupt("the header's \(key) is not a whole number")
            }
            return number.int64Value
        }
        guard let format = object["formatVersion"] as? NSNumber else {
            throw .corrupt("the header has no formatVersion")
        }
        var dependencies: [UUID: Int64] = [:]
        for (key, value) in object["dependencies"] as? [String: Any] ?? [:] {
            guard let id = UUID(storeText: key), let number = value as? NSNumber else {
                throw .corrupt("the header's dependencies are not ids and numbers")
            }
            dependencies[id] = number.int64Value
        }
        let blobs = object["blobs"] as? [String] ?? []
        guard blobs.allSatisfy(BlobName.isValid) else { throw .corrupt("the header names a blob badly") }
        let changes = try integer("changes")
        guard changes >= 0, changes < Int64(maximumSize) else {
            throw .corrupt("the header's change count is impossible")
        }
        var outbox: ClosedRange<Int64>?
        if let range = object["outbox"] as? [NSNumber], range.count == 2, range[0].int64Value <= range[1].int64Value {
            outbox = range[0].int64Value...range[1].int64Value
        }
        return LogHeader(
            formatVersion: format.intValue, modelVersion: Int(try integer("modelVersion")),
            container: try uuid("container"), device: try uuid("device"), sequence: try integer("sequence"),
            changes: Int(changes), dependencies: dependencies, blobs: blobs,
            written: (object["written"] as? String).flatMap(ISODate.date(from:)) ?? Date(timeIntervalSince1970: 0),
            outbox: outbox)
    }

    /// Reads a change line: with ``JSONScanner`` when it can, else with `JSONSerialization`,
    /// whose result is converted to the same members; one set of rules reads both.
    static func decodeChange(_ line: Data.SubSequence, line number: Int) throws(LogProblem) -> LogChange {
        if let members = JSONScanner.object(line) { return try decodeChange(members, line: number) }
        return try decodeChange(members(of: try object(line, what: "line \(number)")), line: number)
    }

    /// What `JSONSerialization` read, as scanner members: numbers (booleans among them) as
    /// whole numbers, arrays and the like as ``JSONScanner/Value/other``.
    static func members(of object: [String: Any]) -> [(key: String, value: JSONScanner.Value)] {
        func value(_ any: Any) -> JSONScanner.Value {
            switch any {
            case let text as String: return .text(text)
            case let number as NSNumber: return .integer(number.int64Value)
            case is NSNull: return .null
            case let object as [String: Any]: return .object(members(of: object))
            default: return .other
            }
        }
        return object.map { (key: $0.key, value: value($0.value)) }
    }

    /// A change line's members, by the rules of docs/sync-format.md, 5.3.
    static func decodeChange(_ members: [(key: String, value: JSONScanner.Value)], line number: Int) throws(LogProblem)
        -> LogChange
    {
        var entity: String?
        var id: UUID?
        var operation: LogChange.Operation?
        var clock: Int64?
        var values: [(key: String, value: JSONScanner.Value)]?
        var stampMembers: [(key: String, value: JSONScanner.Value)] = []
        var history: ChangeHistory?
        var delta: BodyDelta?
        for (key, value) in members {
            switch (key, value) {
            case let ("entity", .text(text)): entity = text
            case let ("object", .text(text)): id = UUID(storeText: text)
            case let ("operation", .text(text)): operation = LogChange.Operation(rawValue: text)
            case let ("clock", .integer(value)): clock = value
            case let ("values", .object(object)): values = object
            case let ("stamps", .object(object)): stampMembers = object
            case let ("history", .object(object)):
                guard let read = ChangeHistory(members: object) else {
                    throw .corrupt("line \(number) has a history that is not one")
                }
                history = read
            case let ("delta", .object(object)):
                guard let read = BodyDelta(members: object) else {
                    throw .corrupt("line \(number) has a body delta that is not one")
                }
                delta = read
            case ("delta", _):
                throw .corrupt("line \(number) has a body delta that is not one")
            default:
                // Unknown keys, a `stamps` that is not an object; a required key of another
                // type stays missing.
                break
            }
        }
        guard let entity, let id, let operation, let clock, clock >= 0, let values else {
            throw .corrupt("line \(number) is not a change")
        }
        var changes = OutboxChanges()
        for (name, value) in values.sorted(by: { $0.key < $1.key }) {
            switch value {
            case let .text(text): changes.set(name, .text(text))
            case let .integer(integer): changes.set(name, .integer(integer))
            case .null: changes.set(name, .null)
            case .object, .other: throw .corrupt("line \(number) has a value that is neither text, number nor null")
            }
        }
        var stamps: [String: ChangeStamp] = [:]
        for (name, value) in stampMembers {
            guard case let .text(text) = value, let stamp = ChangeStamp(text: text) else {
                throw .corrupt("line \(number) has a stamp that is not one")
            }
            stamps[name] = stamp
        }
        if let delta {
            // Only the update of a note's body, from one of its bases, in place of the body.
            guard entity == Entity.note.rawValue, operation == .update, changes["body"] == nil,
                history?.bases[.body]?.contains(delta.base) == true
            else { throw .corrupt("line \(number) has a body delta where it cannot have one") }
        }
        return LogChange(
            entityName: entity, object: id, operation: operation, clock: UInt64(clock), values: changes, stamps: stamps,
            history: history, bodyDelta: delta)
    }
}

/// Small pieces of JSON text, written exactly.
enum JSONText {
    static func string(_ text: String) -> String {
        var out = ""
        OutboxChanges.appendJSONString(text, to: &out)
        return out
    }
}
