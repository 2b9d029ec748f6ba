import Foundation
import GRDB
import NoteText

/// Writes and reads versions in the `history_line` table: the versions of each property of each
/// object in one row (``HistoryLine``), each text whole, as a line delta, or kept once in the
/// item.
///
/// A version's text is stored as a ``LineDelta`` against the version it was edited from when
/// that text is at hand and the delta is smaller, so that a one-line edit of a long note costs
/// about one line; every ``maximumDepth`` deltas the text is stored whole again, which bounds
/// the work of reading an old version.
///
/// Three texts are kept only once (docs/sync-format.md, "History in the store"):
/// - a version saved here whose text would be stored whole and is the text its save gave the
///   item has no content: its text is the item's, until ``keepCurrentText(of:_:_:)``, which
///   every write that changes an item's name or body or removes the item calls first, writes it
///   into the version;
/// - a context that is its first base's (after at most ``maximumContextChain`` versions) is not
///   kept, and an empty text is "no context";
/// - a delta against the version's only base names no version.
///
/// A content of ``apartBytes`` or more is kept apart, in a row of `history_text` of its own
/// (docs/sync-format.md, "History in the store"): the line, which every save of the property
/// reads and writes whole, stays small however long the texts it versions. A baseline holds
/// every content in its line (``inlineApartTexts(_:)``).
enum VersionStorage {
    /// The most deltas between a version and a whole text.
    static let maximumDepth = 50
    /// The most versions a context is looked up through: a version whose first base's context
    /// is further away keeps its own.
    static let maximumContextChain = 8
    /// The size from which a version's content is kept apart from its line.
    static let apartBytes = 64 * 1024

    typealias NewVersion = VersionDraft

    /// The versions of a property of an object; empty when there are none. Throws when the
    /// line cannot be read.
    static func line(_ object: UUID, _ property: HistoryProperty, _ db: Database) throws -> HistoryLine {
        // Cached statements with placeholders, here and below in this file:
        // every save and import runs each for each name or body it changes.
        guard
            let blob = try Data.fetchOne(
                db.cachedStatement(sql: "SELECT line FROM history_line WHERE object = ? AND property = ?"),
                arguments: [HistoryEncoding.bytes(of: object), HistoryEncoding.code(of: property)])
        else { return HistoryLine(object: object, property: property) }
        guard let line = HistoryLine(object: object, property: property, decoding: blob, inStore: true) else {
            throw damagedLine(object, property)
        }
        return line
    }

    /// The lines of a property of several objects, by object; objects without one are left
    /// out. One range of the index on objects, from the least of their ids to the greatest (in
    /// the order of their 16 bytes): for objects whose ids are near one another, as a page of
    /// the items read in the order of their ids. Only the lines of `objects` are decoded; one
    /// of them that cannot be read throws, as in ``line(_:_:_:)``.
    static func lines(_ property: HistoryProperty, of objects: [UUID], _ db: Database) throws -> [UUID: HistoryLine] {
        guard let lower = objects.min(by: { $0.precedesInStoreOrder($1) }),
            let upper = objects.max(by: { $0.precedesInStoreOrder($1) })
        else { return [:] }
        let wanted = Set(objects)
        let rows = try Row.fetchCursor(
            db.cachedStatement(
                sql: "SELECT object, line FROM history_line WHERE object BETWEEN ? AND ? AND property = ?"),
            arguments: [
                HistoryEncoding.bytes(of: lower), HistoryEncoding.bytes(of: upper), HistoryEncoding.code(of: property),
            ])
        var lines: [UUID: HistoryLine] = [:]
        while let row = try rows.next() {
            guard let object = Data.fromDatabaseValue(row["object"]).flatMap(HistoryEncoding.id),
                wanted.contains(object)
            else { continue }
            guard let blob = Data.fromDatabaseValue(row["line"]),
                let line = HistoryLine(object: object, property: property, decoding: blob, inStore: true)
            else { throw damagedLine(object, property) }
            lines[object] = line
        }
        return lines
    }

