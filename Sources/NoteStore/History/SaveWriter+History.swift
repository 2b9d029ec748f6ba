import Foundation
import GRDB

extension SaveWriter {
    /// The first versions of an item a save inserts, kept until ``writeFirstVersions()``: its
    /// name's, and a note's body's.
    struct FirstVersions {
        let object: UUID
        let name: String
        let body: String?
        let context: VersionContext
        let contextJSON: String
    }

    /// Records the first versions of a new item's name (and a note's body), to be written by
    /// ``writeFirstVersions()``; returns what its change carries for history.
    mutating func recordFirstVersions(of item: Item) -> ChangeHistory {
        let context = VersionContext(name: item.name, parent: item.parent, device: deviceName)
        var history = ChangeHistory(bases: [.name: []], context: context)
        if item.isNote { history.bases[.body] = [] }
        firstVersions.append(
            FirstVersions(
                object: item.id, name: item.name, body: item.isNote ? item.body ?? "" : nil, context: context,
                contextJSON: ChangeHistory.contextJSON(context)))
        return history
    }

    /// Writes the first versions of the items inserted so far, in the order of the history's key
    /// (object, then property: "body" before "name"), each as the start of its line unless the
    /// line has versions already.
    ///
    /// The ids of new items are random, so their versions land all over the `version` table
    /// (it has no rowids: rows sit in key order). Written in key order, a save of many items
    /// visits each page of the table once instead of taking pages in and out of the cache.
    mutating func writeFirstVersions() throws {
        guard !firstVersions.isEmpty else { return }
        firstVersions.sort { $0.object.precedesInStoreOrder($1.object) }
        for first in firstVersions {
            for (property, text) in [(HistoryProperty.body, first.body), (.name, first.name)] {
                guard let text else { continue }
                var version = VersionStorage.NewVersion(
                    object: first.object, property: property, stamp: stamp, bases: [],
                    context: first.context, text: text)
                version.contextJSON = first.contextJSON
                version.isCurrentText = true
                if try VersionStorage.start(version, db) {
                    if property == .name { searchIndex.nameLineStarted(first.object.storeString) }
                } else {
                    try VersionStorage.insert(version, db)
                }
            }
        }
        firstVersions.removeAll()
    }

    /// Records the new versions of the name and body that an update sets, each edited from the
    /// heads of its property (the text the person saw); returns what the change carries.
    ///
    /// `originalBody` is the body as the store had it before the update: when there is one
    /// head, it is the head's text, and the new version is stored as a delta against it. The
    /// update has set the item's text to the new versions' (``VersionStorage``).
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
                object: current.id, property: property, stamp: stamp,
                origin: restored[property] == nil ? .edit : .restore,
                bases: heads, restored: restored[property], context: context, text: text)
            contextJSON = contextJSON ?? ChangeHistory.contextJSON(context)
            version.contextJSON = contextJSON
            version.isCurrentText = true
            history.context = context
            if property == .body, heads.count == 1, let originalBody { version.deltaBase = (heads[0], originalBody) }
            if property == .body, heads.count > 1 {
                version.fromMerge = true
                history.fromMerge.insert(.body)
            }
            try VersionStorage.insert(version, onlyHead: true, db)
            history.bases[property] = heads
            history.restored[property] = restored[property]
        }
        return history
    }

    /// What this device calls itself in sync, when sync has named it.
    static func deviceName(_ db: Database) throws -> String? {
        try String.fetchOne(db.cachedStatement(sql: "SELECT device_name FROM sync_record WHERE id = 1"))
    }
}
