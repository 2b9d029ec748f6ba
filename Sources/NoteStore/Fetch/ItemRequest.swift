import Foundation

/// What to fetch: a filter, a sort and a limit, evaluated in SQL by the store.
///
/// A request with no `kind` fetches Items: notes and collections together, as a fetch of an
/// abstract entity does in Core Data.
public struct ItemRequest: Sendable, Equatable {
    /// Which part of the hierarchy to look in.
    public enum Scope: Sendable, Equatable {
        /// Every item.
        case everywhere
        /// Items with no parent.
        case topLevel
        /// The direct contents of a collection.
        case children(of: UUID)
        /// The contents of a collection at any depth.
        case descendants(of: UUID)
        /// The direct contents of several collections; nil in the list stands for the top level.
        case contents(of: [UUID?])
    }

    /// Where the items start in the order of `sort`, for reading a long list a window at a
    /// time (keyset paging): each window starts where the last one ended, so that the
    /// rows before it are never read, as they are for `offset`. The item gives its values
    /// as they were when it was read; it need not match the request, nor be saved still.
    public enum Start: Sendable, Equatable {
        /// The items after this one.
        case after(Item)
        /// This item, when it matches, and the items after it.
        case at(Item)
    }

    /// Whether trashed items take part.
    public enum Trash: Sendable, Equatable {
        case excluded
        case only
        case included
    }

    public var kind: ItemKind?
    public var scope: Scope
    public var trash: Trash
    /// Keeps items whose name contains this text, ignoring case and diacritics.
    public var nameContains: String?
    /// Keeps items that carry every one of these tags.
    public var tags: [String]
    public var sort: ItemSort
    /// Keeps the items from this place on in the order of `sort`.
    public var start: Start?
    public var limit: Int?
    public var offset: Int
    /// When false, notes come without their body (`body` is nil), which keeps listings cheap.
    public var includesBodies: Bool

    public init(
        kind: ItemKind? = nil, scope: Scope = .everywhere, trash: Trash = .excluded,
        nameContains: String? = nil, tags: [String] = [], sort: ItemSort = .name, start: Start? = nil,
        limit: Int? = nil,
        offset: Int = 0, includesBodies: Bool = true
    ) {
        self.kind = kind
        self.scope = scope
        self.trash = trash
        self.nameContains = nameContains
        self.tags = tags
        self.sort = sort
        self.start = start
        self.limit = limit
        self.offset = offset
        self.includesBodies = includesBodies
    }
}

/// The order of fetched items. Ties are broken by id, so every order is total.
public struct ItemSort: Sendable, Equatable {
    public enum Key: String, Sendable, CaseIterable {
        case name, created, modified
    }

    public var key: Key
    public var ascending: Bool

    public init(_ key: Key, ascending: Bool = true) {
        self.key = key
        self.ascending = ascending
    }

    /// The same order, backwards: with a ``ItemRequest/Start``, the items before it, nearest
    /// first.
    public var reversed: ItemSort { ItemSort(key, ascending: !ascending) }

    public static let name = ItemSort(.name)
    public static let created = ItemSort(.created)
    public static let modified = ItemSort(.modified)
}
