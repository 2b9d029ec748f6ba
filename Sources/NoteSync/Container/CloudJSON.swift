import Foundation
import NoteStore
import Synchronization

/// The JSON conventions of the container's files: UTF-8, keys sorted, UUIDs in lowercase,
/// dates in ISO 8601 UTC with milliseconds, unknown keys ignored, and errors that say which key
/// is wrong without repeating the file's contents.
enum CloudJSON {
    /// The date written in `text`, in any ISO 8601 form with a time zone, to the millisecond.
    /// Dates are written as the store writes every date (``Foundation/Date/isoText``):
    /// `2025-03-04T05:06:07.089Z`, UTC, with milliseconds.
    static func date(from text: String) -> Date? {
        ISODate.date(fromAnyForm: text).map(normalized)
    }

    /// `date` to the millisecond, as its text keeps it: the same date is read back exactly.
    static func normalized(_ date: Date) -> Date {
        Date(timeIntervalSince1970: TimeInterval(milliseconds(of: date)) / 1000)
    }

    private static func milliseconds(of date: Date) -> Int64 {
        Int64((date.timeIntervalSince1970 * 1000).rounded())
    }

    static func encode(_ value: some Encodable) -> Data {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        // Encoding these value types cannot fail: they hold only strings and integers.
        var data = (try? encoder.encode(value)) ?? Data()
        data.append(UInt8(ascii: "\n"))
        return data
    }

    /// The value in `data`, or the reason it is not one, in words.
    static func decode<Value: Decodable>(_ type: Value.Type, from data: Data) -> Result<Value, FormatProblem> {
        do {
            return .success(try JSONDecoder().decode(type, from: data))
        } catch let error as DecodingError {
            return .failure(FormatProblem(reason: reason(for: error)))
        } catch {
            return .failure(FormatProblem(reason: "not JSON"))
        }
    }

    /// The value in `data`, as ``decode(_:from:)`` gives it, remembering for each type the
    /// last bytes decoded into a value: the container's descriptor and this device's
    /// registration are read at every export, and are nearly always the same bytes. Bytes
    /// equal to those remembered give the value remembered, which decoding them again would
    /// give (the value is a function of the bytes); what fails to decode is not remembered.
    static func decodeRemembered<Value: Decodable & Sendable>(_ type: Value.Type, from data: Data)
        -> Result<Value, FormatProblem>
    {
        let key = ObjectIdentifier(type)
        if let last = lastDecoded.withLock({ $0[key] }), last.bytes == data, let value = last.value as? Value {
            return .success(value)
        }
        let result = decode(type, from: data)
        if case let .success(value) = result { lastDecoded.withLock { $0[key] = (data, value) } }
        return result
    }

    private static let lastDecoded = Mutex<[ObjectIdentifier: (bytes: Data, value: any Sendable)]>([:])

    private static func reason(for error: DecodingError) -> String {
        switch error {
        case let .keyNotFound(key, _):
            return "missing key '\(key.stringValue)'"
        case let .typeMismatch(_, context) where context.codingPath.isEmpty:
            return "not a JSON object"
        case let .typeMismatch(_, context), let .valueNotFound(_, context):
            return "'\(keyPath(context))' has the wrong type"
        case let .dataCorrupted(context) where context.codingPath.isEmpty:
            return "not JSON"
        case let .dataCorrupted(context):
            return context.debugDescription
        @unknown default:
            return "not understood"
        }
    }

    private static func keyPath(_ context: DecodingError.Context) -> String {
        context.codingPath.map(\.stringValue).joined(separator: ".")
    }
}

/// Why a file of the container could not be understood.
struct FormatProblem: Error, Equatable {
    var reason: String
}

extension KeyedDecodingContainer {
    /// Checks the `format` key against the one its kind of file must have.
    func requireFormat(_ expected: String, forKey key: Key) throws {
        guard try decode(String.self, forKey: key) == expected else {
            throw DecodingError.dataCorruptedError(
                forKey: key, in: self, debugDescription: "'\(key.stringValue)' is not '\(expected)'")
        }
    }

