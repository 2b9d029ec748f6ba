import Foundation

/// The two concrete kinds of the abstract `Item` entity.
public enum ItemKind: String, Sendable, Codable, CaseIterable {
    case note
    case collection
}

/// One note or collection: the abstract `Item` entity with its sub-entity recorded in `kind`.
///
/// Items are values. An ``ObjectContext`` hands them out, tracks what was changed on them and
/// writes those changes on ``ObjectContext/save()``. The `id` is made at insert and never reused.
public struct Item: Hashable, Sendable, Identifiable {
    public let id: UUID
    public let kind: ItemKind
    /// Trimmed on save; 1 to 500 characters, no line breaks.
    public var name: String
    /// Set by the store when the item is inserted.
    public internal(set) var created: Date
    /// Set by the store on every save that changes the item.
    public internal(set) var modified: Date
    /// The collection holding the item, or nil at the top level.
    public var parent: UUID?
    /// When the item was moved to the trash, or nil.
    public internal(set) var trashed: Date?
    /// The text of a note (nil for a collection, and for a note fetched without its body).
    public var body: String?

    public var isNote: Bool { kind == .note }
    public var isCollection: Bool { kind == .collection }
    public var isTrashed: Bool { trashed != nil }

    init(
        id: UUID, kind: ItemKind, name: String, created: Date, modified: Date,
        parent: UUID?, trashed: Date?, body: String?
    ) {
        self.id = id
        self.kind = kind
        self.name = name
        self.created = created
        self.modified = modified
        self.parent = parent
        self.trashed = trashed
        self.body = body
    }
}

extension Item {
    /// The largest body the store accepts, in bytes of UTF-8.
    public static let maximumBodyBytes = 10 * 1024 * 1024
    /// The longest name, in characters.
    public static let maximumNameLength = 500
}

extension Date {
    /// Now, truncated to whole milliseconds: the precision at which the store keeps dates.
    static func storeNow() -> Date {
        Date(storeMilliseconds: Date().storeMilliseconds)
    }

    init(storeMilliseconds ms: Int64) {
        self.init(timeIntervalSince1970: Double(ms) / 1000)
    }

    var storeMilliseconds: Int64 {
        Int64((timeIntervalSince1970 * 1000).rounded())
    }
}
