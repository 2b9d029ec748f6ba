import Foundation
import NoteStore

/// One immutable transaction log: what one device saved, in the format of docs/sync-format.md.
public struct TransactionLog: Sendable, Equatable {
    public var header: LogHeader
    public var changes: [LogChange]

    public init(header: LogHeader, changes: [LogChange]) {
        self.header = header
        self.changes = changes
    }

    /// The blobs the log needs, sorted: those its header lists and those its attachment
    /// inserts name (a header of another writer may leave some out).
    public var referencedBlobs: [String] {
        let attached = changes.compactMap { change -> String? in
            guard change.entity?.isAttachment == true, change.operation == .insert,
                case let .text(sha256)? = change.values["sha256"],
                BlobName.isValid(sha256)
            else { return nil }
            return sha256
        }
        return Set(header.blobs + attached).sorted()
    }

    /// The most bytes the blob `sha256` may have: the size its attachment inserts in this log
    /// declare (the largest of them), else the largest blob; a blob of another size is damaged.
    public func blobLimit(_ sha256: String) -> Int {
        let declared = changes.compactMap { change -> Int64? in
            guard change.entity?.isAttachment == true, change.operation == .insert,
                change.values["sha256"] == .text(sha256),
                case let .integer(bytes)? = change.values["bytes"], bytes >= 0
            else { return nil }
            return bytes
        }.max()
        return Int(min(declared ?? Int64(CloudContainer.blobSizeLimit), Int64(CloudContainer.blobSizeLimit)))
    }
}

/// The self-description of a log: where it belongs, what wrote it and what it needs.
public struct LogHeader: Sendable, Equatable {
    public var formatVersion: Int
    public var modelVersion: Int
    public var container: UUID
    public var device: UUID
    public var sequence: Int64
    /// How many change lines follow.
    public var changes: Int
    /// For each other device, the highest sequence of it that the writer had applied.
    public var dependencies: [UUID: Int64]
    /// The blobs that changes in this log reference.
    public var blobs: [String]
    public var written: Date
    /// The first and last outbox rows of the writer that the log holds (for the writer only).
    public var outbox: ClosedRange<Int64>?

    public init(
        formatVersion: Int = LogCodec.formatVersion, modelVersion: Int, container: UUID, device: UUID,
        sequence: Int64, changes: Int, dependencies: [UUID: Int64], blobs: [String], written: Date,
        outbox: ClosedRange<Int64>? = nil
    ) {
        self.formatVersion = formatVersion
        self.modelVersion = modelVersion
        self.container = container
        self.device = device
        self.sequence = sequence
        self.changes = changes
        self.dependencies = dependencies
        self.blobs = blobs
        self.written = written
        self.outbox = outbox
    }
}

/// One change of one object.
public struct LogChange: Sendable, Equatable {
    public enum Operation: String, Sendable {
        case insert, update, delete
    }

    /// The entity as the log names it: one of the model's, or a name this build does not know,
    /// whose change the merge leaves out (docs/sync-format.md, 5.3).
    public var entityName: String
    public var object: UUID
    public var operation: Operation
    /// The hybrid logical clock of the save that made the change.
    public var clock: UInt64
    public var values: OutboxChanges
    /// Stamps of properties whose stamp is not (clock, the log's device); `*` for the others.
    public var stamps: [String: ChangeStamp]
    /// What the change carries for history (sync format 2); nil in a change of format 1.
    public var history: ChangeHistory?
    /// The note's body as a delta against a version every reader holds (model version 9),
    /// in place of `values["body"]`.
    public var bodyDelta: BodyDelta?

    /// The model's entity; nil for a name this build does not know.
    public var entity: Entity? { Entity(rawValue: entityName) }

    public init(
        entity: Entity, object: UUID, operation: Operation, clock: UInt64, values: OutboxChanges,
        stamps: [String: ChangeStamp] = [:], history: ChangeHistory? = nil
    ) {
        self.init(
            entityName: entity.rawValue, object: object, operation: operation, clock: clock, values: values,
            stamps: stamps, history: history)
    }

    public init(
        entityName: String, object: UUID, operation: Operation, clock: UInt64, values: OutboxChanges,
        stamps: [String: ChangeStamp] = [:], history: ChangeHistory? = nil, bodyDelta: BodyDelta? = nil
    ) {
        self.history = history
        self.bodyDelta = bodyDelta
        self.entityName = entityName
        self.object = object
        self.operation = operation
        self.clock = clock
        self.values = values
        self.stamps = stamps
    }

    /// The stamp of a property's value in this change.
    public func stamp(of property: String, device: UUID) -> ChangeStamp {
        stamps[property] ?? stamps["*"] ?? ChangeStamp(clock: clock, device: device)
    }
}