    /// A format version: a positive integer.
    func decodeFormatVersion(forKey key: Key) throws -> Int {
        let version = try decode(Int.self, forKey: key)
        guard version >= 1 else {
            throw DecodingError.dataCorruptedError(
                forKey: key, in: self, debugDescription: "'\(key.stringValue)' is not a positive integer")
        }
        return version
    }

    /// A UUID written as the container writes them (lowercase, with dashes).
    func decodeCloudUUID(forKey key: Key) throws -> UUID {
        guard let uuid = CloudName.uuid(try decode(String.self, forKey: key)) else {
            throw DecodingError.dataCorruptedError(
                forKey: key, in: self, debugDescription: "'\(key.stringValue)' is not a lowercase UUID")
        }
        return uuid
    }

    /// An object of lowercase UUIDs to log sequences (≥ 0), as baselines and registrations
    /// write what devices hold and applied.
    func decodeSequences(forKey key: Key) throws -> [UUID: Int64] {
        var sequences: [UUID: Int64] = [:]
        for (text, sequence) in try decode([String: Int64].self, forKey: key) {
            guard let device = CloudName.uuid(text), sequence >= 0 else {
                throw DecodingError.dataCorruptedError(
                    forKey: key, in: self,
                    debugDescription: "'\(key.stringValue)' maps lowercase UUIDs to log sequences")
            }
            sequences[device] = sequence
        }
        return sequences
    }

    /// A date in ISO 8601.
    func decodeCloudDate(forKey key: Key) throws -> Date {
        guard let date = CloudJSON.date(from: try decode(String.self, forKey: key)) else {
            throw DecodingError.dataCorruptedError(
                forKey: key, in: self, debugDescription: "'\(key.stringValue)' is not an ISO 8601 date")
        }
        return date
    }
}

extension KeyedEncodingContainer {
    /// An object of lowercase UUIDs to log sequences.
    mutating func encodeSequences(_ sequences: [UUID: Int64], forKey key: Key) throws {
        try encode(
            Dictionary(uniqueKeysWithValues: sequences.map { (CloudName.text(of: $0.key), $0.value) }), forKey: key)
    }

    /// Sets of log sequences per device, written as ranges `[first, last]`, ascending and
    /// apart: `{"<uuid>":[[3,3],[7,9]]}`.
    mutating func encodeSequenceRanges(_ sequences: [UUID: Set<Int64>], forKey key: Key) throws {
        var ranges: [String: [[Int64]]] = [:]
        for (device, set) in sequences where !set.isEmpty {
            var list: [[Int64]] = []
            for sequence in set.sorted() {
                if let last = list.last?.last, last + 1 == sequence {
                    list[list.count - 1][1] = sequence
                } else {
                    list.append([sequence, sequence])
                }
            }
            ranges[CloudName.text(of: device)] = list
        }
        try encode(ranges, forKey: key)
    }
}

extension KeyedDecodingContainer {
    /// What ``KeyedEncodingContainer/encodeSequenceRanges(_:forKey:)`` wrote; a range that is
    /// not two sequences, first ≤ last, from 1, is an error, and so is one of over 100,000 logs.
    func decodeSequenceRanges(forKey key: Key) throws -> [UUID: Set<Int64>] {
        var sequences: [UUID: Set<Int64>] = [:]
        for (text, ranges) in try decode([String: [[Int64]]].self, forKey: key) {
            guard let device = CloudName.uuid(text) else {
                throw DecodingError.dataCorruptedError(
                    forKey: key, in: self,
                    debugDescription: "'\(key.stringValue)' maps lowercase UUIDs to ranges of log sequences")
            }
            var set: Set<Int64> = []
            for range in ranges {
                guard range.count == 2, range[0] >= 1, range[0] <= range[1],
                    range[1] - range[0] < 100_000 - Int64(set.count)
                else {
                    throw DecodingError.dataCorruptedError(
                        forKey: key, in: self,
                        debugDescription: "'\(key.stringValue)' holds a range that is not [first, last]")
                }
                set.formUnion(range[0]...range[1])
            }
            sequences[device] = set
        }
        return sequences
    }
}
