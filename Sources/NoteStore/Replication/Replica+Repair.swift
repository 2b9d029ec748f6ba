import Foundation
import GRDB

extension Replica {
    /// Restores the hierarchy's rules after changes from several devices met, using only the
    /// merged state, so that every device computes the same answer (docs/sync-format.md, "Merge"):
    /// an item whose collection is gone is shown at the top level, an attachment whose note is
    /// gone goes, and a cycle of collections is broken at the member moved last.
    func repairHierarchy() throws {
        if mayHaveOrphans {
            try db.execute(sql: """
                UPDATE item SET parent = NULL
                WHERE parent IS NOT NULL AND NOT EXISTS (
                    SELECT 1 FROM item AS container WHERE container.id = item.parent AND container.kind = 'collection')
                """)
            try db.execute(sql: """
                INSERT OR IGNORE INTO blob_release(sha256)
                SELECT sha256 FROM attachment
                WHERE NOT EXISTS (SELECT 1 FROM item WHERE item.id = attachment.note AND item.kind = 'note')
                """)
            releasedBlobs = releasedBlobs || db.changesCount > 0
            try db.execute(sql: """
                DELETE FROM attachment
                WHERE NOT EXISTS (SELECT 1 FROM item WHERE item.id = attachment.note AND item.kind = 'note')
                """)
        }
        for collection in movedCollections.sorted(by: { $0.storeString < $1.storeString }) {
            while let cycle = try cycle(through: collection) {
                try breakCycle(cycle)
            }
        }
    }

    /// The collections of a cycle that `start` lies on or leads into, or nil.
    private func cycle(through start: UUID) throws -> [UUID]? {
        var path: [UUID] = []
        var next: UUID? = start
        while let id = next {
            if let index = path.firstIndex(of: id) { return Array(path[index...]) }
            path.append(id)
            next = try String.fetchOne(
                db.cachedStatement(sql: "SELECT parent FROM item WHERE id = ?"), arguments: [id.storeString]
            ).flatMap(UUID.init(uuidString:))
        }
        return nil
    }

    /// Puts at the top level the member of the cycle whose `parent` was set last.
    private func breakCycle(_ members: [UUID]) throws {
        var latest: (UUID, ChangeStamp?)?
        for member in members {
            let stamp = try state(of: member)?.stamp(of: "parent")
            if latest == nil || Self.isLater(stamp, than: latest?.1, tieBreak: member, latest?.0) {
                latest = (member, stamp)
            }
        }
        guard let (member, _) = latest else { return }
        try db.execute(sql: "UPDATE item SET parent = NULL WHERE id = ?", arguments: [member.storeString])
    }

    private static func isLater(_ stamp: ChangeStamp?, than other: ChangeStamp?, tieBreak id: UUID, _ otherID: UUID?) -> Bool {
        switch (stamp, other) {
        case let (a?, b?) where a != b: return a > b
        case (_?, nil): return true
        case (nil, _?): return false
        default: return id.storeString > (otherID?.storeString ?? "")
        }
    }
}
