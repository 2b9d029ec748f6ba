import Foundation
import GRDB
import NoteFiles
import NoteText

/// Reads a reference that names no item as written, the way a person half remembers one: its
/// whole path or its name alone, ignoring case and accents (`glossary` for
/// `Getting started/Glossary`, `cafe` for `Café`); and, when it names none or several, the items
/// closest to it.
///
/// Both read the names of every item from the index `item_on_parent` rather than the rows,
/// which hold the bodies: the matches with SQLite's `NOCASE` (ASCII case folding), and the names
/// with other characters, which Foundation folds; the closest items in Swift.
struct ReferenceMatcher {
    /// The most candidates offered for a reference that names nothing.
    static let candidateLimit = 5

    let db: Database
    let scope: ReferenceScope
    let index: CollectionIndex

    init(_ db: Database, scope: ReferenceScope) throws {
        self.db = db
        self.scope = scope
        index = try CollectionIndex(db)
    }

    /// The names an item is found by, as written, before its aliases: its name. A note's
    /// aliases are read from the link index (``LinkIndex``), after every name.
    static func names(name: String) -> [String] {
        [name]
    }

    /// The items `reference` names ignoring case and accents: those whose whole path it is;
    /// else, for a reference of one name, those of that name; else the notes whose `aliases`
    /// give it. In the scope `.any`, the items
    /// outside the trash when there are some.
    func matches(_ reference: String) throws -> [Item] {
        let written = ItemPath.components(of: reference)
        guard let lastName = written.last else { return [] }
        let names = written.map { ItemFilter.fold(ItemPath.escape($0)) }
        let last = ItemFilter.fold(lastName)
        let path = names.joined(separator: "/")
        // Names equal to `last` but for ASCII case, and every name with other characters (more
        // bytes than characters), which only Foundation folds.
        let rows = try Row.fetchAll(
            db,
            SQLRequest(
                literal: """
                    SELECT rowid, name, parent FROM item
                    WHERE name = \(last) COLLATE NOCASE OR length(CAST(name AS BLOB)) != length(name)
                    """))
        var found: [(rowid: Int64, top: Bool)] = []
        for row in rows {
            let name: String = row["name"]
            guard Self.names(name: name).contains(where: { ItemFilter.fold($0) == last }) else { continue }
            let parent = (row["parent"] as String?).flatMap(UUID.init(storeText:))
            if names.count > 1, ItemFilter.fold(index.path(name: name, parent: parent)) != path { continue }
            found.append((row["rowid"], parent == nil))
        }
        // A top-level item's path is its name: the whole path matches first.
        if names.count == 1, found.contains(where: \.top) { found = found.filter(\.top) }
        // Then the notes whose `aliases` give the name, from the link index.
        if found.isEmpty, names.count == 1 {
            found = try Int64.fetchAll(
                db,
                SQLRequest(
                    literal: """
                        SELECT item.rowid FROM link_name JOIN item ON item.id = link_name.item
                        WHERE link_name.key = \(LinkIndex.fold(lastName)) AND link_name.until = \(LinkIndex.aliasMark)
                        """)
            ).map { ($0, false) }
            found += try aliasedBeyondLinkBuild(lastName).map { ($0, false) }
        }
        let items = try self.items(found.map(\.rowid))
        guard scope == .any else { return items }
        let live = items.filter { !$0.isTrashed }
        return live.isEmpty ? items : live
    }

    /// While the link index is built a part at a time (``LinkIndex/build(notes:_:)``): the
    /// rowids of the notes it has not reached whose aliases give `name`, read from their
    /// property. Their rows in `link_name`, which saves write, may be there too: found once.
    private func aliasedBeyondLinkBuild(_ name: String) throws -> [Int64] {
        guard let through = try LinkIndex.builtThrough(db) else { return [] }
        let key = LinkIndex.fold(name)
        let ids = try String.fetchAll(
            db,
            SQLRequest(
                literal: "SELECT DISTINCT item FROM property WHERE key = \(Property.aliases) AND item > \(through)")
        ).compactMap(UUID.init(storeText:))
        let aliased = try PropertyTable.values(of: Property.aliases, items: ids, db).filter { _, value in
            value.strings.contains { LinkIndex.fold($0) == key }
        }
        guard !aliased.isEmpty else { return [] }
        return try Int64.fetchAll(
            db,
            SQLRequest(
                literal: """
                    SELECT rowid FROM item WHERE kind = 'note' AND id IN (SELECT value FROM json_each(\(IDList.json(Array(aliased.keys)))))
                    AND id NOT IN (SELECT item FROM link_name WHERE key = \(key) AND until = \(LinkIndex.aliasMark))
                    """))
    }

