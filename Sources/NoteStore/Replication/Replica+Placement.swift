import Foundation
import GRDB

/// Where items are shown: the primitives with which sync's merge places the hierarchy
/// (NoteSync's `HierarchyRepair`; docs/sync-format.md, "Merge").
///
/// Each item has a merged parent, the value that won by stamp, and a shown one, the `parent`
/// column: they differ for an item that the merge cannot show at its merged parent (a
/// collection that is not there, or a cycle), which is *displaced*: shown at the top level,
/// with its merged parent kept in `displaced`.
extension Replica {
    /// Where an item is shown and where merge put it.
    public struct Placement: Sendable {
        /// The parent shown: the `parent` column.
        public let shown: UUID?
        /// The parent it won by merge: the shown one unless it is displaced.
        public let merged: UUID?
        public let isDisplaced: Bool
        public let isNote: Bool
        /// Whether the merged parent is a collection that is there.
        public let mergedIsCollection: Bool
    }

    /// Items whose parent this transaction set (inserted with a parent, moved, or a new
    /// collection that may be the merged parent of displaced items).
    public var itemsMoved: Set<UUID> { movedItems }

    /// Whether this transaction purged an item, which may leave items without their parent.
    public var mayHaveOrphanedItems: Bool { mayHaveOrphanItems }

    /// Items shown under something that is not a collection that is there.
    public func itemsWithoutParentCollection() throws -> [UUID] {
        try String.fetchAll(
            db,
            sql: """
                SELECT id FROM item
                WHERE parent IS NOT NULL AND NOT EXISTS (
                    SELECT 1 FROM item AS container WHERE container.id = item.parent AND container.kind = 'collection')
                """
        ).compactMap(UUID.init(storeText:))
    }

    /// The items shown apart from their merged parent.
    public func displacedItems() throws -> Set<UUID> {
        Set(try String.fetchAll(db, sql: "SELECT item FROM displaced").compactMap(UUID.init(storeText:)))
    }

    public func placement(of item: UUID) throws -> Placement? {
        // A cached statement with a placeholder: an import asks this for every change it moves.
        guard
            let row = try Row.fetchOne(
                db.cachedStatement(
                    sql: """
                        SELECT item.parent AS shown, displaced.item IS NOT NULL AS isDisplaced, \
                        displaced.parent AS merged,
                            item.kind AS kind,
                            EXISTS (SELECT 1 FROM item AS up WHERE up.kind = 'collection'
                                AND up.id = \
                        (CASE WHEN displaced.item IS NULL THEN item.parent ELSE displaced.parent END))
                                AS mergedIsCollection
                        FROM item LEFT JOIN displaced ON displaced.item = item.id WHERE item.id = ?
                        """),
                arguments: [item.storeString])
        else { return nil }
        let shown = (row["shown"] as String?).flatMap(UUID.init(storeText:))
        let isDisplaced: Bool = row["isDisplaced"]
        let kind: String = row["kind"]
        return Placement(
            shown: shown, merged: isDisplaced ? (row["merged"] as String?).flatMap(UUID.init(storeText:)) : shown,
            isDisplaced: isDisplaced, isNote: kind == ItemKind.note.rawValue,
            mergedIsCollection: row["mergedIsCollection"])
    }

    public func isCollection(_ id: UUID) throws -> Bool {
        // Cached statements with placeholders, here and below in this file:
        // an import runs each for every change it moves.
        try Bool.fetchOne(
            db.cachedStatement(sql: "SELECT EXISTS (SELECT 1 FROM item WHERE id = ? AND kind = 'collection')"),
            arguments: [id.storeString]) ?? false
    }

    /// Shows an item under `shown`, keeping `merged` as its merged parent when they differ.
    public func show(_ item: UUID, under shown: UUID?, mergedParent merged: UUID?) throws {
        try db.cachedStatement(sql: "UPDATE item SET parent = ? WHERE id = ?").execute(arguments: [
            shown?.storeString, item.storeString,
        ])
        if shown == merged {
            try db.cachedStatement(sql: "DELETE FROM displaced WHERE item = ?").execute(arguments: [item.storeString])
        } else {
            try db.cachedStatement(sql: "INSERT OR REPLACE INTO displaced(item, parent) VALUES (?, ?)")
                .execute(arguments: [item.storeString, merged?.storeString])
        }
    }

    /// Removes the attachments whose note is not there: the model's rule, after a purge or an
    /// attachment that came for a note that is not there.
    func removeOrphanAttachments() throws {
        guard mayHaveOrphanAttachments else { return }
        for table in ["attachment", "file_attachment"] {
            let orphans = "NOT EXISTS (SELECT 1 FROM item WHERE item.id = \(table).note AND item.kind = 'note')"
            try db.execute(
                sql: "INSERT OR IGNORE INTO blob_release(sha256) SELECT sha256 FROM \(table) WHERE \(orphans)")
            releasedBlobs = releasedBlobs || connection.changesCount > 0
            try db.execute(sql: "DELETE FROM \(table) WHERE \(orphans)")
        }
    }
}

extension Store {
    /// Whether any item is shown apart from its merged parent.
    public func hasDisplacedItems() throws -> Bool {
        try read { db in try Bool.fetchOne(db.cachedStatement(sql: "SELECT EXISTS (SELECT 1 FROM displaced)")) ?? false
        }
    }
}
