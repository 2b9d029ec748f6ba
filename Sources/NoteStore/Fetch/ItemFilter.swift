import Foundation
import GRDB
import GRDBSQLite

/// Translates an ``ItemRequest`` to SQL, and evaluates it on items held in memory, so that a
/// fetch can include a context's unsaved changes.
enum ItemFilter {
    /// `fold(text)`: text folded for comparison, ignoring case and diacritics.
    static let foldFunction = DatabaseFunction("fold", argumentCount: 1, pure: true) { values in
        guard let text = String.fromDatabaseValue(values[0]) else { return nil }
        return fold(text)
    }

    /// Text folded for comparison: letters in lower case, accents left out. Plain ASCII
    /// (most names) is folded without Foundation, ten times quicker, to the same text.
    static func fold(_ text: String) -> String {
        if text.utf8.allSatisfy({ $0 < 0x80 }) {
            return String(decoding: text.utf8.map { $0 >= 0x41 && $0 <= 0x5A ? $0 + 0x20 : $0 }, as: UTF8.self)
        }
        return text.folding(options: [.caseInsensitive, .diacriticInsensitive], locale: nil)
    }

    /// The columns read for an item; the body last, and only when asked for.
    static func columns(includingBody: Bool) -> String {
        "item.id, item.kind, item.name, item.parent, item.created, item.modified, item.trashed, "
            + (includingBody ? "item.body" : "NULL AS body")
    }

    /// SQL for the request, its arguments in place.
    /// With `window`, the SQL reads the first `window` rows and leaves limit and offset to the
    /// caller; without it, the request's own limit and offset apply.
    static func sql(for request: ItemRequest, window: Int? = nil) -> SQL {
        var clauses: [SQL] = []
        var prefix: SQL = ""
        if let kind = request.kind {
            clauses.append("item.kind = \(kind.rawValue)")
        }
        switch request.scope {
        case .everywhere:
            break
        case .topLevel:
            clauses.append("item.parent IS NULL")
        case let .children(of: parent):
            clauses.append("item.parent = \(parent.storeString)")
        case let .descendants(of: root):
            prefix = """
                WITH RECURSIVE subtree(id) AS (
                    SELECT id FROM item WHERE parent = \(root.storeString)
                    UNION ALL SELECT item.id FROM item JOIN subtree ON item.parent = subtree.id)
                """
            clauses.append("item.id IN subtree")
        case let .contents(of: parents):
            let ids = parents.compactMap { $0?.storeString }
            var alternatives: [SQL] = ids.isEmpty ? [] : ["item.parent IN \(ids)"]
            if parents.contains(nil) { alternatives.append("item.parent IS NULL") }
            clauses.append(alternatives.isEmpty ? "0" : "(\(alternatives.joined(operator: .or)))")
        }
        switch request.trash {
        case .excluded: clauses.append("item.trashed IS NULL")
        case .only: clauses.append("item.trashed IS NOT NULL")
        case .included: break
        }
        if let text = request.nameContains {
            clauses.append("instr(fold(item.name), \(fold(text))) > 0")
        }
        for tag in request.tags {
            clauses.append(carries(tag))
        }
        if let start = request.start { clauses.append(startClause(start, sort: request.sort)) }
        var sql: SQL = "\(literal: prefix) SELECT \(sql: columns(includingBody: request.includesBodies)) FROM item"
        if !clauses.isEmpty { sql += " WHERE \(literal: clauses.joined(separator: " AND "))" }
        sql += " ORDER BY \(sql: orderBy(request.sort))"
        if let window {
            sql += " LIMIT \(window)"
        } else if let limit = request.limit {
            sql += " LIMIT \(limit) OFFSET \(request.offset)"
        } else if request.offset > 0 {
            sql += " LIMIT -1 OFFSET \(request.offset)"
        }
        return sql
    }

    /// The items from `start` on in the order of `sort` (the order is total: by the sort's
    /// value, then by id).
    static func startClause(_ start: ItemRequest.Start, sort: ItemSort) -> SQL {
        let (item, inclusive) =
            switch start {
            case let .after(item): (item, false)
            case let .at(item): (item, true)
            }
        let beyond = sort.ascending ? ">" : "<"
        let idBeyond = inclusive ? beyond + "=" : beyond
        let column: String
        let value: any DatabaseValueConvertible & Sendable
        switch sort.key {
        case .name: (column, value) = ("item.name COLLATE \(ItemSort.nameCollationName)", item.name)
        case .created: (column, value) = ("item.created", item.created.storeMilliseconds)
        case .modified: (column, value) = ("item.modified", item.modified.storeMilliseconds)
        }
        return """
            (\(sql: column) \(sql: beyond) \(value) \
            OR (\(sql: column) = \(value) AND item.id \(sql: idBeyond) \(item.id.storeString)))
            """
    }

