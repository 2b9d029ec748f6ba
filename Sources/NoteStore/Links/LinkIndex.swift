import Foundation
import GRDB
import GRDBSQLite
import NoteMarkdown

/// Keeps the link index (`link`, `link_name`) in step with the items, in the transaction that
/// changes them (docs/links.md).
///
/// A note's links are those of its body as written: wiki links `[[Name]]`, `[[Path/Name]]`,
/// `[[Name#Heading|text]]`, embeds of notes `![[Name]]`, and Markdown links to `.md` files,
/// never inside code (``MarkdownScanner``). They are kept as written, not resolved: what a link
/// reaches depends on the names of every note, and is found when asked (``LinkResolver``).
/// The names a link can resolve by are kept per note, folded: its name now, and each name it
/// had before, with the stamp of the version that replaced it.
enum LinkIndex {
    /// One link of a body, as the index keeps it.
    struct Link: Equatable, Sendable {
        var position: Int
        var line: Int
        var kind: NoteLink.Kind
        var target: String
        var fragment: String?
        var display: String?
    }

    /// The links of a body that the index keeps.
    static func links(of body: String) -> [Link] {
        links(of: body, references: MarkdownScanner.references(in: body))
    }

    /// The links of a body that the index keeps, from the references found in it.
    static func links(of body: String, references: [MarkdownReference]) -> [Link] {
        guard !references.isEmpty else { return [] }
        var rows: [Link] = []
        var line = 1
        var counted = 0
        let bytes = Array(body.utf8)
        for reference in references {
            guard let target = noteTarget(of: reference) else { continue }
            while counted < reference.range.lowerBound, counted < bytes.count {
                if bytes[counted] == 0x0A { line += 1 }
                counted += 1
            }
            rows.append(
                Link(
                    position: reference.range.lowerBound, line: line,
                    kind: reference.kind == .wikiEmbed ? .embed : reference.kind == .link ? .markdown : .wiki,
                    target: target,
                    fragment: reference.fragment,
                    display: reference.display ?? (reference.kind == .link ? reference.text : nil)))
        }
        return rows
    }

    /// What a reference names when it names a note: the target of a wiki link, of an embed
    /// without an extension or with `.md`, or of a Markdown link to a local `.md` file; nil for
    /// files, the web and links within the note (`[[#Heading]]`).
    static func noteTarget(of reference: MarkdownReference) -> String? {
        let target = reference.target
        guard !target.isEmpty, !reference.isExternal else { return nil }
        switch reference.kind {
        case .wikiLink:
            return target
        case .wikiEmbed:
            let name = (target as NSString).lastPathComponent
            guard let dot = name.lastIndex(of: "."), dot != name.startIndex else { return target }
            return hasMarkdownExtension(name) ? target : nil
        case .link:
            return hasMarkdownExtension(target) ? target : nil
        case .image, .htmlImage:
            return nil
        }
    }

    static func hasMarkdownExtension(_ name: String) -> Bool {
        let lower = name.lowercased()
        return lower.hasSuffix(".md") || lower.hasSuffix(".markdown")
    }

    /// The target without a Markdown extension, and a leading `./` or `/`.
    static func withoutExtension(_ target: String) -> String {
        var text = Substring(target)
        while text.hasPrefix("./") { text = text.dropFirst(2) }
        while text.hasPrefix("/") { text = text.dropFirst() }
        let lower = text.lowercased()
        if lower.hasSuffix(".markdown") {
            text = text.dropLast(9)
        } else if lower.hasSuffix(".md") {
            text = text.dropLast(3)
        }
        return String(text)
    }

    /// A name as links find it: case folded, without surrounding spaces.
    static func fold(_ name: String) -> String {
        // Foundation's trimming, a tenth of the names' writing, only when there is a space
        // (of `CharacterSet.whitespaces`: a tab, a space separator or a zero-width space) at
        // either end.
        func isSpace(_ scalar: Unicode.Scalar?) -> Bool {
            guard let scalar else { return false }
            return scalar == "\t" || scalar == "\u{200B}" || scalar.properties.generalCategory == .spaceSeparator
        }
        guard isSpace(name.unicodeScalars.first) || isSpace(name.unicodeScalars.last) else { return name.lowercased() }
        return name.trimmingCharacters(in: .whitespaces).lowercased()
    }

