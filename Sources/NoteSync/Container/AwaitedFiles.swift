import Foundation
import NoteStore

/// What a device waits for and cannot get from the container, as its registration says
/// (`waiting`, docs/sync-format.md, section 4), so that a device that can mend it does.
///
/// `{"blobs":["<sha256>"],"logs":{"<uuid>":5}}`: the blobs whose bytes its attachments or
/// logs wait for (missing from the container, or damaged there), by the SHA-256 of their
/// bytes; and, per other device, the first of its logs that this device needs and cannot have
/// (gone from the container, or unreadable there). Both keys are optional; unknown keys are
/// ignored.
public struct AwaitedFiles: Codable, Equatable, Sendable {
    /// Per other device, the first of its logs awaited.
    public var logs: [UUID: Int64] = [:]
    /// The SHA-256 of each blob awaited, in lowercase hex.
    public var blobs: Set<String> = []

    /// The most blobs a registration lists: it stays well under its 64 KiB.
    static let blobLimit = 500

    public init(logs: [UUID: Int64] = [:], blobs: Set<String> = []) {
        self.logs = logs
        self.blobs = blobs
    }

    public var isEmpty: Bool { logs.isEmpty && blobs.isEmpty }

    private enum CodingKeys: String, CodingKey {
        case blobs, logs
    }

    public init(from decoder: any Decoder) throws {
        let keys = try decoder.container(keyedBy: CodingKeys.self)
        logs = keys.contains(.logs) ? try keys.decodeSequences(forKey: .logs) : [:]
        guard logs.values.allSatisfy({ $0 >= 1 }) else {
            throw DecodingError.dataCorruptedError(
                forKey: .logs, in: keys, debugDescription: "'logs' holds a sequence below 1")
        }
        let names = try keys.decodeIfPresent([String].self, forKey: .blobs) ?? []
        guard names.count <= Self.blobLimit, names.allSatisfy({ BlobName.isValid($0) }) else {
            throw DecodingError.dataCorruptedError(
                forKey: .blobs, in: keys,
                debugDescription: "'blobs' is not a list of at most \(Self.blobLimit) SHA-256 names")
        }
        blobs = Set(names)
    }

    public func encode(to encoder: any Encoder) throws {
        var keys = encoder.container(keyedBy: CodingKeys.self)
        if !blobs.isEmpty { try keys.encode(blobs.sorted().prefix(Self.blobLimit).map { $0 }, forKey: .blobs) }
        if !logs.isEmpty { try keys.encodeSequences(logs, forKey: .logs) }
    }
}
