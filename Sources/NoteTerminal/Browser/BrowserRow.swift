import Foundation
import NoteStore

/// One row of a pane of the browser: a section heading or an item.
public struct BrowserRow: Equatable, Sendable {
    /// What stays the same for the row from one load to the next: the item's id, or the
    /// section's title; the selection and the diff follow it.
    public let key: String
    /// The text shown, from the store, not yet escaped.
    public let text: String
    /// Indentation steps (collections nest).
    public let depth: Int
    /// The item of the row; nil for a section heading, which cannot be selected.
    public let item: Item?
    /// What the row stands for in the collections pane.
    public let place: BrowserPlace?

    public var isSelectable: Bool { item != nil || place != nil }

    static func section(_ title: String) -> BrowserRow {
        BrowserRow(key: "section:" + title, text: title, depth: 0, item: nil, place: nil)
    }
}

/// What the collections pane lists: every note, one collection (with what it holds, at any
/// depth), or the trash.
public enum BrowserPlace: Hashable, Sendable {
    case everything
    case collection(UUID)
    case trash
}

/// How the rows of a pane changed from one load to the next, by key, as a fetched results
/// controller reports it: which rows came, which went, and which moved among the others.
public struct RowChanges: Equatable, Sendable {
    public var inserted: [Int] = []
    public var removed: [Int] = []
    public var moved: [(from: Int, to: Int)] = []

    public var isEmpty: Bool { inserted.isEmpty && removed.isEmpty && moved.isEmpty }

    public static func == (lhs: RowChanges, rhs: RowChanges) -> Bool {
        lhs.inserted == rhs.inserted && lhs.removed == rhs.removed
            && lhs.moved.map(\.from) == rhs.moved.map(\.from) && lhs.moved.map(\.to) == rhs.moved.map(\.to)
    }

    /// The changes from `old` to `new`: indexes in `old` for removed rows, in `new` for
    /// inserted ones; a row moved when its place among the rows both have changed.
    public init(from old: [String], to new: [String]) {
        let newIndex = Dictionary(new.enumerated().map { ($1, $0) }, uniquingKeysWith: { first, _ in first })
        let oldIndex = Dictionary(old.enumerated().map { ($1, $0) }, uniquingKeysWith: { first, _ in first })
        removed = old.indices.filter { newIndex[old[$0]] == nil }
        inserted = new.indices.filter { oldIndex[new[$0]] == nil }
        let keptOld = old.filter { newIndex[$0] != nil }
        let keptNew = new.filter { oldIndex[$0] != nil }
        for (position, key) in keptNew.enumerated() where keptOld[position] != key {
            moved.append((from: oldIndex[key]!, to: newIndex[key]!))
        }
    }

    public init() {}
}
