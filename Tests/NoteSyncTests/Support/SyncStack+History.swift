import Foundation
import NoteStore
@testable import NoteSync
import NoteTestSupport

/// What the tests of history retention ask of a stack: quiet devices, for a baseline to drop
/// history, and comparisons of stores of which some hold less history than others.
extension SyncStack {
    /// Every device syncs until nothing moves, then says, each in turn, what it has applied
    /// with nothing waiting (a registration is otherwise rewritten at most every ten minutes).
    func quiet() throws {
        try syncUntilQuiet()
        for (store, engine) in zip(stores, engines) {
            try store.recordSync { ledger in try ledger.update { $0.acknowledged = nil } }
            try engine.syncNow()
        }
    }

    /// The dumps of the stores with only the versions every one of them holds: devices that
    /// started from a baseline that dropped history hold fewer.
    func commonDumps() throws -> [String] {
        var common: Set<String>?
        for store in stores {
            var keys: Set<String> = []
            for item in try store.fetch(ItemRequest(trash: .included)) {
                for version in try store.history(of: item.id) {
                    keys.insert("\(item.id) \(version.property) \(version.stamp.text)")
                }
            }
            common = common.map { $0.intersection(keys) } ?? keys
        }
        let kept = common ?? []
        return try stores.map { store in
            try CanonicalDump.of(store) { item, version in
                kept.contains("\(item) \(version.property) \(version.stamp.text)")
            }
        }
    }

    /// The versions some store holds and another lacks without a cut below which it lies,
    /// as `object property stamp on device N`: a store lacks only versions that are ancestors
    /// of its cut of that property (by the history of the store that holds the most of it).
    func versionsMissingAboveCuts() throws -> [String] {
        var held: [[String: [HistoryProperty: [Version]]]] = []
        var objects: Set<UUID> = []
        for store in stores {
            var byObject: [String: [HistoryProperty: [Version]]] = [:]
            for item in try store.fetch(ItemRequest(trash: .included)) {
                objects.insert(item.id)
                for version in try store.history(of: item.id) {
                    byObject[item.id.storeString, default: [:]][version.property, default: []].append(version)
                }
            }
            held.append(byObject)
        }
        let cuts = try stores.map { store in
            Dictionary(
                try store.historyCuts().map { ("\($0.object.storeString) \($0.property)", $0.stamp) },
                uniquingKeysWith: { first, _ in first })
        }
        var problems: [String] = []
        for object in objects.map(\.storeString).sorted() {
            for property in HistoryProperty.allCases {
                let versions = held.map { $0[object]?[property] ?? [] }
                guard let fullest = versions.max(by: { $0.count < $1.count }), !fullest.isEmpty else { continue }
                var graph = VersionGraph(fullest)
                let all = Set(fullest.map(\.stamp))
                let anywhere = Set(versions.flatMap { $0.map(\.stamp) })
                for stamp in anywhere.subtracting(all) {
                    problems.append("\(object) \(property) \(stamp.text) not on the device holding the most")
                }
                for (index, own) in versions.enumerated() where own.count < fullest.count {
                    let missing = all.subtracting(own.map(\.stamp))
                    guard let cut = cuts[index]["\(object) \(property)"] else {
                        if !own.isEmpty || !missing.isEmpty {
                            problems.append(
                                "\(object) \(property): \(missing.count) missing on device \(index), no cut")
                        }
                        continue
                    }
                    let below = graph.ancestors(of: cut)
                    for stamp in missing where !below.contains(stamp) {
                        problems.append("\(object) \(property) \(stamp.text) on device \(index)")
                    }
                }
            }
        }
        return problems
    }
}
