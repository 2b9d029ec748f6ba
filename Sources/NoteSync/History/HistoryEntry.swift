import Crypto
import Foundation
import NoteFiles
import NoteStore

/// One line of an item's history: a version that was saved, or a merge that history derives
/// from concurrent versions.
public struct HistoryEntry: Sendable, Equatable {
    public enum Kind: String, Sendable {
        case edit, merge, restore, conflict
    }

    /// A short id, the same on every device: 8 hex digits of the SHA-256 of the property and
    /// the stamp (of a merge: of the versions it merges).
    public let id: String
    public let property: HistoryProperty
    public let kind: Kind
    /// The version's stamp; for a merge, the newest stamp it merges.
    public let stamp: ChangeStamp
    /// The versions a merge merges, or the bases of a version.
    public let bases: [ChangeStamp]
    /// What the saving device called itself, when known.
    public let deviceName: String?
    /// Bytes of UTF-8.
    public let size: Int
    /// Whether its text is the item's current name or body.
    public let isCurrent: Bool
    /// The version a restore brought back.
    public let restored: ChangeStamp?

    public var time: Date { HybridClock.date(of: stamp.clock) }

    public static func versionID(_ property: HistoryProperty, _ stamp: ChangeStamp) -> String {
        shortHash("\(property.rawValue)/\(stamp.text)")
    }

    static func mergeID(_ property: HistoryProperty, _ heads: [ChangeStamp]) -> String {
        shortHash("\(property.rawValue)/merge/" + heads.sorted().map(\.text).joined(separator: " "))
    }

    private static func shortHash(_ text: String) -> String {
        HexText.lowercase(SHA256.hash(data: Data(text.utf8)).prefix(4))
    }
}