    /// The key a link is found by: its last name, folded.
    static func key(of target: String) -> String {
        let path = withoutExtension(target)
        let last = path.split(separator: "/", omittingEmptySubsequences: true).last.map(String.init) ?? path
        return fold(last)
    }

    // The statements below are cached, with placeholders: they run for every item that a save
    // or an import changes, and for every item when the index is built.

    /// Writes the links of the note `id` (none when `body` is nil: a collection, or gone), in
    /// place of those the index held (none to remove without `replacing`: a rebuild).
    static func writeLinks(
        of id: String, body: String?, found: BodyLinks? = nil, replacing: Bool = true, _ db: Database
    ) throws {
        if replacing { try db.cachedStatement(sql: "DELETE FROM link WHERE source = ?").execute(arguments: [id]) }
        guard let body else { return }
        let insert = try db.cachedStatement(
            sql: """
                INSERT INTO link (source, position, line, kind, target, fragment, display, key)
                VALUES (?, ?, ?, ?, ?, ?, ?, ?)
                """)
        try withExtendedLifetime(insert) {
            for row in found?.links(of: body) ?? links(of: body) {
                try RawStatement.run(
                    insert.sqliteStatement,
                    binding: id.databaseValue, row.position.databaseValue, row.line.databaseValue,
                    row.kind.rawValue.databaseValue, row.target.databaseValue, row.fragment.databaseValue,
                    row.display.databaseValue, key(of: row.target).databaseValue)
            }
        }
    }

    /// Writes the names the note `id` is found by: `name`, its aliases, and the names of its
    /// history before, each with the greatest stamp of a version that replaced it. Nothing for
    /// a collection or an item gone. In place of those the index held, as ``writeLinks``.
    /// `line` and `aliases`, when given, are the note's history of names and its aliases
    /// property as the store holds them (nil: none), read already.
    static func writeNames(
        of id: String, name: String?, isNote: Bool, replacing: Bool = true, onlyCurrentName: Bool = false,
        line: HistoryLine? = nil, aliases: PropertyValue?? = nil, _ db: Database
    ) throws {
        if replacing {
            try db.cachedStatement(sql: "DELETE FROM link_name WHERE item = ?").execute(arguments: [id])
        }
        guard let name, isNote else { return }
        // One row a statement, bound and stepped through SQLite's own calls. A statement of
        // many rows was slower in a rebuild: with foreign keys on, SQLite keeps a journal of
        // each statement that writes several rows, a copy of every page it changes of both
        // b-trees of the table.
        let insert = try db.cachedStatement(sql: "INSERT INTO link_name (item, key, until) VALUES (?, ?, ?)")
        try withExtendedLifetime(insert) {
            for (key, until) in try names(
                of: id, name: name, readingHistory: !onlyCurrentName, line: line, aliases: aliases, db)
            {
                try RawStatement.run(
                    insert.sqliteStatement, binding: id.databaseValue, key.databaseValue, until.databaseValue)
            }
        }
    }

