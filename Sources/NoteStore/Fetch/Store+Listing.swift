import Foundation
import GRDB

/// One line of a listing: an item and its depth below the listed collection.
public struct ListingEntry: Sendable, Equatable {
    public let item: Item
    public let depth: Int

    public init(item: Item, depth: Int) {
        self.item = item
        self.depth = depth
    }
}

extension Store {
    /// The contents of a collection (or of the top level, with nil), in `sort` order, and with
    /// `recursive`, the contents of every collection below it, each after its collection.
    ///
    /// With `trash`, lists what is in the trash instead: the items trashed on their own or
    /// together with a collection (not each thing inside a trashed collection, unless
    /// `recursive`).
    public func listing(
        of collection: UUID?, recursive: Bool = false, trash: Bool = false, sort: ItemSort = .name
    ) throws -> [ListingEntry] {
        let all: [Item] = try read { db in
            if trash && !recursive {
                return try Item.fetchAll(db, SQLRequest(literal: Self.trashRootsSQL(collection, sort: sort)))
            }
            let scope: ItemRequest.Scope
            switch (collection, recursive) {
            case (nil, false): scope = .topLevel
            case (nil, true): scope = .everywhere
            case let (id?, false): scope = .children(of: id)
            case let (id?, true): scope = .descendants(of: id)
            }
            let request = ItemRequest(scope: scope, trash: trash ? .only : .excluded, sort: sort, includesBodies: false)
            return try Item.fetchAll(db, SQLRequest(literal: ItemFilter.sql(for: request)))
        }
        guard recursive else { return all.map { ListingEntry(item: $0, depth: 0) } }
        return Self.tree(all)
    }

    private static func trashRootsSQL(_ collection: UUID?, sort: ItemSort) -> SQL {
        let place: SQL =
            collection.map { "item.parent = \($0.storeString)" }
            ?? "(container.id IS NULL OR container.trashed IS NULL)"
        return """
            SELECT \(sql: ItemFilter.columns(includingBody: false)) FROM item
            LEFT JOIN item AS container ON container.id = item.parent
            WHERE item.trashed IS NOT NULL
              AND \(literal: place)
            ORDER BY \(sql: ItemFilter.orderBy(sort))
            """
    }

    /// Orders items depth first: every collection followed by its contents, each item whose
    /// collection is not among them (the listed collection, or one trashed apart from it) at
    /// the top. The items come sorted, as the listing's SQL reads them
    /// (``ItemFilter/orderBy(_:)``), and the contents of each collection keep that order: the
    /// items are placed by their positions, and each id is hashed once.
    private static func tree(_ items: [Item]) -> [ListingEntry] {
        var position: [UUID: Int] = [:]
        position.reserveCapacity(items.count)
        for (index, item) in items.enumerated() { position[item.id] = index }
        // The contents of each listed item, by position, and those of the root.
        var children = [[Int]](repeating: [], count: items.count)
        var top: [Int] = []
        for (index, item) in items.enumerated() {
            if let parent = item.parent.flatMap({ position[$0] }) {
                children[parent].append(index)
            } else {
                top.append(index)
            }
        }
        var result: [ListingEntry] = []
        result.reserveCapacity(items.count)
        var visited = [Bool](repeating: false, count: items.count)
        func visit(_ indices: [Int], depth: Int) {
            for index in indices where !visited[index] {
                visited[index] = true
                result.append(ListingEntry(item: items[index], depth: depth))
                visit(children[index], depth: depth + 1)
            }
        }
        visit(top, depth: 0)
        return result
    }
}
