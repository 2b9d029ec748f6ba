import Foundation

/// The contents of `devices/<device>.json`: a device attached to the container.
///
/// `{"container":"<uuid>","device":"<uuid>","format":"note-collector-device","formatVersion":1,
/// "modelVersion":2,"name":"<text>","registered":"<ISO 8601>"}`
///
/// A registration is valid only in the folder of its container and under its device's name:
/// `container` must be the container's identity and `device` the file's name, otherwise the
/// file is foreign and skipped. Unknown keys are ignored.
public struct DeviceRegistration: Codable, Equatable, Sendable {
    /// The value of the `format` key of every registration.
    public static let format = "note-collector-device"
    /// The format version this build writes.
    public static let currentFormatVersion = 1
    /// The most bytes a registration file may have.
    public static let sizeLimit = 64 * 1024

    public var formatVersion: Int
    public var container: UUID
    public var device: UUID
    /// A name for people, as the host name of the machine.
    public var name: String
    public var registered: Date
    /// The store model version of the build that registered the device.
    public var modelVersion: Int
    /// The last log of each other device that this device had applied when it last said so,
    /// for compaction (docs/sync-format.md, "Compaction"); nil from builds before baselines.
    public var applied: [UUID: Int64]?
    /// When this device last synced, as it last said; nil from builds before baselines.
    public var synced: Date?
    /// What this device had applied, its own last published log included, at a moment its
    /// outbox was empty (all it had saved was published), as it last said: what the retention
    /// of history needs to know no version can still arrive from before it
    /// (docs/sync-format.md, section 4); nil when it never said so.
    public var clean: [UUID: Int64]?
    /// The logs of each other device that this device passed over as logs of another
    /// container (docs/sync-format.md, section 4): it applied nothing of them, so their writer
    /// publishes their content again and never counts them as had; nil when there are none.
    public var passedOver: [UUID: Set<Int64>]?
    /// What this device waits for and cannot get from the container: blobs, and logs of other
    /// devices (docs/sync-format.md, section 4), for a device that can mend them; nil when
    /// nothing waits.
    public var waiting: AwaitedFiles?

    /// A registration of the current format; `registered` is kept to the millisecond, as written.
    public init(container: UUID, device: UUID, name: String, registered: Date = Date(), modelVersion: Int) {
        formatVersion = Self.currentFormatVersion
        self.container = container
        self.device = device
        self.name = name
        self.registered = CloudJSON.normalized(registered)
        self.modelVersion = modelVersion
    }

    private enum CodingKeys: String, CodingKey {
        case format, formatVersion, container, device, name, registered, modelVersion, applied, synced, clean,
            passedOver, waiting
    }

    public init(from decoder: any Decoder) throws {
        let keys = try decoder.container(keyedBy: CodingKeys.self)
        try keys.requireFormat(Self.format, forKey: .format)
        formatVersion = try keys.decodeFormatVersion(forKey: .formatVersion)
        container = try keys.decodeCloudUUID(forKey: .container)
        device = try keys.decodeCloudUUID(forKey: .device)
        name = try keys.decode(String.self, forKey: .name)
        registered = try keys.decodeCloudDate(forKey: .registered)
        modelVersion = try keys.decode(Int.self, forKey: .modelVersion)
        // Read when understood; a registration does not fail for what sync only uses to compact.
        applied = keys.contains(.applied) ? try? keys.decodeSequences(forKey: .applied) : nil
        synced = (try? keys.decodeIfPresent(String.self, forKey: .synced)).flatMap { $0.flatMap(CloudJSON.date(from:)) }
        clean = keys.contains(.clean) ? try? keys.decodeSequences(forKey: .clean) : nil
        passedOver = keys.contains(.passedOver) ? try? keys.decodeSequenceRanges(forKey: .passedOver) : nil
        waiting = keys.contains(.waiting) ? try? keys.decode(AwaitedFiles.self, forKey: .waiting) : nil
    }

    public func encode(to encoder: any Encoder) throws {
        var keys = encoder.container(keyedBy: CodingKeys.self)
        try keys.encode(Self.format, forKey: .format)
        try keys.encode(formatVersion, forKey: .formatVersion)
        try keys.encode(CloudName.text(of: container), forKey: .container)
        try keys.encode(CloudName.text(of: device), forKey: .device)
        try keys.encode(name, forKey: .name)
        try keys.encode(registered.isoText, forKey: .registered)
        try keys.encode(modelVersion, forKey: .modelVersion)
        if let applied { try keys.encodeSequences(applied, forKey: .applied) }
        if let synced { try keys.encode(synced.isoText, forKey: .synced) }
        if let clean { try keys.encodeSequences(clean, forKey: .clean) }
        if let passedOver, !passedOver.isEmpty { try keys.encodeSequenceRanges(passedOver, forKey: .passedOver) }
        if let waiting, !waiting.isEmpty { try keys.encode(waiting, forKey: .waiting) }
    }
}