    /// Writes a line in place of the one of its property; removes it when it has no versions.
    /// A content of ``apartBytes`` or more goes apart, unless `keepingContentsInLine` (a
    /// baseline's copy, which has no `history_text`).
    static func write(_ line: HistoryLine, keepingContentsInLine: Bool = false, _ db: Database) throws {
        let key: [DatabaseValueConvertible] = [
            HistoryEncoding.bytes(of: line.object), HistoryEncoding.code(of: line.property),
        ]
        guard let oldest = line.entries.first?.stamp else {
            try db.cachedStatement(sql: "DELETE FROM history_line WHERE object = ? AND property = ?").execute(
                arguments: StatementArguments(key))
            if !keepingContentsInLine {
                try db.cachedStatement(sql: "DELETE FROM history_text WHERE object = ? AND property = ?").execute(
                    arguments: StatementArguments(key))
            }
            return
        }
        var line = line
        if !keepingContentsInLine { try keepLongContentsApart(&line, key, db) }
        try db.cachedStatement(
            sql: """
                INSERT INTO history_line (object, property, versions, oldest, line) VALUES (?, ?, ?, ?, ?)
                ON CONFLICT (object, property) \
                DO UPDATE SET versions = excluded.versions, oldest = excluded.oldest, line = excluded.line
                """
        ).execute(
            arguments: StatementArguments(
                key + [line.entries.count, HistoryEncoding.bytes(of: oldest), line.encoded()]))
    }

    /// Writes a version unless one with its stamp is there; returns whether it wrote it. The
    /// new version is written as a head; the caller sets the heads, or, with `onlyHead`, it is
    /// made the only head in the same write (a save's new version, even when it is there
    /// already), or, with `onlyHeadIfNew`, only when it is written (an edit of every head that
    /// arrives).
    @discardableResult
    static func insert(_ version: NewVersion, onlyHead: Bool = false, onlyHeadIfNew: Bool = false, _ db: Database)
        throws -> Bool
    {
        var line = try line(version.object, version.property, db)
        guard line.index(of: version.stamp) == nil else {
            if onlyHead { try setHeads([version.stamp], version.object, version.property, db) }
            return false
        }
        if onlyHead || onlyHeadIfNew { line.updateAll { $0.isHead = false } }
        let bases = version.bases?.sorted()
        var deltaOf: ChangeStamp?
        var depth = 0
        var content: Data?
        if let base = version.deltaBase?.stamp ?? version.knownDelta?.base, version.text.utf8.count > 64,
            let baseDepth = version.deltaBaseDepth ?? line.entry(base)?.depth, baseDepth + 1 < maximumDepth,
            let delta = version.knownDelta.flatMap({ $0.base == base ? Data($0.lines) : nil })
                ?? version.deltaBase.map({ Data(LineDelta.make(from: $0.text, to: version.text).encoded) })
        {
            if delta.count < version.text.utf8.count / 2 {
                content = delta
                deltaOf = base
                depth = baseDepth + 1
            }
        }
        // Made only when stored whole: a delta is the usual case, and the text may be 10 MB.
        if deltaOf == nil, !version.isCurrentText { content = Data(version.text.utf8) }
        line.insert(entry(of: version, bases: bases, in: line, deltaOf: deltaOf, depth: depth, content: content))
        try write(line, db)
        return true
    }

    /// Moves each content of ``apartBytes`` or more of `line` into `history_text`, and removes
    /// from there the contents of versions that no longer keep theirs apart.
    private static func keepLongContentsApart(
        _ line: inout HistoryLine, _ key: [DatabaseValueConvertible], _ db: Database
    ) throws {
        var stillApart: Set<ChangeStamp> = []
        var moving: [(ChangeStamp, Data)] = []
        line.updateAll { entry in
            if let content = entry.content, content.count >= apartBytes {
                moving.append((entry.stamp, content))
                entry.content = nil
                entry.isApart = true
            } else if entry.isApart {
                stillApart.insert(entry.stamp)
            }
        }
        for stamp in line.apartWhenRead where !stillApart.contains(stamp) {
            try db.cachedStatement(sql: "DELETE FROM history_text WHERE object = ? AND property = ? AND stamp = ?")
                .execute(arguments: StatementArguments(key + [HistoryEncoding.bytes(of: stamp)]))
        }
        for (stamp, content) in moving { try keepApart(content, line.object, line.property, stamp, db) }
        line.apartWhenRead = stillApart.union(moving.map(\.0))
    }

