import Foundation
import GRDB
import NoteText

/// Writes and reads versions in the `history` table, text whole, as a line delta, or kept once
/// in the item.
///
/// A version's text is stored as a ``LineDelta`` against the version it was edited from when
/// that text is at hand and the delta is smaller, so that a one-line edit of a long note costs
/// about one line; every ``maximumDepth`` deltas the text is stored whole again, which bounds
/// the work of reading an old version.
///
/// The table keeps ids and stamps as bytes (``HistoryEncoding``) and three texts only once
/// (docs/sync-format.md, "History in the store"):
/// - a version saved here whose text would be stored whole and is the text its save gave the
///   item has no content (NULL): its text is the item's, until ``keepCurrentText(of:_:_:)``, which
///   every write that changes an item's name or body or removes the item calls first, writes it
///   into the version;
/// - a context that is its first base's (after at most ``maximumContextChain`` versions) is NULL,
///   and an empty text is "no context";
/// - `delta_of` is an empty blob when the delta is against the version's only base.
enum VersionStorage {
    /// The most deltas between a version and a whole text.
    static let maximumDepth = 50
    /// The most versions a context is looked up through: a version whose first base's context
    /// is further away keeps its own.
    static let maximumContextChain = 8

    typealias NewVersion = VersionDraft

    static let columns = "object, property, stamp, origin, bases, restored, context, head, size, from_merge"

    /// Writes a version unless one with its stamp is there; returns whether it wrote it. The
    /// new version is written as a head; the caller sets the heads.
    @discardableResult
    static func insert(_ version: NewVersion, _ db: Database) throws -> Bool {
        let object = HistoryEncoding.bytes(of: version.object)
        let property = HistoryEncoding.code(of: version.property)
        let bases = version.bases?.sorted()
        var deltaOf: Data?
        var depth = 0
        var content: Data? = Data(version.text.utf8)
        if let base = version.deltaBase, version.text.utf8.count > 64,
            let baseDepth = try version.deltaBaseDepth ?? Int.fetchOne(
                db.cachedStatement(sql: "SELECT depth FROM history WHERE object = ? AND property = ? AND stamp = ?"),
                arguments: [object, property, HistoryEncoding.bytes(of: base.stamp)]),
            baseDepth + 1 < maximumDepth
        {
            let delta = Data(LineDelta.make(from: base.text, to: version.text).encoded)
            if delta.count < version.text.utf8.count / 2 {
                content = delta
                deltaOf = bases == [base.stamp] ? Data() : HistoryEncoding.bytes(of: base.stamp)
                depth = baseDepth + 1
            }
        }
        if version.isCurrentText, deltaOf == nil { content = nil }
        try db.cachedStatement(
            sql: """
                INSERT OR IGNORE INTO history
                    (object, property, stamp, origin, bases, restored, context, head, size, delta_of, depth, content, from_merge)
                VALUES (?, ?, ?, ?, ?, ?, ?, 1, ?, ?, ?, ?, ?)
                """
        ).execute(arguments: [
            object, property, HistoryEncoding.bytes(of: version.stamp), HistoryEncoding.code(of: version.origin),
            bases.map(HistoryEncoding.bytes(of:)), version.restored.map(HistoryEncoding.bytes(of:)),
            try storedContext(
                version.contextJSON ?? version.context.map(ChangeHistory.contextJSON), object: object, property: property, bases: bases, db),
            version.text.utf8.count, deltaOf, depth, content, version.fromMerge,
        ])
        return db.changesCount > 0
    }

    /// The `context` column of a new version whose context is `json` (as the store writes it):
    /// NULL when it is that of the version's first base, an empty text when it has none but has
    /// bases (whose context it would otherwise take).
    static func storedContext(_ json: String?, object: Data, property: Int, bases: [ChangeStamp]?, _ db: Database) throws -> String? {
        guard let first = bases?.first else { return json }
        guard let json else { return "" }
        let lookup = try db.cachedStatement(sql: "SELECT context, bases FROM history WHERE object = ? AND property = ? AND stamp = ?")
        var next = first
        for _ in 1..<maximumContextChain {
            guard let row = try Row.fetchOne(lookup, arguments: [object, property, HistoryEncoding.bytes(of: next)]) else { break }
            if let stored = row[0] as String? {
                // Bytes, not `String` equality: names that differ only in Unicode normalization
                // are different names.
                return stored.utf8.elementsEqual(json.utf8) ? nil : json
            }
            guard let bases = row[1] as Data?, let base = HistoryEncoding.stamp(bases) else { break }
            next = base
        }
        return json
    }

