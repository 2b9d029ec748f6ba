import Foundation
import GRDB

extension SaveWriter {
    /// Records the first versions of a new item's name (and a note's body), to be written by
    /// ``writeFirstVersions()``; returns what its change carries for history.
    mutating func recordFirstVersions(of item: Item) -> ChangeHistory {
        let context = VersionContext(name: item.name, parent: item.parent, device: deviceName)
        var history = ChangeHistory(bases: [.name: []], context: context)
        var name = VersionStorage.NewVersion(
            object: item.id, property: .name, stamp: stamp, bases: [], deviceName: context.device, context: context, text: item.name)
        name.contextJSON = ChangeHistory.contextJSON(context)
        firstVersions.append(name)
        if item.isNote {
            var body = VersionStorage.NewVersion(
                object: item.id, property: .body, stamp: stamp, bases: [], deviceName: context.device, context: context,
                text: item.body ?? "")
            body.contextJSON = name.contextJSON
            firstVersions.append(body)
            history.bases[.body] = []
        }
        return history
    }

    /// Writes the first versions of the items inserted so far, in the order of the history's key.
    ///
    /// The ids of new items are random, so their versions land all over the `version` table
    /// (it has no rowids: rows sit in key order). Written in key order, a save of many items
    /// visits each page of the table once instead of taking pages in and out of the cache.
    mutating func writeFirstVersions() throws {
        guard !firstVersions.isEmpty else { return }
        firstVersions.sort { $0.object != $1.object ? $0.object.precedesInStoreOrder($1.object) : $0.property < $1.property }
        for version in firstVersions { try VersionStorage.insert(version, db) }
        firstVersions.removeAll()
    }

    /// Records the new versions of the name and body that an update sets, each edited from the
    /// heads of its property (the text the person saw); returns what the change carries.
    ///
    /// `originalBody` is the body as the store has it now: when there is one head, it is the
    /// head's text, and the new version is stored as a delta against it.
    func recordVersions(
        of current: Item, changes: OutboxChanges, originalBody: String?, restored: [HistoryProperty: ChangeStamp]
    ) throws -> ChangeHistory {
        var history = ChangeHistory()
        let context = VersionContext(name: current.name, parent: current.parent, device: deviceName)
        var contextJSON: String?
        for property in HistoryProperty.allCases {
            guard case let .text(text)? = changes[property.rawValue] else { continue }
            let heads = try VersionStorage.heads(current.id, property, db)
            var version = VersionStorage.NewVersion(
                object: current.id, property: property, stamp: stamp, origin: restored[property] == nil ? .edit : .restore,
                bases: heads, restored: restored[property], deviceName: context.device, context: context, text: text)
            contextJSON = contextJSON ?? ChangeHistory.contextJSON(context)
            version.contextJSON = contextJSON
            history.context = context
            if property == .body, heads.count == 1, let originalBody { version.deltaBase = (heads[0], originalBody) }
            if property == .body, heads.count > 1 {
                version.fromMerge = true
                history.fromMerge.insert(.body)
            }
            try VersionStorage.insert(version, db)
            try VersionStorage.setHeads([stamp], current.id, property, db)
            history.bases[property] = heads
            history.restored[property] = restored[property]
        }
        return history
    }

    /// What this device calls itself in sync, when sync has named it.
    static func deviceName(_ db: Database) throws -> String? {
        try String.fetchOne(db.cachedStatement(sql: "SELECT value FROM sync_state WHERE key = 'device.name'"))
    }
}
