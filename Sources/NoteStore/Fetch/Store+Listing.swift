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
        return Self.tree(all, under: collection, sort: sort)
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

    /// Orders items depth first: every collection followed by its contents.
    private static func tree(_ items: [Item], under root: UUID?, sort: ItemSort) -> [ListingEntry] {
        let present = Set(items.map(\.id))
        var children: [UUID?: [Item]] = [:]
        for item in items {
            // An item whose collection is not listed (trashed apart from it) starts a branch.
            let parent = item.parent.flatMap { present.contains($0) ? $0 : nil } ?? root
            children[parent, default: []].append(item)
        }
        var result: [ListingEntry] = []
        var visited: Set<UUID> = []
        func visit(_ parent: UUID?, depth: Int) {
            for item in (children[parent] ?? []).sorted(by: { sort.orders($0, before: $1) })
            where visited.insert(item.id).inserted {
                result.append(ListingEntry(item: item, depth: depth))
                visit(item.id, depth: depth + 1)
            }
        }
        visit(root, depth: 0)
        return result
    }
}