    /// The names the note `id` is found by, folded, each with what `link_name.until` holds
    /// for it: empty for its name now, ``aliasMark`` for an alias, else the greatest stamp of
    /// a version that replaced it. Without `readingHistory` (a history of names that holds
    /// the current name alone), its name now and its aliases. `line` and `aliases` as in
    /// ``writeNames(of:name:isNote:replacing:onlyCurrentName:line:aliases:_:)``.
    static func names(
        of id: String, name: String, readingHistory: Bool = true, line read: HistoryLine? = nil,
        aliases: PropertyValue?? = nil, _ db: Database
    ) throws -> [String: String] {
        var until: [String: String] = [fold(name): ""]
        if readingHistory, let object = UUID(storeText: id) {
            let line = try read ?? VersionStorage.line(object, .name, db)
            // One version whose text is the item's, as most notes have: their name now alone,
            // without working out the versions' contexts.
            let alone = line.entries.count == 1 && line.entries[0].keepsItemText
            let versions = alone ? [] : VersionStorage.versions(of: line)
            var replaced: [ChangeStamp: ChangeStamp] = [:]
            for version in versions {
                for base in version.bases ?? [] where replaced[base].map({ $0 < version.stamp }) ?? true {
                    replaced[base] = version.stamp
                }
            }
            for version in versions {
                // A version without content of its own has the current name: no read for it.
                let text =
                    line.entry(version.stamp).map(\.keepsItemText) ?? false
                    ? name : try? VersionStorage.text(version.stamp, in: line, db)
                guard let text else { continue }
                let key = fold(text)
                guard until[key] != "" else { continue }
                let end = (replaced[version.stamp] ?? version.stamp).text
                if until[key].map({ $0 < end }) ?? true { until[key] = end }
            }
        }
        // Its aliases (a property) are names too, after its own: `until` is `alias`.
        let aliases =
            if let aliases { aliases } else {
                try UUID(storeText: id).flatMap { try PropertyTable.value(of: Property.aliases, item: $0, db) }
            }
        if let aliases {
            for alias in aliases.strings {
                let key = fold(alias)
                if until[key] == nil || until[key] != "" { until[key] = aliasMark }
            }
        }
        return until.filter { !$0.key.isEmpty }
    }

    /// What `link_name.until` holds for an alias of the note.
    static let aliasMark = "alias"

    /// Whether both tables hold what the items make, and nothing else: the links of each
    /// note's body and the names each note is found by. `notes check`. While a build is in
    /// progress, of the notes it has reached.
    static func matchesItems(_ db: Database) throws -> Bool {
        let through = try builtThrough(db)
        func reached(_ column: String) -> SQL { through.map { "WHERE \(sql: column) <= \($0)" } ?? "" }
        let readLinks = try db.makeStatement(
            sql: """
                SELECT position, line, kind, target, fragment, display, key \
                FROM link WHERE source = ? ORDER BY position
                """
        )
        let readNames = try db.makeStatement(sql: "SELECT key, until FROM link_name WHERE item = ?")
        var links = 0
        var names = 0
        let items = try Row.fetchCursor(
            db, SQLRequest<Row>(literal: "SELECT id, kind, name, body FROM item \(reached("id"))"))
        while let row = try items.next() {
            let id: String = row["id"]
            let expected = (row["body"] as String?).map(Self.links(of:)) ?? []
            let held = try Row.fetchAll(readLinks, arguments: [id]).map { link in
                (
                    Link(
                        position: link["position"], line: link["line"],
                        kind: NoteLink.Kind(rawValue: link["kind"] as String) ?? .wiki, target: link["target"],
                        fragment: link["fragment"], display: link["display"]), link["key"] as String
                )
            }
            guard held.map(\.0) == expected, held.allSatisfy({ $0.1 == key(of: $0.0.target) }) else { return false }
            links += held.count
            guard (row["kind"] as String) == "note" else { continue }
            var heldNames: [String: String] = [:]
            for name in try Row.fetchAll(readNames, arguments: [id]) { heldNames[name["key"]] = name["until"] }
            guard heldNames == (try Self.names(of: id, name: row["name"], db)) else { return false }
            names += heldNames.count
        }
        return try Int.fetchOne(db, SQLRequest<Int>(literal: "SELECT COUNT(*) FROM link \(reached("source"))")) == links
            && Int.fetchOne(db, SQLRequest<Int>(literal: "SELECT COUNT(*) FROM link_name \(reached("item"))")) == names
    }

    /// The key in `metadata` of a build in progress: the greatest id of a note whose links and
    /// names the index holds for certain (empty: none yet).
    static let buildKey = "link_built_through"

