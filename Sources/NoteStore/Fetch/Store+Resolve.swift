import Foundation
import GRDB

/// Which items a reference may name.
public enum ReferenceScope: Sendable {
    /// Items not in the trash.
    case live
    /// Items in the trash.
    case trashed
    /// Any item; where a path matches both, the ones not in the trash win.
    case any
}

extension Store {
    /// The shortest id prefix accepted in a reference.
    public static let minimumIDPrefix = 4

    /// Finds the item that a reference names: a full id, a unique id prefix of at least four
    /// characters, or a path of names such as `Work/Ideas/Launch plan`.
    ///
    /// Ids and prefixes name an item wherever it is; paths only look in `scope`. A reference
    /// that names several items is refused with a list of them.
    public func resolve(_ reference: String, scope: ReferenceScope = .live) throws -> Item {
        let text = reference.trimmingCharacters(in: .whitespaces)
        guard !text.isEmpty else { throw StoreError.unknownReference(reference, scope: scope) }
        if let id = UUID(storeText: text) {
            guard let item = try read({ try Item.fetchOne($0, id: id) }) else {
                throw StoreError.unknownReference(reference, scope: scope)
            }
            return item
        }
        let matches: [Item] = try read { db in
            var found = try Self.itemsWithIDPrefix(text, db)
            for item in try Self.itemsAtPath(text, scope: scope, db) where !found.contains(where: { $0.id == item.id }) {
                found.append(item)
            }
            return found
        }
        switch matches.count {
        case 0:
            throw StoreError.unknownReference(reference, scope: scope)
        case 1:
            return try item(matches[0].id)
        default:
            let index = try collectionIndex()
            let candidates = matches.map { "\($0.id.storeString.prefix(8)) \(index.path(of: $0))" }
            throw StoreError.ambiguousReference(reference, candidates: candidates)
        }
    }

    private static func itemsWithIDPrefix(_ text: String, _ db: Database) throws -> [Item] {
        let prefix = text.lowercased()
        guard prefix.count >= minimumIDPrefix, prefix.count < 36,
            prefix.allSatisfy({ $0.isHexDigit || $0 == "-" })
        else { return [] }
        return try SQLRequest<Item>(literal: """
            SELECT \(sql: ItemFilter.columns(includingBody: false)) FROM item
            WHERE id >= \(prefix) AND id < \(prefix + "~") LIMIT 20
            """).fetchAll(db)
    }

    private static func itemsAtPath(_ path: String, scope: ReferenceScope, _ db: Database) throws -> [Item] {
        let names = ItemPath.components(of: path)
        guard !names.isEmpty else { return [] }
        var level: [Item?] = [nil]
        for (depth, name) in names.enumerated() {
            let isLast = depth == names.count - 1
            var next: [Item?] = []
            for parent in level {
                let place: SQL = parent.map { "parent = \($0.id.storeString)" } ?? "parent IS NULL"
                let request = SQLRequest<Item>(literal: """
                    SELECT \(sql: ItemFilter.columns(includingBody: false)) FROM item
                    WHERE \(literal: place) AND name = \(name)
                    """)
                for item in try request.fetchAll(db) where isLast || item.isCollection {
                    next.append(item)
                }
            }
            level = next
            if level.isEmpty { return [] }
        }
        let found = level.compactMap { $0 }
        switch scope {
        case .live: return found.filter { !$0.isTrashed }
        case .trashed: return found.filter(\.isTrashed)
        case .any:
            let live = found.filter { !$0.isTrashed }
            return live.isEmpty ? found : live
        }
    }
}