    static func orderBy(_ sort: ItemSort) -> String {
        let direction = sort.ascending ? "ASC" : "DESC"
        switch sort.key {
        case .name: return "item.name COLLATE \(ItemSort.nameCollationName) \(direction), item.id \(direction)"
        case .created: return "item.created \(direction), item.id \(direction)"
        case .modified: return "item.modified \(direction), item.id \(direction)"
        }
    }

    /// Whether the item carries `tag` or a tag nested in it (`nested` matches `nested/child`):
    /// the names from `tag/` up to `tag0`, the character after `/`, through `tag_on_name`.
    static func carries(_ tag: String) -> SQL {
        """
        EXISTS (SELECT 1 FROM tag WHERE tag.item = item.id
            AND (tag.name = \(tag) OR (tag.name >= \(tag + "/") AND tag.name < \(tag + "0"))))
        """
    }

    /// Whether an item held in memory matches the parts of the request that need no ancestry
    /// and no tags.
    static func matchesLocally(_ item: Item, _ request: ItemRequest) -> Bool {
        if let kind = request.kind, item.kind != kind { return false }
        switch request.trash {
        case .excluded where item.isTrashed: return false
        case .only where !item.isTrashed: return false
        default: break
        }
        if let text = request.nameContains, !fold(item.name).contains(fold(text)) { return false }
        switch request.start {
        case let .after(start)?: if !request.sort.orders(start, before: item) { return false }
        case let .at(start)?: if request.sort.orders(item, before: start) { return false }
        case nil: break
        }
        switch request.scope {
        case .topLevel: return item.parent == nil
        case let .children(of: parent): return item.parent == parent
        case let .contents(of: parents): return parents.contains(item.parent)
        case .everywhere, .descendants: return true
        }
    }
}

extension ItemSort {
    /// The name of the collation that sorts names (``compareNames(_:_:)``) in SQL.
    static let nameCollationName = "itemName"

    /// Makes the collation ``nameCollationName`` available on a connection: case-insensitive,
    /// in the order people expect (``compareNames(_:_:)``). SQLite calls it with the UTF-8
    /// bytes of both names, which are compared as they are when both are plain ASCII
    /// (``compareASCIINames(_:_:)``): no string is made of them, which was most of the time
    /// of sorting a listing by name.
    static func registerNameCollation(_ db: Database) throws {
        let code = sqlite3_create_collation_v2(
            db.sqliteConnection, nameCollationName, SQLITE_UTF8, nil, nameCollationEntryPoint, nil)
        guard code == SQLITE_OK else {
            throw DatabaseError(
                resultCode: ResultCode(rawValue: code), message: "the collation \(nameCollationName) was refused")
        }
    }

    /// ``compareNames(_:_:)`` of two names given as UTF-8 bytes.
    static func compareNames(_ left: UnsafeBufferPointer<UInt8>, _ right: UnsafeBufferPointer<UInt8>)
        -> ComparisonResult
    {
        if let result = compareASCIINames(left, right) { return result }
        return compareNames(String(decoding: left, as: UTF8.self), String(decoding: right, as: UTF8.self))
    }

    static func compareNames(_ lhs: String, _ rhs: String) -> ComparisonResult {
        if let result = lhs.utf8.withContiguousStorageIfAvailable({ left in
            rhs.utf8.withContiguousStorageIfAvailable { right in compareASCIINames(left, right) } ?? nil
        }) ?? nil {
            return result
        }
        return lhs.compare(rhs, options: [.caseInsensitive, .diacriticInsensitive, .numeric])
    }

    /// The most digits (after leading zeros) of a number compared here: every such number fits
    /// in an `Int`.
    static let longestDigitRun = 18

