import Foundation
import GRDB
import NoteText

/// Writes and reads versions in the `version` table, text whole or as a line delta.
///
/// A version's text is stored as a ``LineDelta`` against the version it was edited from when
/// that text is at hand and the delta is smaller, so that a one-line edit of a long note costs
/// about one line; every ``maximumDepth`` deltas the text is stored whole again, which bounds
/// the work of reading an old version.
enum VersionStorage {
    /// The most deltas between a version and a whole text.
    static let maximumDepth = 50

    typealias NewVersion = VersionDraft

    /// Writes a version unless one with its stamp is there; returns whether it wrote it. The
    /// new version is written as a head; the caller sets the heads.
    @discardableResult
    static func insert(_ version: NewVersion, _ db: Database) throws -> Bool {
        var deltaOf: String?
        var depth = 0
        var content = Data(version.text.utf8)
        if let base = version.deltaBase, version.text.utf8.count > 64,
            let baseDepth = try version.deltaBaseDepth ?? Int.fetchOne(
                db.cachedStatement(sql: "SELECT depth FROM version WHERE object = ? AND property = ? AND stamp = ?"),
                arguments: [version.object.storeString, version.property.rawValue, base.stamp.text]),
            baseDepth + 1 < maximumDepth
        {
            let delta = Data(LineDelta.make(from: base.text, to: version.text).encoded)
            if delta.count < content.count / 2 {
                content = delta
                deltaOf = base.stamp.text
                depth = baseDepth + 1
            }
        }
        try db.cachedStatement(
            sql: """
                INSERT OR IGNORE INTO version
                    (object, property, stamp, origin, bases, restored, device_name, context, head, size, delta_of, depth, content, from_merge)
                VALUES (?, ?, ?, ?, ?, ?, ?, ?, 1, ?, ?, ?, ?, ?)
                """
        ).execute(arguments: [
            version.object.storeString, version.property.rawValue, version.stamp.text, version.origin.rawValue,
            version.bases.map(Version.text(of:)), version.restored?.text, version.deviceName,
            version.contextJSON ?? version.context.map(ChangeHistory.contextJSON), version.text.utf8.count, deltaOf, depth, content,
            version.fromMerge,
        ])
        return db.changesCount > 0
    }

    /// The stamps of the heads of a property of an object.
    static func heads(_ object: UUID, _ property: HistoryProperty, _ db: Database) throws -> [ChangeStamp] {
        try String.fetchAll(
            db.cachedStatement(sql: "SELECT stamp FROM version WHERE object = ? AND property = ? AND head"),
            arguments: [object.storeString, property.rawValue]
        ).compactMap(ChangeStamp.init(text:)).sorted()
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
        let mark = try db.cachedStatement(sql: "UPDATE version SET head = ? WHERE object = ? AND property = ? AND stamp = ?")
        for stamp in current.subtracting(heads) {
            try mark.execute(arguments: [false, object.storeString, property.rawValue, stamp.text])
        }
        for stamp in heads.subtracting(current) {
            try mark.execute(arguments: [true, object.storeString, property.rawValue, stamp.text])
        }
    }

    /// Every version of a property of an object, oldest stamp first.
    static func versions(_ object: UUID, _ property: HistoryProperty, _ db: Database) throws -> [Version] {
        try Row.fetchAll(
            db.cachedStatement(sql: "SELECT \(Version.columns) FROM version WHERE object = ? AND property = ? ORDER BY stamp"),
            arguments: [object.storeString, property.rawValue]
        ).compactMap(Version.init(row:))
    }

    /// The text of a version, or nil when there is no such version.
    static func text(_ object: UUID, _ property: HistoryProperty, _ stamp: ChangeStamp, _ db: Database) throws -> String? {
        var chain: [Data] = []
        var next: String? = stamp.text
        while let current = next {
            guard chain.count <= maximumDepth + 1,
                let row = try Row.fetchOne(
                    db.cachedStatement(sql: "SELECT delta_of, content FROM version WHERE object = ? AND property = ? AND stamp = ?"),
                    arguments: [object.storeString, property.rawValue, current])
            else {
                if chain.isEmpty { return nil }
                throw StoreError.invalidOperation(item: object.storeString, reason: "a version of its \(property.rawValue) is damaged")
            }
            chain.append(row["content"])
            next = row["delta_of"]
        }
        var text = String(decoding: chain.removeLast(), as: UTF8.self)
        while let delta = chain.popLast() {
            do {
                text = try LineDelta(decoding: [UInt8](delta)).apply(to: text)
            } catch {
                throw StoreError.invalidOperation(item: object.storeString, reason: "a version of its \(property.rawValue) is damaged")
            }
        }
        return text
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
    public var deviceName: String?
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

    public init(
        object: UUID, property: HistoryProperty, stamp: ChangeStamp, origin: VersionOrigin = .edit,
        bases: [ChangeStamp]?, restored: ChangeStamp? = nil, deviceName: String? = nil, context: VersionContext? = nil,
        text: String, deltaBase: (stamp: ChangeStamp, text: String)? = nil
    ) {
        self.object = object
        self.property = property
        self.stamp = stamp
        self.origin = origin
        self.bases = bases
        self.restored = restored
        self.deviceName = deviceName
        self.context = context
        self.text = text
        self.deltaBase = deltaBase
    }
}
