import Foundation

/// A property whose every version stays in history: an item's name, a note's body.
public enum HistoryProperty: String, Sendable, CaseIterable, Comparable {
    case name, body

    public static func < (lhs: HistoryProperty, rhs: HistoryProperty) -> Bool {
        lhs.rawValue < rhs.rawValue
    }
}

/// How a version came to be.
public enum VersionOrigin: String, Sendable {
    /// Written by a person: an edit, or the first text of a new item.
    case edit
    /// A version brought back by `notes history --restore`.
    case restore
    /// The first text of a conflict copy: the losing version of a conflict.
    case conflict
}

/// What an item was called, where it was, and what the saving device called itself, when a
/// version was saved: what a conflict copy of that version is named after and placed beside.
/// It travels with the change, so that every device names the copy the same.
public struct VersionContext: Sendable, Equatable {
    public var name: String
    public var parent: UUID?
    public var device: String?

    public init(name: String, parent: UUID?, device: String? = nil) {
        self.name = name
        self.parent = parent
        self.device = device
    }
}