    /// Writes the content of a version into `history_text`, in place of one there.
    private static func keepApart(
        _ content: Data, _ object: UUID, _ property: HistoryProperty, _ stamp: ChangeStamp, _ db: Database
    ) throws {
        try db.cachedStatement(
            sql: "INSERT OR REPLACE INTO history_text (object, property, stamp, content) VALUES (?, ?, ?, ?)"
        ).execute(arguments: [
            HistoryEncoding.bytes(of: object), HistoryEncoding.code(of: property), HistoryEncoding.bytes(of: stamp),
            content,
        ])
    }

    /// The error of a line that cannot be read.
    private static func damagedLine(_ object: UUID, _ property: HistoryProperty) -> StoreError {
        StoreError.invalidOperation(
            item: object.storeString, reason: "the history of its \(property.rawValue) is damaged")
    }

    /// The error of a version whose text cannot be made.
    private static func damagedVersion(_ object: UUID, _ property: HistoryProperty) -> StoreError {
        StoreError.invalidOperation(
            item: object.storeString, reason: "a version of its \(property.rawValue) is damaged")
    }

    /// The content of a version that keeps it apart; nil when it is missing.
    static func apartContent(_ object: UUID, _ property: HistoryProperty, _ stamp: ChangeStamp, _ db: Database)
        throws -> Data?
    {
        try Data.fetchOne(
            db.cachedStatement(sql: "SELECT content FROM history_text WHERE object = ? AND property = ? AND stamp = ?"),
            arguments: [
                HistoryEncoding.bytes(of: object), HistoryEncoding.code(of: property), HistoryEncoding.bytes(of: stamp),
            ])
    }

    /// Whether `history_text` holds exactly the contents that lines keep apart.
    static func apartTextsMatchLines(_ db: Database) throws -> Bool {
        var named: Set<Data> = []
        let lines = try Row.fetchCursor(db, sql: "SELECT object, property, line FROM history_line")
        while let row = try lines.next() {
            guard let object = (row["object"] as Data?).flatMap(HistoryEncoding.id),
                let property = HistoryEncoding.property(row["property"]),
                let line = HistoryLine(object: object, property: property, decoding: row["line"], inStore: true)
            else { return false }
            for stamp in line.apartWhenRead {
                named.insert(
                    HistoryEncoding.bytes(of: object) + [UInt8(HistoryEncoding.code(of: property))]
                        + HistoryEncoding.bytes(of: stamp))
            }
        }
        var held = 0
        let texts = try Row.fetchCursor(db, sql: "SELECT object, property, stamp FROM history_text")
        while let row = try texts.next() {
            guard let object = row["object"] as Data?, let property = row["property"] as Int?,
                let stamp = row["stamp"] as Data?, (0...255).contains(property),
                named.contains(object + [UInt8(property)] + stamp)
            else { return false }
            held += 1
        }
        return held == named.count
    }

    /// Puts every content kept apart back into its line, and drops `history_text`: for a copy
    /// of the store (a baseline), whose lines every build reads.
    static func inlineApartTexts(_ db: Database) throws {
        guard try db.tableExists("history_text") else { return }
        let keys = try Row.fetchAll(db, sql: "SELECT DISTINCT object, property FROM history_text")
        for row in keys {
            guard let object = (row["object"] as Data?).flatMap(HistoryEncoding.id),
                let property = HistoryEncoding.property(row["property"])
            else { continue }
            var line = try line(object, property, db)
            for stamp in line.apartWhenRead {
                guard let content = try apartContent(object, property, stamp, db) else {
                    throw damagedVersion(object, property)
                }
                line.update(stamp) { entry in
                    entry.content = content
                    entry.isApart = false
                }
            }
            try write(line, keepingContentsInLine: true, db)
        }
        try db.execute(
            sql: """
                DROP TABLE history_text;
                DELETE FROM grdb_migrations WHERE identifier = '\(StoreSchema.historyTextsMigration)';
                """)
    }

