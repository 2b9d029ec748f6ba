import Foundation
import GRDB

extension StoreSchema {
    /// Version 6: history kept compact (docs/sync-format.md, "History in the store"). The
    /// `version` table becomes `history`: ids and stamps as bytes, property and origin as
    /// numbers (``HistoryEncoding``), no device name beside the context's, a context only where
    /// it is not its first base's, a delta against a version's only base marked by an empty
    /// `delta_of`, and the text of a head stored whole that is its item's current text kept
    /// once, in the item (``VersionStorage``). No `CHECK (x IN (...))`: SQLite builds a table for
    /// the list at every row it checks.
    static func compactHistory(_ db: Database) throws {
        try db.execute(
            sql: """
                CREATE TABLE history (
                    object BLOB NOT NULL,
                    property INTEGER NOT NULL CHECK (property BETWEEN 0 AND 1),
                    stamp BLOB NOT NULL,
                    origin INTEGER NOT NULL CHECK (origin BETWEEN 0 AND 2),
                    bases BLOB,
                    restored BLOB,
                    context TEXT,
                    head INTEGER NOT NULL,
                    size INTEGER NOT NULL,
                    delta_of BLOB,
                    depth INTEGER NOT NULL,
                    content BLOB,
                    from_merge INTEGER NOT NULL,
                    PRIMARY KEY (object, property, stamp)
                ) WITHOUT ROWID;
                CREATE INDEX history_head ON history(object, property) WHERE head;
                """)
        try copyVersions(db)
        try keepTextsOnce(db)
        try db.execute(
            sql: """
                DROP TABLE version;
                UPDATE metadata SET value = '6' WHERE key = 'model_version';
                """)
    }

    /// Copies the rows of `version` into `history`, object by object and property by property,
    /// oldest stamp first, so that a version's first base is there before it, and its context is
    /// kept as a new version's was in model 6 (``storedContext(_:object:property:bases:_:)``).
    /// A row that is not one of the store's (a value of another type, an id or a stamp it
    /// cannot read) was never shown, and is left out.
    private static func copyVersions(_ db: Database) throws {
        let rows = try Row.fetchCursor(
            db,
            sql: """
                SELECT object, property, stamp, origin, bases, restored, device_name, context, head, size, \
                delta_of, depth, content,
                    from_merge
                FROM version
                WHERE typeof(object) = 'text' AND typeof(property) = 'text' \
                AND typeof(stamp) = 'text' AND typeof(origin) = 'text'
                    AND typeof(bases) IN ('text', 'null') AND typeof(restored) IN ('text', 'null')
                    AND typeof(device_name) IN ('text', 'null') AND typeof(context) IN ('text', 'null') \
                AND typeof(head) = 'integer'
                    AND typeof(size) = 'integer' AND size >= 0 AND typeof(delta_of) IN ('text', 'null') \
                AND typeof(depth) = 'integer'
                    AND depth >= 0 AND typeof(content) IN ('blob', 'text') AND typeof(from_merge) = 'integer'
                ORDER BY object, property, stamp
                """)
        // Prepared once, with placeholders: it runs for every version.
        let insert = try db.makeStatement(
            sql: """
                INSERT OR IGNORE INTO history
                    (object, property, stamp, origin, bases, restored, context, head, size, \
                delta_of, depth, content, from_merge)
                VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
                """)
        while let row = try rows.next() {
            guard let object = UUID(storeText: row["object"]),
                let property = HistoryProperty(rawValue: row["property"]),
                let stamp = ChangeStamp(text: row["stamp"]), let origin = VersionOrigin(rawValue: row["origin"])
            else { continue }
            let deltaOf = (row["delta_of"] as String?).flatMap(ChangeStamp.init(text:))
            if row["delta_of"] as String? != nil, deltaOf == nil { continue }
            let bases = (row["bases"] as String?).map {
                $0.split(separator: " ").compactMap { ChangeStamp(text: String($0)) }.sorted()
            }
            var context = (row["context"] as String?).flatMap(ChangeHistory.context(json:))
            if let device = row["device_name"] as String?, context != nil, context?.device == nil {
                context?.device = device
            }
            // Its bases, with smaller stamps, are in `history` already: the rule of a new version.
            let stored = try storedContext(
                context.map(ChangeHistory.contextJSON), object: HistoryEncoding.bytes(of: object),
                property: HistoryEncoding.code(of: property), bases: bases, db)
            try insert.execute(arguments: [
                HistoryEncoding.bytes(of: object), HistoryEncoding.code(of: property), HistoryEncoding.bytes(of: stamp),
                HistoryEncoding.code(of: origin), bases.map(HistoryEncoding.bytes(of:)),
                (row["restored"] as String?).flatMap(ChangeStamp.init(text:)).map(HistoryEncoding.bytes(of:)), stored,
                row["head"] as Bool, row["size"] as Int,
                deltaOf.map { bases == [$0] ? Data() : HistoryEncoding.bytes(of: $0) },
                row["depth"] as Int, row["content"] as Data, row["from_merge"] as Bool,
            ])
        }
    }

    /// The `context` column of a version of model 6 whose context is `json`: NULL when it is
    /// that of the version's first base, looked up in `history` through at most
    /// ``VersionStorage/maximumContextChain`` versions; an empty text when it has none but has bases.
    private static func storedContext(
        _ json: String?, object: Data, property: Int, bases: [ChangeStamp]?, _ db: Database
    ) throws -> String? {
        guard let first = bases?.first else { return json }
        guard let json else { return "" }
        // A cached statement with placeholders: the migration runs it for every version it compacts.
        let lookup = try db.cachedStatement(
            sql: "SELECT context, bases FROM history WHERE object = ? AND property = ? AND stamp = ?")
        var next = first
        for _ in 1..<VersionStorage.maximumContextChain {
            guard let row = try Row.fetchOne(lookup, arguments: [object, property, HistoryEncoding.bytes(of: next)])
            else { break }
            if let stored = row["context"] as String? {
                return stored.utf8.elementsEqual(json.utf8) ? nil : json
            }
            guard let bases = row["bases"] as Data?, let base = HistoryEncoding.stamp(bases) else { break }
            next = base
        }
        return json
    }

    /// Keeps once, in the item, the text of every head of `history` stored whole that is its
    /// item's current text, as a store of model 6 does.
    private static func keepTextsOnce(_ db: Database) throws {
        let heads = try Row.fetchCursor(
            db,
            sql: """
                SELECT object, property, stamp, content FROM history \
                WHERE head AND delta_of IS NULL AND content IS NOT NULL
                """
        )
        // Prepared once, with placeholders: they run for every head.
        let current = try db.makeStatement(sql: "SELECT name, body FROM item WHERE id = ?")
        let elide = try db.makeStatement(
            sql: "UPDATE history SET content = NULL WHERE object = ? AND property = ? AND stamp = ?")
        var found: [(Data, Int, Data)] = []
        while let row = try heads.next() {
            guard let object = HistoryEncoding.id(row["object"]),
                let item = try Row.fetchOne(current, arguments: [object.storeString])
            else {
                continue
            }
            let property: Int = row["property"]
            let text: String? = item[property == 0 ? "body" : "name"]
            if let text, Data(text.utf8) == (row["content"] as Data) {
                found.append((row["object"], property, row["stamp"]))
            }
        }
        for (object, property, stamp) in found { try elide.execute(arguments: [object, property, stamp]) }
    }
}
