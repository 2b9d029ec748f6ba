/// The entities of the model, by the names that sync writes in logs and snapshots
/// (docs/sync-format.md, 5.3): the abstract `Item`'s `Note` and `Collection`, the abstract
/// `Attachment`'s `ImageAttachment` and `FileAttachment`, `Tag` for the tags of an item and
/// `Property` for its properties (the object of a tag or property change is the item).
public enum Entity: String, Sendable, CaseIterable {
    case note = "Note"
    case collection = "Collection"
    case imageAttachment = "ImageAttachment"
    case fileAttachment = "FileAttachment"
    case tag = "Tag"
    case property = "Property"

    /// The entity of an item of this kind.
    public init(_ kind: ItemKind) {
        self = kind == .note ? .note : .collection
    }

    /// The kind of item, for a note or a collection.
    public var itemKind: ItemKind? {
        switch self {
        case .note: return .note
        case .collection: return .collection
        case .imageAttachment, .fileAttachment, .tag, .property: return nil
        }
    }

    /// Whether it is an item: a note or a collection.
    public var isItem: Bool { itemKind != nil }

    /// Whether it is an attachment: an image or any other file.
    public var isAttachment: Bool { self == .imageAttachment || self == .fileAttachment }
}