    /// Writes `version` as the only one of its line when the line has none; returns whether
    /// it did (false: the line has versions, and nothing was written). What an item's first
    /// save writes, without reading a line that is not there.
    static func start(_ version: NewVersion, _ db: Database) throws -> Bool {
        var line = HistoryLine(object: version.object, property: version.property)
        let bases = version.bases?.sorted()
        var content = version.isCurrentText ? nil : Data(version.text.utf8)
        let apart = content.flatMap { $0.count >= apartBytes ? $0 : nil }
        if apart != nil { content = nil }
        var first = entry(of: version, bases: bases, in: line, deltaOf: nil, depth: 0, content: content)
        first.isApart = apart != nil
        line.insert(first)
        try db.cachedStatement(
            sql: """
                INSERT INTO history_line (object, property, versions, oldest, line) VALUES (?, ?, ?, ?, ?)
                ON CONFLICT (object, property) DO NOTHING
                """
        ).execute(arguments: [
            HistoryEncoding.bytes(of: version.object), HistoryEncoding.code(of: version.property), 1,
            HistoryEncoding.bytes(of: version.stamp), line.encoded(),
        ])
        guard db.changesCount > 0 else { return false }
        if let apart { try keepApart(apart, version.object, version.property, version.stamp, db) }
        return true
    }

    /// The entry that keeps `version` in `line`, as the line's head.
    private static func entry(
        of version: NewVersion, bases: [ChangeStamp]?, in line: HistoryLine, deltaOf: ChangeStamp?, depth: Int,
        content: Data?
    ) -> HistoryLine.Entry {
        HistoryLine.Entry(
            stamp: version.stamp, origin: version.origin, bases: bases, restored: version.restored,
            context: storedContext(
                version.contextJSON ?? version.context.map(ChangeHistory.contextJSON), bases: bases, in: line),
            isHead: true, size: version.text.utf8.count, deltaOf: deltaOf, depth: depth, content: content,
            fromMerge: version.fromMerge)
    }

    /// The context to keep of a new version whose context is `json` (as the store writes it):
    /// nil when it is that of the version's first base, an empty text when it has none but has
    /// bases (whose context it would otherwise take).
    static func storedContext(_ json: String?, bases: [ChangeStamp]?, in line: HistoryLine) -> String? {
        guard let first = bases?.first else { return json }
        guard let json else { return "" }
        var next = first
        for _ in 1..<maximumContextChain {
            guard let entry = line.entry(next) else { break }
            if let stored = entry.context {
                // Bytes, not `String` equality: names that differ only in Unicode normalization
                // are different names.
                return stored.utf8.elementsEqual(json.utf8) ? nil : json
            }
            guard let base = entry.bases?.first else { break }
            next = base
        }
        return json
    }

    /// Writes the item's current name and body (or only `property`) into the versions that keep
    /// theirs in the item: called before a write changes them or removes the item. `current`:
    /// the text of `property` now, when the item's row does not hold it yet.
    static func keepCurrentText(
        of object: UUID, _ property: HistoryProperty?, current: String? = nil, _ db: Database
    ) throws {
        let properties = property.map { [$0] } ?? HistoryProperty.allCases
        for property in properties {
            var line = try line(object, property, db)
            guard line.entries.contains(where: \.keepsItemText) else { continue }
            let text = try (current ?? currentText(object, property, db)).map { Data($0.utf8) }
            line.updateAll { entry in
                if entry.keepsItemText { entry.content = text }
            }
            try write(line, db)
        }
    }

