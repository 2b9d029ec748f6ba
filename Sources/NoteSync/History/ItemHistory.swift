import Foundation
import NoteStore

/// The history of one item as people read it: every version of its name and body, newest
/// first, with the merges derived from concurrent versions, and the text of each.
public struct ItemHistory {
    public let store: Store
    public let item: Item
    public private(set) var entries: [HistoryEntry] = []
    private var versions: [HistoryProperty: [Version]] = [:]

    public init(store: Store, item: Item) throws {
        self.store = store
        self.item = item
        for version in try store.history(of: item.id) { versions[version.property, default: []].append(version) }
        for property in HistoryProperty.allCases {
            entries += try Self.entries(property, versions[property] ?? [], item: item)
        }
        entries.sort {
            ($0.stamp, $0.kind == .merge ? 1 : 0, $0.property.rawValue) > (
                $1.stamp, $1.kind == .merge ? 1 : 0, $1.property.rawValue
            )
        }
    }

    private static func entries(_ property: HistoryProperty, _ versions: [Version], item: Item) throws -> [HistoryEntry]
    {
        let heads = versions.filter(\.isHead).map(\.stamp).sorted()
        let current = property == .name ? item.name : item.body
        var result = versions.map { version in
            HistoryEntry(
                id: HistoryEntry.versionID(property, version.stamp), property: property, kind: kind(of: version),
                stamp: version.stamp, bases: version.bases ?? [], deviceName: version.deviceName, size: version.size,
                isCurrent: heads == [version.stamp], restored: version.restored)
        }
        var merges: [[ChangeStamp]] = versions.compactMap { $0.bases.flatMap { $0.count > 1 ? $0.sorted() : nil } }
        if property == .body, heads.count > 1 { merges.append(heads) }
        var seen: Set<[ChangeStamp]> = []
        for merged in merges where seen.insert(merged).inserted {
            guard let newest = merged.last else { continue }
            let isCurrentMerge = merged == heads
            result.append(
                HistoryEntry(
                    id: HistoryEntry.mergeID(property, merged), property: property, kind: .merge, stamp: newest,
                    bases: merged,
                    deviceName: nil, size: isCurrentMerge ? (current?.utf8.count ?? 0) : -1, isCurrent: isCurrentMerge,
                    restored: nil))
        }
        return result
    }

    private static func kind(of version: Version) -> HistoryEntry.Kind {
        switch version.origin {
        case .edit: return .edit
        case .restore: return .restore
        case .conflict: return .conflict
        }
    }

    /// The entry whose id starts with `prefix` (at least 4 characters), of `property` when given.
    public func entry(_ prefix: String, property: HistoryProperty? = nil) throws -> HistoryEntry {
        let needle = prefix.lowercased()
        let matches = entries.filter { $0.id.hasPrefix(needle) && (property == nil || $0.property == property) }
        guard needle.count >= 4, let match = matches.first else {
            throw StoreError.unknownVersion(prefix, item: item.name, ambiguous: false)
        }
        guard matches.count == 1 else { throw StoreError.unknownVersion(prefix, item: item.name, ambiguous: true) }
        return match
    }

    /// The text of an entry: a version's as saved, a merge's as derived from its versions.
    public func text(of entry: HistoryEntry) throws -> String {
        guard entry.kind == .merge else {
            return try store.text(of: item.id, entry.property, at: entry.stamp) ?? ""
        }
        var graph = VersionGraph(versions[entry.property] ?? [])
        return try HistoryMerger.text(of: entry.bases, property: entry.property, graph: &graph) { stamp in
            try store.text(of: item.id, entry.property, at: stamp) ?? ""
        }
    }

    /// The stored version behind an entry, for restoring; a merge has none.
    public func version(of entry: HistoryEntry) -> Version? {
        versions[entry.property]?.first { $0.stamp == entry.stamp && entry.kind != .merge }
    }
}