    /// The order of Foundation's comparison above for two names of ASCII characters only, made
    /// without bridging them (most of the time of sorting many names): letters compared without
    /// case, runs of digits by their value (leading zeros aside), other characters by their
    /// code (after case folding), a name before the longer names it starts. Nil, for
    /// Foundation to answer, when either name has other characters (which may combine with
    /// the characters before them), control characters (`\r\n` is one character to it) or a
    /// run of more than ``longestDigitRun`` digits after its zeros (it reads a number only
    /// while it fits in an `Int`).
    static func compareASCIINames(_ left: UnsafeBufferPointer<UInt8>, _ right: UnsafeBufferPointer<UInt8>)
        -> ComparisonResult?
    {
        func isPlain(_ byte: UInt8) -> Bool { byte >= 0x20 && byte < 0x7F }
        guard left.allSatisfy(isPlain) && right.allSatisfy(isPlain) else { return nil }
        func lowered(_ byte: UInt8) -> UInt8 { byte >= 0x41 && byte <= 0x5A ? byte + 0x20 : byte }
        func isDigit(_ byte: UInt8) -> Bool { byte >= 0x30 && byte <= 0x39 }
        /// The end of the run of digits from `index`.
        func runEnd(_ text: UnsafeBufferPointer<UInt8>, from index: Int) -> Int {
            var end = index
            while end < text.count && isDigit(text[end]) { end += 1 }
            return end
        }
        /// The first index from `index` (in a run of digits, up to `end`) that is not a zero.
        func skipZeros(_ text: UnsafeBufferPointer<UInt8>, from index: Int, to end: Int) -> Int {
            var start = index
            while start < end && text[start] == 0x30 { start += 1 }
            return start
        }
        var i = 0
        var j = 0
        while i < left.count && j < right.count {
            let l = left[i]
            let r = right[j]
            if isDigit(l) && isDigit(r) {
                let leftEnd = runEnd(left, from: i)
                let rightEnd = runEnd(right, from: j)
                let leftStart = skipZeros(left, from: i, to: leftEnd)
                let rightStart = skipZeros(right, from: j, to: rightEnd)
                guard leftEnd - leftStart <= longestDigitRun && rightEnd - rightStart <= longestDigitRun else {
                    return nil
                }
                // More significant digits is a greater value; else the first digit that differs.
                if leftEnd - leftStart != rightEnd - rightStart {
                    return leftEnd - leftStart < rightEnd - rightStart ? .orderedAscending : .orderedDescending
                }
                for offset in 0..<(leftEnd - leftStart) where left[leftStart + offset] != right[rightStart + offset] {
                    return left[leftStart + offset] < right[rightStart + offset]
                        ? .orderedAscending : .orderedDescending
                }
                i = leftEnd
                j = rightEnd
                continue
            }
            let x = lowered(l)
            let y = lowered(r)
            if x != y { return x < y ? .orderedAscending : .orderedDescending }
            i += 1
            j += 1
        }
        if i < left.count { return .orderedDescending }
        if j < right.count { return .orderedAscending }
        return .orderedSame
    }

    /// Whether `lhs` comes before `rhs` in this order; the same order as the SQL.
    func orders(_ lhs: Item, before rhs: Item) -> Bool {
        let result: ComparisonResult
        switch key {
        case .name: result = Self.compareNames(lhs.name, rhs.name)
        case .created: result = compare(lhs.created, rhs.created)
        case .modified: result = compare(lhs.modified, rhs.modified)
        }
        let decided = result == .orderedSame ? compare(lhs.id.storeString, rhs.id.storeString) : result
        return ascending ? decided == .orderedAscending : decided == .orderedDescending
    }

    private func compare<T: Comparable>(_ a: T, _ b: T) -> ComparisonResult {
        a < b ? .orderedAscending : (a > b ? .orderedDescending : .orderedSame)
    }
}

/// The C entry point of the name collation: SQLite passes each name as a length and a pointer
/// to its UTF-8 bytes.
private let nameCollationEntryPoint:
    @convention(c) (UnsafeMutableRawPointer?, Int32, UnsafeRawPointer?, Int32, UnsafeRawPointer?) -> Int32 = {
        _, leftCount, left, rightCount, right in
        let leftBytes = UnsafeBufferPointer(start: left?.assumingMemoryBound(to: UInt8.self), count: Int(leftCount))
        let rightBytes = UnsafeBufferPointer(start: right?.assumingMemoryBound(to: UInt8.self), count: Int(rightCount))
        return Int32(ItemSort.compareNames(leftBytes, rightBytes).rawValue)
    }
