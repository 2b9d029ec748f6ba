import Foundation
import NoteStore

/// The contents of `baselines/<device>/<sequence>.json`: what a baseline's database holds and
/// how to check it.
///
/// `{"bytes":N,"container":"<uuid>","device":"<uuid>","format":"note-collector-baseline",
/// "formatVersion":1,"items":N,"modelVersion":4,"sequence":N,"sha256":"<hex>",
/// "vector":{"<uuid>":N,...},"written":"<ISO 8601>"}`
///
/// `vector` says, for each device, the last of its logs whose changes the baseline holds (the
/// writer's own logs included). The database `<sequence>.sqlite` beside it must have `bytes`
/// bytes whose SHA-256 is `sha256`. Unknown keys are ignored.
public struct BaselineManifest: Codable, Equatable, Sendable {
    public static let format = "note-collector-baseline"
    public static let currentFormatVersion = 1
    /// The most bytes a manifest may have.
    public static let sizeLimit = 1 << 20

    public var formatVersion: Int
    public var container: UUID
    public var device: UUID
    public var sequence: Int64
    public var modelVersion: Int
    public var vector: [UUID: Int64]
    public var bytes: Int64
    public var sha256: String
    /// The notes and collections it holds; informative.
    public var items: Int
    public var written: Date
    /// Whether its writer knew that a baseline of the container dropped history (its own
    /// or an earlier one): carried from baseline to baseline, so that a device coming back
    /// without registration learns it (docs/sync-format.md, "Retention of history"). Written
    /// only when true.
    public var historyDropped = false

    public init(
        container: UUID, device: UUID, sequence: Int64, modelVersion: Int, vector: [UUID: Int64], bytes: Int64,
        sha256: String, items: Int, written: Date = Date()
    ) {
        formatVersion = Self.currentFormatVersion
        self.container = container
        self.device = device
        self.sequence = sequence
        self.modelVersion = modelVersion
        self.vector = vector
        self.bytes = bytes
        self.sha256 = sha256
        self.items = items
        self.written = CloudJSON.normalized(written)
    }

    /// The logs it holds in all: the sum of its vector, which orders baselines (see
    /// ``BaselineChoice``).
    public var logCount: Int64 {
        vector.values.reduce(0, +)
    }

    /// The keys and values the database's header table repeats, so that the database says
    /// what it is on its own.
    var databaseHeader: [String: String] {
        [
            "container": CloudName.text(of: container), "device": CloudName.text(of: device),
            "sequence": String(sequence),
            "modelVersion": String(modelVersion), "vector": Self.vectorText(vector), "written": written.isoText,
        ]
    }

    static func vectorText(_ vector: [UUID: Int64]) -> String {
        "{"
            + vector.sorted { $0.key.storeString < $1.key.storeString }.map { "\"\($0.key.storeString)\":\($0.value)" }
            .joined(separator: ",") + "}"
    }

    private enum CodingKeys: String, CodingKey {
        case format, formatVersion, container, device, sequence, modelVersion, vector, bytes, sha256, items, written,
            historyDropped
    }

    public init(from decoder: any Decoder) throws {
        let keys = try decoder.container(keyedBy: CodingKeys.self)
        try keys.requireFormat(Self.format, forKey: .format)
        formatVersion = try keys.decodeFormatVersion(forKey: .formatVersion)
        container = try keys.decodeCloudUUID(forKey: .container)
        device = try keys.decodeCloudUUID(forKey: .device)
        sequence = try keys.decode(Int64.self, forKey: .sequence)
        modelVersion = try keys.decode(Int.self, forKey: .modelVersion)
        vector = try keys.decodeSequences(forKey: .vector)
        bytes = try keys.decode(Int64.self, forKey: .bytes)
        sha256 = try keys.decode(String.self, forKey: .sha256)
        guard BlobName.isValid(sha256) else {
            throw DecodingError.dataCorruptedError(
                forKey: .sha256, in: keys, debugDescription: "'sha256' is not 64 lowercase hex digits")
        }
        items = try keys.decode(Int.self, forKey: .items)
        written = try keys.decodeCloudDate(forKey: .written)
        historyDropped = try keys.decodeIfPresent(Bool.self, forKey: .historyDropped) ?? false
    }

    public func encode(to encoder: any Encoder) throws {
        var keys = encoder.container(keyedBy: CodingKeys.self)
        try keys.encode(Self.format, forKey: .format)
        try keys.encode(formatVersion, forKey: .formatVersion)
        try keys.encode(CloudName.text(of: container), forKey: .container)
        try keys.encode(CloudName.text(of: device), forKey: .device)
        try keys.encode(sequence, forKey: .sequence)
        try keys.encode(modelVersion, forKey: .modelVersion)
        try keys.encodeSequences(vector, forKey: .vector)
        try keys.encode(bytes, forKey: .bytes)
        try keys.encode(sha256, forKey: .sha256)
        try keys.encode(items, forKey: .items)
        try keys.encode(written.isoText, forKey: .written)
        if historyDropped { try keys.encode(true, forKey: .historyDropped) }
    }
}