    /// Keeps once, in the item, the text of every head stored whole that is its item's current
    /// text: for a copy of the store (a baseline), after ``inlineApartTexts(_:)``.
    static func keepTextsOnce(_ db: Database) throws {
        let lines = try Row.fetchCursor(db, sql: "SELECT object, property, line FROM history_line")
        // Prepared once, with a placeholder: it runs for every line.
        let current = try db.makeStatement(sql: "SELECT name, body FROM item WHERE id = ?")
        var changed: [HistoryLine] = []
        while let row = try lines.next() {
            guard let object = (row["object"] as Data?).flatMap(HistoryEncoding.id),
                let property = HistoryEncoding.property(row["property"]),
                var line = HistoryLine(object: object, property: property, decoding: row["line"], inStore: true)
            else { continue }
            // A content still kept apart has no row in `history_text` (``inlineApartTexts(_:)``
            // put back every one it has): a copy with it is no baseline.
            guard line.apartWhenRead.isEmpty else { throw damagedVersion(object, property) }
            guard line.entries.contains(where: { $0.isHead && $0.deltaOf == nil && $0.content != nil }),
                let item = try Row.fetchOne(current, arguments: [object.storeString]),
                let text = item[property == .body ? "body" : "name"] as String?
            else { continue }
            let bytes = Data(text.utf8)
            var elided = false
            line.updateAll { entry in
                if entry.isHead, entry.deltaOf == nil, entry.content == bytes {
                    entry.content = nil
                    elided = true
                }
            }
            if elided { changed.append(line) }
        }
        for line in changed { try write(line, keepingContentsInLine: true, db) }
    }

    /// The stamps of the heads of a property of an object.
    static func heads(_ object: UUID, _ property: HistoryProperty, _ db: Database) throws -> [ChangeStamp] {
        try line(object, property, db).heads
    }

    /// Makes exactly `heads` the heads of a property of an object. `current`: the heads as
    /// they are, when the caller read them already (unused: the line is read whole).
    static func setHeads(
        _ heads: Set<ChangeStamp>, _ object: UUID, _ property: HistoryProperty, current: [ChangeStamp]? = nil,
        _ db: Database
    ) throws {
        var line = try line(object, property, db)
        var changed = false
        line.updateAll { entry in
            let isHead = heads.contains(entry.stamp)
            if entry.isHead != isHead {
                entry.isHead = isHead
                changed = true
            }
        }
        if changed { try write(line, db) }
    }

    /// Every version of a property of an object, oldest stamp first.
    static func versions(_ object: UUID, _ property: HistoryProperty, _ db: Database) throws -> [Version] {
        versions(of: try line(object, property, db))
    }

    /// Every version of an object's name and body, oldest stamp first (a body's before a
    /// name's of the same stamp).
    static func versions(_ object: UUID, _ db: Database) throws -> [Version] {
        (try HistoryProperty.allCases.flatMap { versions(of: try line(object, $0, db)) }).sorted {
            $0.stamp != $1.stamp
                ? $0.stamp < $1.stamp : HistoryEncoding.code(of: $0.property) < HistoryEncoding.code(of: $1.property)
        }
    }

    /// The versions of a line, in its order, each with its context: a context not kept is that
    /// of the version's first base.
    static func versions(of line: HistoryLine) -> [Version] {
        var resolved: [Int: VersionContext?] = [:]
        func context(_ position: Int, _ steps: Int) -> VersionContext? {
            if let known = resolved[position] { return known }
            let entry = line.entries[position]
            var result: VersionContext?
            if let json = entry.context {
                result = json.isEmpty ? nil : ChangeHistory.context(json: json)
            } else if steps < maximumContextChain, let base = entry.bases?.first, let found = line.index(of: base) {
                result = context(found, steps + 1)
            }
            resolved[position] = result
            return result
        }
        return line.entries.indices.map { position in
            let entry = line.entries[position]
            return Version(
                object: line.object, property: line.property, stamp: entry.stamp, origin: entry.origin,
                bases: entry.bases,
                restored: entry.restored, context: context(position, 1), isHead: entry.isHead, size: entry.size,
                fromMerge: entry.fromMerge)
        }
    }

