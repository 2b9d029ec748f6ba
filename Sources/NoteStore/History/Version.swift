import Foundation
import GRDB

/// One version of an item's name or of a note's body, as history keeps it.
///
/// A version is known by its stamp, the same on every device. Its bases are the versions it
/// was edited from; nil for a version of sync format 1 (or from before history), which
/// descends from every version with a smaller stamp.
public struct Version: Sendable, Equatable {
    public let object: UUID
    public let property: HistoryProperty
    public let stamp: ChangeStamp
    public let origin: VersionOrigin
    public let bases: [ChangeStamp]?
    /// The version a restore brought back.
    public let restored: ChangeStamp?
    public let context: VersionContext?
    /// What the writing device called itself, when its log said: the device of its context.
    public var deviceName: String? { context?.device }
    /// Whether no other version descends from it: the current text is the merge of the heads.
    public let isHead: Bool
    /// Bytes of UTF-8.
    public let size: Int
    /// Whether it was edited from the merge of several heads by a build that merges two such
    /// versions on the merge of their common versions (docs/sync-format.md, "History").
    public let fromMerge: Bool

    /// When it was saved, by the writer's clock.
    public var time: Date { HybridClock.date(of: stamp.clock) }

    init(
        object: UUID, property: HistoryProperty, stamp: ChangeStamp, origin: VersionOrigin, bases: [ChangeStamp]?,
        restored: ChangeStamp?, context: VersionContext?, isHead: Bool, size: Int, fromMerge: Bool
    ) {
        self.object = object
        self.property = property
        self.stamp = stamp
        self.origin = origin
        self.bases = bases
        self.restored = restored
        self.context = context
        self.isHead = isHead
        self.size = size
        self.fromMerge = fromMerge
    }
}

extension ChangeHistory {
    static func context(json: String) -> VersionContext? {
        guard let members = JSONScanner.object(Data(json.utf8)) else { return nil }
        return ChangeHistory(members: [("context", .object(members))])?.context
    }

    static func contextJSON(_ context: VersionContext) -> String {
        var object = OutboxChanges()
        if let device = context.device { object.set("device", .text(device)) }
        object.set("name", .text(context.name))
        object.set("parent", .id(context.parent))
        return object.json
    }
}