    /// At most `limit` items closest to `reference`, closest first: those whose path ends with
    /// it, then those whose path or name is a few edits from it (a typo, a letter left out),
    /// then those whose name holds it.
    func closest(to reference: String, limit: Int) throws -> [Item] {
        let names = ItemPath.components(of: reference).map { ItemFilter.fold(ItemPath.escape($0)) }
        guard let last = names.last else { return [] }
        let path = names.joined(separator: "/")
        let allowed = max(1, min(3, last.count / 3))
        let holdsEnough = last.count >= 3
        let lastBytes = Array(last.utf8)
        var scored: [(score: Int, path: String, rowid: Int64)] = []
        let rows = try Row.fetchCursor(db, sql: "SELECT rowid, name, parent FROM item")
        while let row = try rows.next() {
            let name: String = row["name"]
            var score: Int?
            for other in Self.names(name: name).map({ ItemFilter.fold(ItemPath.escape($0)) }) {
                if let distance = EditDistance.between(last, other, limit: allowed) {
                    score = min(score ?? .max, distance + 1)
                } else if holdsEnough, ByteSearch.firstRange(of: lastBytes, in: other[...]) != nil {
                    // The bytes of one in the other's: Foundation's search was a fifth of the
                    // time of a reference not found.
                    score = min(score ?? .max, allowed + 2)
                }
            }
            guard score != nil || names.count > 1 else { continue }
            let itemPath = ItemFilter.fold(
                index.path(name: name, parent: (row["parent"] as String?).flatMap(UUID.init(storeText:))))
            if names.count > 1 {
                if itemPath.hasSuffix("/" + path) {
                    score = 0
                } else if let distance = EditDistance.between(path, itemPath, limit: allowed + 1) {
                    score = min(score ?? .max, distance)
                }
            }
            if let score { scored.append((score, itemPath, row["rowid"])) }
        }
        scored.sort { ($0.score, $0.path.count, $0.path) < ($1.score, $1.path.count, $1.path) }
        // The closest of the scope: the items of the others are read, and left out, too.
        var closest: [Item] = []
        for chunk in stride(from: 0, to: scored.count, by: 50) where closest.count < limit {
            let rowids = scored[chunk..<min(chunk + 50, scored.count)].map(\.rowid)
            let byRowid = Dictionary(
                uniqueKeysWithValues: zip(rowids, try items(rowids, keepingOrder: true)).map { ($0, $1) })
            closest += rowids.compactMap { byRowid[$0] }.filter(inScope)
        }
        return Array(closest.prefix(limit))
    }

    /// The item of this id, when the scope holds it.
    func item(_ id: UUID) throws -> Item? {
        try Item.fetchOne(
            db,
            SQLRequest<Item>(
                literal:
                    "SELECT \(sql: ItemFilter.columns(includingBody: false)) FROM item WHERE id = \(id.storeString)")
        )
        .flatMap { inScope($0) ? $0 : nil }
    }

    func candidate(_ item: Item) -> ReferenceCandidate {
        item.candidate(index)
    }

    private func inScope(_ item: Item) -> Bool {
        switch scope {
        case .live: return !item.isTrashed
        case .trashed: return item.isTrashed
        case .any: return true
        }
    }

    /// The items of these rowids in the scope (all of them, with `keepingOrder`, in order).
    private func items(_ rowids: [Int64], keepingOrder: Bool = false) throws -> [Item] {
        guard !rowids.isEmpty else { return [] }
        let rows = try Row.fetchAll(
            db,
            SQLRequest(
                literal: """
                    SELECT item.rowid AS itemRowid, \(sql: ItemFilter.columns(includingBody: false)) \
                    FROM item WHERE item.rowid IN \(rowids)
                    """))
        var byRowid: [Int64: Item] = [:]
        for row in rows { byRowid[row["itemRowid"]] = try Item(row: row) }
        let ordered = rowids.compactMap { byRowid[$0] }
        return keepingOrder ? ordered : ordered.filter(inScope)
    }
}