    /// The text of a version, or nil when there is no such version. `itemText`: the item's
    /// text of `property` now, when its row does not hold it yet.
    static func text(
        _ object: UUID, _ property: HistoryProperty, _ stamp: ChangeStamp, itemText: String? = nil, _ db: Database
    ) throws -> String? {
        try text(stamp, in: try line(object, property, db), itemText: itemText, db)
    }

    /// The text of a version of `line`, or nil when it has no such version. `itemText` as in
    /// ``text(_:_:_:itemText:_:)``.
    static func text(_ stamp: ChangeStamp, in line: HistoryLine, itemText: String? = nil, _ db: Database) throws
        -> String?
    {
        let damaged = damagedVersion(line.object, line.property)
        var chain: [Data] = []
        var next: ChangeStamp? = stamp
        while let current = next {
            guard chain.count <= maximumDepth + 1, let entry = line.entry(current) else {
                if chain.isEmpty { return nil }
                throw damaged
            }
            if entry.isApart {
                guard let content = try apartContent(line.object, line.property, current, db) else { throw damaged }
                chain.append(content)
                next = entry.deltaOf
                continue
            }
            guard let content = entry.content else {
                guard let text = try itemText ?? currentText(line.object, line.property, db) else { throw damaged }
                chain.append(Data(text.utf8))
                break
            }
            chain.append(content)
            next = entry.deltaOf
        }
        var text = String(decoding: chain.removeLast(), as: UTF8.self)
        while let delta = chain.popLast() {
            do {
                text = try LineDelta(decoding: [UInt8](delta)).apply(to: text)
            } catch {
                throw damaged
            }
        }
        return text
    }

    /// The item's current name or body, which a version without content has.
    private static func currentText(_ object: UUID, _ property: HistoryProperty, _ db: Database) throws -> String? {
        try String.fetchOne(
            db.cachedStatement(sql: "SELECT \(property == .name ? "name" : "body") FROM item WHERE id = ?"),
            arguments: [object.storeString])
    }
}

/// A version to write, and the text it may be stored against.
public struct VersionDraft: Sendable {
    public var object: UUID
    public var property: HistoryProperty
    public var stamp: ChangeStamp
    public var origin: VersionOrigin
    public var bases: [ChangeStamp]?
    public var restored: ChangeStamp?
    public var context: VersionContext?
    public var text: String
    /// A version whose text is known, to store this one as a delta against.
    public var deltaBase: (stamp: ChangeStamp, text: String)?
    /// The delta depth of the version it is stored against (`deltaBase`, else `knownDelta`'s
    /// base), when the caller read it already.
    public var deltaBaseDepth: Int?
    /// The encoded ``LineDelta`` from the text of the version `base` to `text`, when the
    /// caller has it (a log carried it, checked): stored as it is when `base` is
    /// `deltaBase`'s stamp, or when there is no `deltaBase`, rather than made again from the
    /// two texts.
    public var knownDelta: (base: ChangeStamp, lines: [UInt8])?
    /// See ``Version/fromMerge``.
    public var fromMerge = false
    /// `context` as the store writes it, when the caller made it already (a save writes the
    /// same context with a name and a body).
    var contextJSON: String?
    /// Whether `text` is the text the save gives the item's property: then, when it would be
    /// stored whole, it is kept once, in the item (``VersionStorage``). Only for a text that no
    /// later write of the same transaction changes without ``VersionStorage/keepCurrentText(of:_:_:)``.
    public var isCurrentText = false

    public init(
        object: UUID, property: HistoryProperty, stamp: ChangeStamp, origin: VersionOrigin = .edit,
        bases: [ChangeStamp]?, restored: ChangeStamp? = nil, context: VersionContext? = nil,
        text: String, deltaBase: (stamp: ChangeStamp, text: String)? = nil
    ) {
        self.object = object
        self.property = property
        self.stamp = stamp
        self.origin = origin
        self.bases = bases
        self.restored = restored
        self.context = context
        self.text = text
        self.deltaBase = deltaBase
    }
}