    /// The greatest id of a note whose rows the index holds for certain while a build is in
    /// progress (empty: none yet); nil when the index is whole.
    static func builtThrough(_ db: Database) throws -> String? {
        try SQLRequest<String>(literal: "SELECT value FROM metadata WHERE key = \(buildKey)", cached: true)
            .fetchOne(db)
    }

    private static func setBuiltThrough(_ id: String?, _ db: Database) throws {
        if let id {
            try db.execute(literal: "INSERT OR REPLACE INTO metadata(key, value) VALUES (\(buildKey), \(id))")
        } else {
            try db.execute(literal: "DELETE FROM metadata WHERE key = \(buildKey)")
        }
    }

    /// Empties both tables and starts a build from the first note, a part at a time
    /// (``build(notes:_:)``), as a store made from a baseline of many items does. Until the
    /// index is whole, the rows of the notes it has reached are certain; saves write the rows
    /// of the notes they change wherever they are, and each part replaces those of its own
    /// notes. Whatever reads links finishes the build first (``Store/finishLinkIndex()``).
    static func startBuilding(_ db: Database) throws {
        try db.execute(sql: "DELETE FROM link; DELETE FROM link_name")
        try setBuiltThrough("", db)
    }

    /// Writes the rows of up to `limit` notes after those a build in progress has reached, in
    /// the order of ids; returns true when the index is whole.
    static func build(notes limit: Int, _ db: Database) throws -> Bool {
        guard let through = try builtThrough(db) else { return true }
        let last = try SQLRequest<String>(
            literal: """
                SELECT max(id) FROM (
                    SELECT id FROM item WHERE kind = 'note' AND id > \(through) ORDER BY id LIMIT \(limit)
                )
                """
        ).fetchOne(db)
        guard let last else {
            try setBuiltThrough(nil, db)
            return true
        }
        // The rows that saves wrote for the part's notes meanwhile are written again.
        try db.execute(
            literal: """
                DELETE FROM link WHERE source > \(through) AND source <= \(last);
                DELETE FROM link_name WHERE item > \(through) AND item <= \(last);
                """)
        try writeRows(
            of: Row.fetchCursor(
                db,
                SQLRequest<Row>(
                    literal: """
                        SELECT id, name, body FROM item
                        WHERE kind = 'note' AND id > \(through) AND id <= \(last) ORDER BY id
                        """)), db)
        let whole = try !Bool.fetchOne(
            db, SQLRequest<Bool>(literal: "SELECT EXISTS (SELECT 1 FROM item WHERE kind = 'note' AND id > \(last))"))!
        try setBuiltThrough(whole ? nil : last, db)
        return whole
    }

    /// Fills both tables from every item, at once: for the migration that adds them to a store
    /// of few items, and `notes check --repair`, which also finishes a build in progress.
    ///
    /// One scan of the item table in the order of its rows, which SQLite sorts by id: reading
    /// it in the order of ids through their index was a lookup in the table for every note.
    /// The scan gives the body of a note only when it may hold a link (``linkBodyFunction``),
    /// so that the sort carries few bodies.
    static func rebuild(_ db: Database) throws {
        try db.execute(sql: "DELETE FROM link; DELETE FROM link_name")
        try setBuiltThrough(nil, db)
        // The indexes of both tables by key are made again after the rows (a sort each), not
        // as the rows go in (a random place in them for each): a tenth of a join from a
        // baseline of 100,000 notes. Made from the schema's own statements, so that a repair
        // also mends an index that was missing or altered.
        try db.execute(sql: "DROP INDEX IF EXISTS link_on_key; DROP INDEX IF EXISTS link_name_on_key")
        try addLinkBodyFunction(db)
        try writeRows(
            of: Row.fetchCursor(
                db,
                sql: """
                    SELECT id, name, \(linkBodyFunction)(body) AS body FROM item NOT INDEXED
                    WHERE kind = 'note' ORDER BY id
                    """), db)
        try db.execute(sql: "\(StoreSchema.linkKeyIndex); \(StoreSchema.linkNameKeyIndex)")
    }

