import Foundation
import GRDB

/// What a link reaches: a pure function of the store's items and their names' history, so that
/// every device that holds the same notes resolves every link alike (docs/links.md).
///
/// - A target with a `/` is a path from the top level (without `.md`), each name matched as
///   written, else case-insensitively; else, as Obsidian finds it, the note whose path ends
///   with it (by the rule for names among several); a path that starts with `..` is from the
///   linking note's collection. When none fits, its last name is resolved as a name.
/// - A name reaches the note of that name (case-insensitively) outside the trash; of several,
///   the one in the linking note's own collection, then the one with the shortest path, then
///   the smallest id. With none outside the trash, the same rule picks among the notes in it.
/// - A name that no note has, but that a note's `aliases` property gives, reaches that note,
///   by the same rule among several.
/// - A name that no note has now reaches the note that had it last: the one whose version
///   that replaced the name has the greatest stamp.
/// - Nothing else: the link resolves to nothing.
struct LinkResolver {
    let db: Database
    // Its statements are cached, with placeholders: they run for every link resolved, and
    // `orphans` and `check` resolve every link of the store.

    /// Where a link leads.
    enum Resolution: Equatable {
        case note(UUID)
        case nothing
    }

    /// Resolves the target of a link in the note `source`.
    func resolve(_ target: String, from source: UUID?) throws -> Resolution {
        let trimmed = target.trimmingCharacters(in: .whitespaces)
        let path = LinkIndex.withoutExtension(trimmed)
        let names = path.split(separator: "/", omittingEmptySubsequences: true).map(String.init)
        guard let last = names.last else { return .nothing }
        if names.first == "..", let found = try note(relativePath: names, from: source) { return .note(found) }
        if names.count > 1 || trimmed.hasPrefix("/") {
            if let found = try note(atPath: names) { return .note(found) }
            if names.count > 1, !names.contains(".."), let found = try note(endingWith: names, from: source) {
                return .note(found)
            }
        }
        return try resolve(name: LinkIndex.fold(last), from: source)
    }

    /// The note that a path relative to the source's collection (`../Other/Name`) names.
    private func note(relativePath names: [String], from source: UUID?) throws -> UUID? {
        guard let source else { return nil }
        var parent: String? = try String.fetchOne(
            db.cachedStatement(sql: "SELECT parent FROM item WHERE id = ?"), arguments: [source.storeString])
        var rest = names[...]
        while let first = rest.first, first == ".." || first == "." {
            if first == ".." {
                guard let current = parent else { return nil }
                parent = try String.fetchOne(
                    db.cachedStatement(sql: "SELECT parent FROM item WHERE id = ?"), arguments: [current])
            }
            rest = rest.dropFirst()
        }
        guard !rest.isEmpty, !rest.contains("..") else { return nil }
        return try note(atPath: Array(rest), under: parent)
    }

    /// Of the notes named as the last of `names`, those whose path ends with `names` (each
    /// matched folded), as Obsidian finds `[[Folder/Name]]` in a deeper folder; the best by
    /// the rule for names.
    private func note(endingWith names: [String], from source: UUID?) throws -> UUID? {
        let folded = names.map(LinkIndex.fold)
        let rows = try Row.fetchAll(
            db.cachedStatement(
                sql: """
                    SELECT item.id AS id, item.parent AS parent, item.trashed AS trashed
                    FROM link_name JOIN item ON item.id = link_name.item
                    WHERE link_name.key = ? AND link_name.until = ''
                    """),
            arguments: [folded[folded.count - 1]])
        var matching: [Row] = []
        for row in rows {
            var parent: String? = row["parent"]
            var fits = true
            for name in folded.dropLast().reversed() {
                guard let current = parent,
                    let folder = try Row.fetchOne(
                        db.cachedStatement(sql: "SELECT name, parent FROM item WHERE id = ?"), arguments: [current]),
                    LinkIndex.fold(folder["name"]) == name
                else {
                    fits = false
                    break
                }
                parent = folder["parent"]
            }
            if fits { matching.append(row) }
        }
        let live = matching.filter { ($0["trashed"] as Int64?) == nil }
        return try best(live.isEmpty ? matching : live, from: source)
    }

