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

/// How a reference that names no item exactly is read.
public enum ReferenceMatching: Sendable {
    /// Ids, id prefixes and paths as written, and nothing else.
    case exact
    /// As written first; then a unique match of the whole path, or of the name alone,
    /// ignoring case and accents (``ReferenceMatcher``).
    case forgiving
}

/// An item a reference may have meant: offered when it names none or several.
public struct ReferenceCandidate: Sendable, Equatable, CustomStringConvertible {
    public let id: UUID
    public let path: String
    public let kind: ItemKind
    public let isTrashed: Bool

    public init(id: UUID, path: String, kind: ItemKind, isTrashed: Bool) {
        self.id = id
        self.path = path
        self.kind = kind
        self.isTrashed = isTrashed
    }

    /// The first 8 characters of its id and its path, as `ls` shows them.
    public var description: String { "\(id.storeString.prefix(8)) \(path)" }
}

extension Store {
    /// The shortest id prefix accepted in a reference.
    public static let minimumIDPrefix = 4

    /// `text` without the spaces around it, as `trimmingCharacters(in: .whitespaces)` leaves
    /// it, without building Foundation's character set (a tenth of a millisecond, in a command
    /// that resolves one reference).
    static func withoutSpacesAround(_ text: String) -> String {
        func isSpace(_ scalar: Unicode.Scalar) -> Bool {
            // Foundation's set: the space separators, the tab and the zero-width space.
            scalar == "\t" || scalar == "\u{200B}" || scalar.properties.generalCategory == .spaceSeparator
        }
        let scalars = text.unicodeScalars
        guard let first = scalars.firstIndex(where: { !isSpace($0) }) else { return "" }
        let last = scalars.lastIndex(where: { !isSpace($0) })!
        return String(scalars[first...last])
    }

    /// Finds the item that a reference names: a full id, a unique id prefix of at least four
    /// characters, or a path of names such as `Work/Ideas/Launch plan`.
    ///
    /// Ids and prefixes name an item wherever it is; paths only look in `scope`. With
    /// `.forgiving`, a reference that names no item as written names the one item whose path,
    /// or else whose name, it is when case and accents are ignored. A reference that names
    /// several items is refused with a list of them, and one that names none with the items
    /// closest to it (``ReferenceMatcher/closest(to:limit:)``).
    public func resolve(
        _ reference: String, scope: ReferenceScope = .live, matching: ReferenceMatching = .exact
    ) throws -> Item {
        let text = Self.withoutSpacesAround(reference)
        guard !text.isEmpty else { throw StoreError.unknownReference(reference, scope: scope, candidates: []) }
        if let id = UUID(storeText: text) {
            guard let item = try read({ try Item.fetchOne($0, id: id) }) else {
                throw StoreError.unknownReference(reference, scope: scope, candidates: [])
            }
            return item
        }
        let matches: [Item] = try read { db in
            var found = try Self.itemsWithIDPrefix(text, db)
            for item in try Self.itemsAtPath(text, scope: scope, db) where !found.contains(where: { $0.id == item.id })
            {
                found.append(item)
            }
            return found
        }
        switch matches.count {
        case 0:
            return try resolveLoosely(text, written: reference, scope: scope, matching: matching)
        case 1:
            return try item(matches[0].id)
        default:
            let index = try collectionIndex()
            throw StoreError.ambiguousReference(reference, candidates: matches.map { $0.candidate(index) })
        }
    }

    /// A reference that names nothing as written: the one item it names ignoring case and
    /// accents (when `matching` is forgiving), else an error with the closest items.
    private func resolveLoosely(
        _ text: String, written reference: String, scope: ReferenceScope, matching: ReferenceMatching
    ) throws -> Item {
        if matching == .forgiving {
            let (found, candidates) = try read { db in
                let matcher = try ReferenceMatcher(db, scope: scope)
                let found = try matcher.matches(text)
                return (found, found.map(matcher.candidate))
            }
            if found.count == 1 { return try item(found[0].id) }
            if found.count > 1 { throw StoreError.ambiguousReference(reference, candidates: candidates) }
        }
        // Then the items a search for its words finds (a failed search only offers less).
        let searched = (try? searchedCandidates(text, scope: scope)) ?? []
        let candidates = try read { db in
            let matcher = try ReferenceMatcher(db, scope: scope)
            var closest = try matcher.closest(to: text, limit: ReferenceMatcher.candidateLimit)
            for id in searched
            where closest.count < ReferenceMatcher.candidateLimit && !closest.contains(where: { $0.id == id }) {
                if let item = try matcher.item(id) { closest.append(item) }
            }
            return closest.map(matcher.candidate)
        }
        throw StoreError.unknownReference(reference, scope: scope, candidates: candidates)
    }

    /// The items a search for each word of `text` as a prefix finds, best first.
    private func searchedCandidates(_ text: String, scope: ReferenceScope) throws -> [UUID] {
        let words = ItemFilter.fold(text).split { !$0.isLetter && !$0.isNumber }.map { $0 + "*" }
        guard !words.isEmpty else { return [] }
        let trash = scope == .trashed ? " is:trashed" : ""
        return try search(words.joined(separator: " ") + trash, limit: ReferenceMatcher.candidateLimit).map(\.item.id)
    }

    private static func itemsWithIDPrefix(_ text: String, _ db: Database) throws -> [Item] {
        let prefix = text.lowercased()
        guard prefix.count >= minimumIDPrefix, prefix.count < 36,
            prefix.allSatisfy({ $0.isHexDigit || $0 == "-" })
        else { return [] }
        return try SQLRequest<Item>(
            literal: """
                SELECT \(sql: ItemFilter.columns(includingBody: false)) FROM item
                WHERE id >= \(prefix) AND id < \(prefix + "~") LIMIT 20
                """
        ).fetchAll(db)
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
                let request = SQLRequest<Item>(
                    literal: """
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

extension Item {
    /// The item as a candidate of a reference, its path from `index`.
    func candidate(_ index: CollectionIndex) -> ReferenceCandidate {
        ReferenceCandidate(id: id, path: index.path(of: self), kind: kind, isTrashed: isTrashed)
    }
}