    /// Writes the item's current name and body (or only `property`) into the versions that keep
    /// theirs in the item: called before a write changes them or removes the item.
    static func keepCurrentText(of object: UUID, _ property: HistoryProperty?, _ db: Database) throws {
        let properties = property.map { [$0] } ?? HistoryProperty.allCases
        for property in properties {
            try db.cachedStatement(
                sql: """
                    UPDATE history SET content = (SELECT CAST(\(property == .name ? "name" : "body") AS BLOB) FROM item WHERE id = ?)
                    WHERE object = ? AND property = ? AND content IS NULL
                    """
            ).execute(arguments: [object.storeString, HistoryEncoding.bytes(of: object), HistoryEncoding.code(of: property)])
        }
    }

    /// Keeps once, in the item, the text of every head stored whole that is its item's current
    /// text: for a copy of the store (a baseline) and an upgraded store.
    static func keepTextsOnce(_ db: Database) throws {
        let heads = try Row.fetchCursor(
            db, sql: "SELECT object, property, stamp, content FROM history WHERE head AND delta_of IS NULL AND content IS NOT NULL")
        let current = try db.makeStatement(sql: "SELECT name, body FROM item WHERE id = ?")
        let elide = try db.makeStatement(sql: "UPDATE history SET content = NULL WHERE object = ? AND property = ? AND stamp = ?")
        var found: [(Data, Int, Data)] = []
        while let row = try heads.next() {
            guard let object = HistoryEncoding.id(row[0]), let item = try Row.fetchOne(current, arguments: [object.storeString]) else {
                continue
            }
            let text: String? = (row[1] as Int) == 0 ? item[1] : item[0]
            if let text, Data(text.utf8) == (row[3] as Data) { found.append((row[0], row[1], row[2])) }
        }
        for (object, property, stamp) in found { try elide.execute(arguments: [object, property, stamp]) }
    }

    /// The stamps of the heads of a property of an object.
    static func heads(_ object: UUID, _ property: HistoryProperty, _ db: Database) throws -> [ChangeStamp] {
        try Data.fetchAll(
            db.cachedStatement(sql: "SELECT stamp FROM history WHERE object = ? AND property = ? AND head"),
            arguments: [HistoryEncoding.bytes(of: object), HistoryEncoding.code(of: property)]
        ).compactMap { HistoryEncoding.stamp($0) }.sorted()
    }

    /// Makes exactly `heads` the heads of a property of an object.
    ///
    /// One row per statement: cheaper on import than one statement that may change several
    /// rows, which SQLite runs in a statement savepoint.
    /// `current`: the heads as they are, when the caller read them already.
    static func setHeads(
        _ heads: Set<ChangeStamp>, _ object: UUID, _ property: HistoryProperty, current: [ChangeStamp]? = nil, _ db: Database
    ) throws {
        let current = Set(try current ?? self.heads(object, property, db))
        let mark = try db.cachedStatement(sql: "UPDATE history SET head = ? WHERE object = ? AND property = ? AND stamp = ?")
        let key = (HistoryEncoding.bytes(of: object), HistoryEncoding.code(of: property))
        for stamp in current.subtracting(heads) {
            try mark.execute(arguments: [false, key.0, key.1, HistoryEncoding.bytes(of: stamp)])
        }
        for stamp in heads.subtracting(current) {
            try mark.execute(arguments: [true, key.0, key.1, HistoryEncoding.bytes(of: stamp)])
        }
    }