    /// The note whose path is `names` (each matched folded), preferring items outside the trash.
    private func note(atPath names: [String], under top: String? = nil) throws -> UUID? {
        var parents: [String?] = [top]
        for (index, name) in names.enumerated() {
            let folded = LinkIndex.fold(name)
            var next: [(id: String, trashed: Bool)] = []
            for parent in parents {
                // The name as written first, through `item_on_parent`; else every child, each
                // name folded.
                var rows = try Row.fetchAll(
                    db.cachedStatement(sql: "SELECT id, name, kind, trashed FROM item WHERE parent IS ? AND name = ?"),
                    arguments: [parent, name.trimmingCharacters(in: .whitespaces)])
                if rows.isEmpty {
                    rows = try Row.fetchAll(
                        db.cachedStatement(sql: "SELECT id, name, kind, trashed FROM item WHERE parent IS ?"),
                        arguments: [parent])
                }
                for row in rows where LinkIndex.fold(row["name"]) == folded {
                    let isLast = index == names.count - 1
                    guard (row["kind"] as String == "note") == isLast else { continue }
                    next.append((row["id"], (row["trashed"] as Int64?) != nil))
                }
            }
            guard !next.isEmpty else { return nil }
            let live = next.filter { !$0.trashed }
            parents = (live.isEmpty ? next : live).map(\.id).sorted()
        }
        return parents.first.flatMap { $0 }.flatMap(UUID.init(storeText:))
    }

    /// The note a folded name reaches.
    func resolve(name key: String, from source: UUID?) throws -> Resolution {
        let rows = try Row.fetchAll(
            db.cachedStatement(
                sql: """
                    SELECT link_name.item AS id, link_name.until AS until, \
                    item.parent AS parent, item.trashed AS trashed
                    FROM link_name JOIN item ON item.id = link_name.item
                    WHERE link_name.key = ?
                    """),
            arguments: [key])
        // Names now, then aliases, each preferring notes outside the trash.
        for mark in ["", LinkIndex.aliasMark] {
            let current = rows.filter { ($0["until"] as String) == mark }
            guard !current.isEmpty else { continue }
            let live = current.filter { ($0["trashed"] as Int64?) == nil }
            return try best(live.isEmpty ? current : live, from: source).map(Resolution.note) ?? .nothing
        }
        // The note that had the name last.
        let last = rows.filter { ($0["until"] as String) != LinkIndex.aliasMark }.max {
            ($0["until"] as String, $1["id"] as String) < ($1["until"] as String, $0["id"] as String)
        }
        return last.flatMap { UUID(storeText: $0["id"]) }.map(Resolution.note) ?? .nothing
    }

    /// Of several notes of one name: the one in the source's collection, then the one of the
    /// shortest path, then the smallest id.
    private func best(_ rows: [Row], from source: UUID?) throws -> UUID? {
        guard rows.count > 1 else { return rows.first.flatMap { UUID(storeText: $0["id"]) } }
        let home: String? = try source.flatMap {
            try String.fetchOne(
                db.cachedStatement(sql: "SELECT parent FROM item WHERE id = ?"), arguments: [$0.storeString])
        }
        let ranked = try rows.map { row -> (Int, Int, String) in
            let id: String = row["id"]
            let parent: String? = row["parent"]
            return (parent == home ? 0 : 1, try depth(of: id), id)
        }
        return ranked.min { $0 < $1 }.flatMap { UUID(storeText: $0.2) }
    }

    /// How many collections hold the item, at any depth.
    private func depth(of id: String) throws -> Int {
        var depth = 0
        var current: String? = try String.fetchOne(
            db.cachedStatement(sql: "SELECT parent FROM item WHERE id = ?"), arguments: [id])
        while let parent = current, depth < 1_000 {
            depth += 1
            current = try String.fetchOne(
                db.cachedStatement(sql: "SELECT parent FROM item WHERE id = ?"), arguments: [parent])
        }
        return depth
    }
}
