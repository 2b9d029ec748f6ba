import Foundation
import GRDB

/// A link in a note's body, and what it reaches now.
public struct NoteLink: Sendable, Equatable {
    /// The note whose body holds the link.
    public let source: UUID
    /// The line of the body it is on, from 1.
    public let line: Int
    /// Where it starts in the body, in bytes of UTF-8.
    public let position: Int
    /// What it names, as written (without its fragment): `Name`, `Path/Name`, `Name.md`.
    public let target: String
    /// After `#`: a heading or a block of the note reached.
    public let fragment: String?
    /// After `|`, or a Markdown link's text.
    public let display: String?
    /// How it is written.
    public let kind: Kind
    /// The note it reaches (docs/links.md, "Resolution"); nil when none.
    public let resolved: UUID?

    public enum Kind: String, Sendable {
        /// `[[Name]]`.
        case wiki
        /// `![[Name]]`: the note shown in place.
        case embed
        /// `[text](Name.md)`.
        case markdown
    }

    public var isEmbed: Bool { kind == .embed }

    /// The link as written, without a wiki link's shown text: `[[Name#Heading]]`,
    /// `[text](Name.md#Heading)`.
    public var written: String {
        let full = target + (fragment.map { "#" + $0 } ?? "")
        switch kind {
        case .wiki: return "[[" + full + "]]"
        case .embed: return "![[" + full + "]]"
        case .markdown: return "[" + (display ?? "") + "](" + full + ")"
        }
    }
}

extension Store {
    /// The links of a note's body, in the order of the text, each with what it reaches.
    public func links(of note: UUID) throws -> [NoteLink] {
        try links(ofNotes: [note])[note] ?? []
    }

    /// The links of several notes' bodies, each note's as ``links(of:)`` gives them, in one
    /// read with one prepared statement: an export asks for a page of notes at a time. Notes
    /// without links are left out.
    public func links(ofNotes ids: [UUID]) throws -> [UUID: [NoteLink]] {
        guard !ids.isEmpty else { return [:] }
        let list = IDList.json(ids)
        try finishLinkIndex()
        return try read { db in
            let resolver = LinkResolver(db: db)
            let rows = try Row.fetchCursor(
                db.cachedStatement(
                    sql: "SELECT * FROM link WHERE source IN (SELECT value FROM json_each(?)) ORDER BY source, position"
                ),
                arguments: [list])
            var links: [UUID: [NoteLink]] = [:]
            while let row = try rows.next() {
                let link = try Self.link(row, resolver)
                links[link.source, default: []].append(link)
            }
            return links
        }
    }

    /// The links of other notes' bodies (outside the trash) that reach `note`, by the path of
    /// their note and then their place in it.
    public func backlinks(of note: UUID) throws -> [NoteLink] {
        try finishLinkIndex()
        return try read { db in
            let resolver = LinkResolver(db: db)
            let rows = try Row.fetchAll(
                db,
                SQLRequest(
                    literal: """
                        SELECT link.* FROM link JOIN item ON item.id = link.source
                        WHERE item.trashed IS NULL \
                        AND link.key IN (SELECT key FROM link_name WHERE item = \(note.storeString))
                        ORDER BY link.source, link.position
                        """))
            return try rows.map { try Self.link($0, resolver) }.filter { $0.resolved == note }
        }
    }

    /// Every link of a note outside the trash that reaches nothing, by note and place.
    public func unresolvedLinks() throws -> [NoteLink] {
        try finishLinkIndex()
        return try read { db in
            let resolver = LinkResolver(db: db)
            return try Row.fetchAll(
                db,
                sql: """
                    SELECT link.* FROM link JOIN item ON item.id = link.source
                    WHERE item.trashed IS NULL ORDER BY link.source, link.position
                    """
            ).map { try Self.link($0, resolver) }.filter { $0.resolved == nil }
        }
    }

    /// The notes outside the trash with no link in their body that reaches a note, and none
    /// from another note's body reaching them.
    public func orphans() throws -> Set<UUID> {
        try finishLinkIndex()
        return try read { db in
            let notes = try String.fetchAll(db, sql: "SELECT id FROM item WHERE kind = 'note' AND trashed IS NULL")
            return Set(notes.compactMap(UUID.init(storeText:))).subtracting(try Self.linkedNotes(db))
        }
    }

    /// The notes out of the trash that a link of a note out of the trash reaches, and the notes
    /// whose bodies link to one: every note that is not an orphan (``orphans()``). What it holds
    /// grows with the links, not with the notes.
    public func linkedNotes() throws -> Set<UUID> {
        try finishLinkIndex()
        return try read { try Self.linkedNotes($0) }
    }

    private static func linkedNotes(_ db: Database) throws -> Set<UUID> {
        let resolver = LinkResolver(db: db)
        var linked: Set<UUID> = []
        let rows = try Row.fetchCursor(
            db, sql: "SELECT link.* FROM link JOIN item ON item.id = link.source WHERE item.trashed IS NULL")
        while let row = try rows.next() {
            let link = try link(row, resolver)
            guard let target = link.resolved else { continue }
            linked.insert(link.source)
            linked.insert(target)
        }
        return linked
    }

    /// The note that `[[target]]` reaches from a note at the top level, if any.
    public func resolveLink(_ target: String) throws -> UUID? {
        try finishLinkIndex()
        return try read { db in
            if case let .note(id) = try LinkResolver(db: db).resolve(target, from: nil) { return id }
            return nil
        }
    }

    /// Whether `link` reaches its note by one of the note's aliases rather than by its name
    /// or path: such a link stays as written when the note is renamed, moved or exported.
    public func reachesByAlias(_ link: NoteLink) throws -> Bool {
        guard let note = link.resolved, !link.target.contains("/") else { return false }
        let key = LinkIndex.key(of: link.target)
        guard let reached = try? item(note, includingBody: false), key != LinkIndex.fold(reached.name) else {
            return false
        }
        let aliases = try properties(of: note).first { $0.key == Property.aliases }?.value.strings ?? []
        return aliases.contains { LinkIndex.fold($0) == key }
    }

    /// The targets of every wiki link and embed, each once, as written (without fragments).
    public func wikiLinkTargets() throws -> [String] {
        try finishLinkIndex()
        return try read { db in
            try String.fetchAll(db, sql: "SELECT DISTINCT target FROM link WHERE kind != 'markdown'")
        }
    }

    /// Rebuilds the link index from every note: `notes check --repair`.
    public func rebuildLinkIndex() throws {
        try write { db in try LinkIndex.rebuild(db) }
    }

    private static func link(_ row: Row, _ resolver: LinkResolver) throws -> NoteLink {
        let sourceText: String = row["source"]
        guard let source = UUID(storeText: sourceText) else {
            throw StoreError.invalidOperation(item: sourceText, reason: "a row of the link index names no item")
        }
        let target: String = row["target"]
        let kindText: String = row["kind"]
        guard let kind = NoteLink.Kind(rawValue: kindText) else {
            throw StoreError.invalidOperation(
                item: sourceText, reason: "a row of its link index has the unknown kind '\(kindText)'")
        }
        let resolution = try resolver.resolve(target, from: source)
        let resolved: UUID? = if case let .note(id) = resolution { id } else { nil }
        return NoteLink(
            source: source, line: row["line"], position: row["position"], target: target, fragment: row["fragment"],
            display: row["display"],
            kind: kind, resolved: resolved)
    }
}