    /// Every version of a property of an object, oldest stamp first.
    static func versions(_ object: UUID, _ property: HistoryProperty, _ db: Database) throws -> [Version] {
        decode(try Row.fetchAll(
            db.cachedStatement(sql: "SELECT \(columns) FROM history WHERE object = ? AND property = ? ORDER BY stamp"),
            arguments: [HistoryEncoding.bytes(of: object), HistoryEncoding.code(of: property)]))
    }

    /// Every version of an object's name and body, oldest stamp first.
    static func versions(_ object: UUID, _ db: Database) throws -> [Version] {
        decode(try Row.fetchAll(
            db.cachedStatement(sql: "SELECT \(columns) FROM history WHERE object = ? ORDER BY stamp, property"),
            arguments: [HistoryEncoding.bytes(of: object)]))
    }

    /// The versions of rows of ``columns``, in their order, each with its context: a NULL
    /// context is that of the version's first base, among the same rows.
    private static func decode(_ rows: [Row]) -> [Version] {
        struct Stored {
            var version: Version
            var context: String?
            var firstBase: ChangeStamp?
        }
        var stored: [Stored] = []
        var index: [HistoryProperty: [ChangeStamp: Int]] = [:]
        for row in rows {
            guard let object = (row[0] as Data?).flatMap(HistoryEncoding.id), let property = HistoryEncoding.property(row[1]),
                let stamp = (row[2] as Data?).flatMap({ HistoryEncoding.stamp($0) }), let origin = HistoryEncoding.origin(row[3])
            else { continue }
            let bases = (row[4] as Data?).flatMap(HistoryEncoding.stamps)
            let version = Version(
                object: object, property: property, stamp: stamp, origin: origin, bases: bases,
                restored: (row[5] as Data?).flatMap { HistoryEncoding.stamp($0) }, context: nil, isHead: row[7], size: row[8],
                fromMerge: row[9])
            index[property, default: [:]][stamp] = stored.count
            stored.append(Stored(version: version, context: row[6], firstBase: bases?.first))
        }
        var resolved: [Int: VersionContext?] = [:]
        func context(_ position: Int, _ steps: Int) -> VersionContext? {
            if let known = resolved[position] { return known }
            let entry = stored[position]
            var result: VersionContext?
            if let json = entry.context {
                result = json.isEmpty ? nil : ChangeHistory.context(json: json)
            } else if steps < maximumContextChain, let base = entry.firstBase, let found = index[entry.version.property]?[base] {
                result = context(found, steps + 1)
            }
            resolved[position] = result
            return result
        }
        return stored.indices.map { position in
            let version = stored[position].version
            return Version(
                object: version.object, property: version.property, stamp: version.stamp, origin: version.origin,
                bases: version.bases, restored: version.restored, context: context(position, 1), isHead: version.isHead,
                size: version.size, fromMerge: version.fromMerge)
        }
    }

    /// The text of a version, or nil when there is no such version.
    static func text(_ object: UUID, _ property: HistoryProperty, _ stamp: ChangeStamp, _ db: Database) throws -> String? {
        let key = (HistoryEncoding.bytes(of: object), HistoryEncoding.code(of: property))
        let damaged = StoreError.invalidOperation(item: object.storeString, reason: "a version of its \(property.rawValue) is damaged")
        var chain: [Data] = []
        var next: Data? = HistoryEncoding.bytes(of: stamp)
        while let current = next {
            guard chain.count <= maximumDepth + 1,
                let row = try Row.fetchOne(
                    db.cachedStatement(sql: "SELECT delta_of, content, bases FROM history WHERE object = ? AND property = ? AND stamp = ?"),
                    arguments: [key.0, key.1, current])
            else {
                if chain.isEmpty { return nil }
                throw damaged
            }
            guard let content = row[1] as Data? else {
                guard let text = try currentText(object, property, db) else { throw damaged }
                chain.append(Data(text.utf8))
                break
            }
            chain.append(content)
            next = row[0]
            if next?.isEmpty == true {
                guard let bases = row[2] as Data?, bases.count == HistoryEncoding.stampSize else { throw damaged }
                next = bases
            }
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
    /// The delta depth of `deltaBase`, when the caller read it already.
    public var deltaBaseDepth: Int?
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
