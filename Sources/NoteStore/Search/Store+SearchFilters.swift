import Foundation
import GRDB

/// A query made ready to run: what to match in the word index, and the SQL conditions of its
/// filters (and of the words that cannot be matched with the others, such as `tag:a OR word`).
struct SearchPlan {
    /// The FTS5 query that ranks the results; nil when the query has no word to rank by.
    var match: String?
    /// Conditions on `item`, each to join with `AND`.
    var conditions: [SQL]
}

extension Store {
    /// Whether `query` has a word or a filter to look for; true too when it does not read
    /// (``search(_:limit:markers:)`` says why).
    public static func queryHasTerms(_ query: String) -> Bool {
        do {
            return try SearchQuery.read(query) != nil
        } catch {
            return true
        }
    }

    /// The plan of `query`; nil when it has nothing to look for. A query that does not read,
    /// or whose filter names no item, throws ``StoreError/invalidQuery(_:)``.
    func searchPlan(_ query: String, now: Date = Date()) throws -> SearchPlan? {
        let node: SearchQuery.Node?
        do {
            node = try SearchQuery.read(query)
        } catch {
            throw StoreError.invalidQuery(error.description)
        }
        guard let node else { return nil }
        var plan = SearchPlan(match: nil, conditions: node.namesTrash ? [] : ["item.trashed IS NULL"])
        if let match = node.fts {
            plan.match = match
            return plan
        }
        // The words of the whole query that FTS5 can rank by; the rest become conditions.
        guard case let .all(wanted, unwanted) = node else {
            plan.conditions.append(try condition(node, now: now))
            return plan
        }
        let words = wanted.compactMap(\.operand)
        let otherWanted = wanted.filter { $0.fts == nil }
        if !words.isEmpty {
            plan.match = SearchQuery.Node.fts(words, excluding: unwanted.compactMap(\.operand))
        }
        for part in otherWanted { plan.conditions.append(try condition(part, now: now)) }
        for part in unwanted where words.isEmpty || part.fts == nil {
            plan.conditions.append("NOT (\(try condition(part, now: now)))")
        }
        return plan
    }

    /// The SQL condition that keeps the items matching `node`.
    private func condition(_ node: SearchQuery.Node, now: Date) throws -> SQL {
        if let match = node.fts {
            return "item.rowid IN (SELECT rowid FROM item_fts WHERE item_fts MATCH \(match))"
        }
        switch node {
        case .text:
            preconditionFailure("a word is matched by FTS5")
        case let .filter(filter, column):
            return try condition(filter, column: column, now: now)
        case let .either(parts):
            return "(\(try parts.map { try condition($0, now: now) }.joined(operator: .or)))"
        case let .all(wanted, unwanted):
            let all = try wanted.map { try condition($0, now: now) } + unwanted.map { "NOT (\(try condition($0, now: now)))" }
            return "(\(all.joined(operator: .and)))"
        }
    }

    /// The SQL condition of one filter.
    private func condition(_ filter: SearchFilter, column: Int, now: Date) throws -> SQL {
        switch filter {
        case let .tag(tag):
            return ItemFilter.carries(tag)
        case let .within(reference):
            let collection = try filterTarget(reference, key: "in", column: column) { try resolve($0, scope: .any, matching: .forgiving) }
            guard collection.isCollection else {
                throw StoreError.invalidQuery(SearchQuery.Problem(column: column, reason: "'in:' takes a collection, and '\(reference)' is a note").description)
            }
            return """
                item.id IN (WITH RECURSIVE subtree(id) AS (
                    SELECT id FROM item WHERE parent = \(collection.id.storeString)
                    UNION ALL SELECT item.id FROM item JOIN subtree ON item.parent = subtree.id)
                SELECT id FROM subtree)
                """
        case let .name(text):
            return "instr(fold(item.name), \(ItemFilter.fold(text))) > 0"
        case let .links(reference):
            let target = try filterTarget(reference, key: "links", column: column) { reference in
                try (try? resolve(reference, scope: .any)) ?? resolveLink(reference).flatMap { try? item($0, includingBody: false) }
                    ?? resolve(reference, scope: .any)
            }
            let sources = Set(try backlinks(of: target.id).map(\.source)).map { "\"\($0.storeString)\"" }.sorted()
            return "item.id IN (SELECT value FROM json_each(\("[" + sources.joined(separator: ",") + "]")))"
        case let .has(kind):
            // An SVG or another image kept as a file is an image too.
            let files: SQL = kind == .image ? " AND file_attachment.media_type LIKE 'image/%'" : ""
            return """
                (EXISTS (SELECT 1 FROM attachment WHERE attachment.note = item.id)
                    OR EXISTS (SELECT 1 FROM file_attachment WHERE file_attachment.note = item.id\(files)))
                """
        case .trashed:
            return "item.trashed IS NOT NULL"
        case .conflict:
            return "item.id IN (SELECT copy FROM conflict WHERE copy IS NOT NULL)"
        case let .date(property, bound):
            let column: SQL = property == .created ? "item.created" : "item.modified"
            let (from, before) = bound.range(now: now)
            var clauses: [SQL] = []
            if let from { clauses.append("\(column) >= \(from.storeMilliseconds)") }
            if let before { clauses.append("\(column) < \(before.storeMilliseconds)") }
            return "(\(clauses.joined(operator: .and)))"
        }
    }

    /// The item a filter's reference names, or an error of the query that says where.
    private func filterTarget(_ reference: String, key: String, column: Int, _ find: (String) throws -> Item) throws -> Item {
        do {
            return try find(reference)
        } catch let error as StoreError {
            let reason: String
            switch error {
            case .unknownReference: reason = "'\(key):' names no item '\(reference)'"
            case let .ambiguousReference(_, candidates): reason = "'\(key):\(reference)' names \(candidates.count) items"
            default: throw error
            }
            throw StoreError.invalidQuery(SearchQuery.Problem(column: column, reason: reason).description)
        }
    }

    /// The notes that meet a plan of filters only, most recently modified first, each with the
    /// start of its body as snippet.
    func searchFiltered(_ plan: SearchPlan, limit: Int) throws -> [SearchResult] {
        let columns = ItemFilter.columns(includingBody: false).replacingOccurrences(of: "NULL AS body", with: "substr(item.body, 1, 200) AS body")
        let conditions: [SQL] = ["item.kind = 'note'"] + plan.conditions
        let request: SQL = """
            SELECT \(sql: columns) FROM item WHERE \(conditions.joined(operator: .and))
            ORDER BY \(sql: ItemFilter.orderBy(ItemSort(.modified, ascending: false))) LIMIT \(limit)
            """
        return try read { db in
            try Item.fetchAll(db, SQLRequest(literal: request)).map { item in
                let start = (item.body ?? "").split(whereSeparator: \.isNewline).joined(separator: " ")
                var listed = item
                listed.body = nil
                return SearchResult(item: listed, snippet: String(start.prefix(120)), rank: 0)
            }
        }
    }
}