    /// Writes the links and names of the notes of `notes` (`id`, `name`, `body`, in the order
    /// of ids), none of them in the index. In the order of ids, the rows go into their tables
    /// in the order of their primary keys, which SQLite writes faster, and the history of
    /// names and the aliases of a page of ``namePage`` notes are read by one query each
    /// (``VersionStorage/lines(_:of:_:)``, a range of ids, and
    /// ``PropertyTable/values(of:items:_:)``).
    private static func writeRows(of notes: RowCursor, _ db: Database) throws {
        // The tables written are not the one read: writing while the cursor reads is safe.
        var page: [(id: String, object: UUID, name: String)] = []
        while let row = try notes.next() {
            let id: String = row["id"]
            if let body: String = row["body"] { try writeLinks(of: id, body: body, replacing: false, db) }
            // A name is never NULL but in a damaged store, which a repair must not stop at.
            guard let name: String = row["name"] else { continue }
            guard let object = UUID(storeText: id) else {
                // An id that is not a UUID (in a damaged store): its names alone.
                try writeNames(of: id, name: name, isNote: true, replacing: false, db)
                continue
            }
            page.append((id, object, name))
            if page.count == namePage {
                try writeNames(of: page, db)
                page.removeAll(keepingCapacity: true)
            }
        }
        try writeNames(of: page, db)
    }

    /// The SQL function that gives a body when it may hold a link (a `[` or a `<`, as
    /// ``MarkdownScanner/mayHoldReferences(_:)`` says), else NULL. Native: it looks at the
    /// bytes SQLite holds, where a function of GRDB would make a text of every body.
    static let linkBodyFunction = "notes_link_body"

    /// Adds ``linkBodyFunction`` to the connection, or adds it again. Only while no statement
    /// runs on it (SQLite refuses then), as when a rebuild starts: the rebuild adds it itself,
    /// since it also runs on connections that are not a store's (a baseline's copy, upgraded
    /// by the migrations).
    private static func addLinkBodyFunction(_ db: Database) throws {
        let code = sqlite3_create_function_v2(
            db.sqliteConnection, linkBodyFunction, 1, SQLITE_UTF8 | SQLITE_DETERMINISTIC | SQLITE_INNOCUOUS, nil,
            { context, _, values in
                // Any value but NULL is looked at as text, as a body is read (a blob too, in a
                // damaged store), and given back as it is.
                guard let value = values?[0], sqlite3_value_type(value) != SQLITE_NULL,
                    let text = sqlite3_value_text(value),
                    MarkdownScanner.mayHoldReferences(
                        UnsafeBufferPointer(start: text, count: Int(sqlite3_value_bytes(value))))
                else {
                    sqlite3_result_null(context)
                    return
                }
                sqlite3_result_value(context, value)
            }, nil, nil, nil)
        guard code == SQLITE_OK else {
            throw DatabaseError(
                resultCode: ResultCode(rawValue: code),
                message: "cannot add \(linkBodyFunction): \(String(cString: sqlite3_errmsg(db.sqliteConnection)))")
        }
    }

    /// The notes whose names ``rebuild(_:)`` reads at a time.
    static let namePage = 500

    /// Writes the names of notes, none of them in the index yet, with their lines of names
    /// and their aliases read for all of them at once.
    private static func writeNames(of notes: [(id: String, object: UUID, name: String)], _ db: Database) throws {
        guard !notes.isEmpty else { return }
        let objects = notes.map(\.object)
        let lines = try VersionStorage.lines(.name, of: objects, db)
        let aliases = try PropertyTable.values(of: Property.aliases, items: objects, db)
        for note in notes {
            try writeNames(
                of: note.id, name: note.name, isNote: true, replacing: false,
                line: lines[note.object] ?? HistoryLine(object: note.object, property: .name),
                aliases: .some(aliases[note.object]), db)
        }
    }
}
