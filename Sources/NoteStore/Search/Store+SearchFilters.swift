import Foundation
import GRDB

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

    /// The expression `query` reads as; nil when it has nothing to look for. A query that does
    /// not read throws ``StoreError/invalidQuery(_:)``.
    static func searchExpression(_ query: String) throws -> SearchExpression? {
        do {
            return try SearchQuery.read(query)
        } catch {
            throw StoreError.invalidQuery(error.description)
        }
    }

    /// The SQL condition of each filter of `expression`, by filter. A filter whose reference
    /// names no item, or not one of the kind it takes, throws ``StoreError/invalidQuery(_:)``.
    func filterConditions(of expression: SearchExpression, now: Date = Date()) throws -> [SearchFilter: SQL] {
        var conditions: [SearchFilter: SQL] = [:]
        for (filter, column) in expression.filters where conditions[filter] == nil {
            conditions[filter] = try condition(filter, column: column, now: now)
        }
        return conditions
    }

    /// The SQL condition of one filter.
    private func condition(_ filter: SearchFilter, column: Int, now: Date) throws -> SQL {
        switch filter {
        case let .tag(tag):
            return ItemFilter.carries(tag)
        case let .within(reference):
            let collection = try filterTarget(reference, key: "in", column: column) {
                try resolve($0, scope: .any, matching: .forgiving)
            }
            guard collection.isCollection else {
                throw StoreError.invalidQuery(
                    SearchQuery.Problem(
                        column: column, reason: "'in:' takes a collection, and '\(reference)' is a note"
                    ).description)
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
                try (try? resolve(reference, scope: .any)) ?? resolveLink(reference).flatMap {
                    try? item($0, includingBody: false)
                }
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
        case let .property(key, value):
            // The key's value is its latest dot's (docs/sync-format.md, 13.2).
            let latest: SQL = """
                property.key = \(key) AND property.stamp = (
                    SELECT MAX(latest.stamp) FROM property AS latest \
                WHERE latest.item = property.item AND latest.key = property.key)
                """
            guard let value else { return "item.id IN (SELECT property.item FROM property WHERE \(latest))" }
            let folded = ItemFilter.fold(value)
            // A number matches numbers only, and a text texts only: `prop:rating=0` is no text.
            let number = Double(value).map { $0.isFinite ? $0 : nil } ?? nil
            let asNumber: SQL =
                number.map { "json_type(property.value) IN ('integer', 'real') AND property.value ->> '$' = \($0)" }
                ?? "0"
            let elementNumber: SQL =
                number.map { "element.type IN ('integer', 'real') AND element.value = \($0)" } ?? "0"
            return """
                item.id IN (SELECT property.item FROM property WHERE \(latest) AND (
                    (json_type(property.value) = 'text' AND fold(property.value ->> '$') = \(folded))
                    OR (\(asNumber))
                    OR (json_type(property.value) IN ('true', 'false') \
                AND json_type(property.value) = \(value.lowercased()))
                    OR (json_type(property.value) = 'array' AND EXISTS (
                        SELECT 1 FROM json_each(property.value) AS element
                        WHERE (element.type = 'text' AND fold(element.value) = \(folded)) OR (\(elementNumber))))))
                """
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
    private func filterTarget(_ reference: String, key: String, column: Int, _ find: (String) throws -> Item) throws
        -> Item
    {
        do {
            return try find(reference)
        } catch let error as StoreError {
            let reason: String
            switch error {
            case .unknownReference: reason = "'\(key):' names no item '\(reference)'"
            case let .ambiguousReference(_, candidates):
                reason = "'\(key):\(reference)' names \(candidates.count) items"
            default: throw error
            }
            throw StoreError.invalidQuery(SearchQuery.Problem(column: column, reason: reason).description)
        }
    }
}
