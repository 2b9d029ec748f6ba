import Foundation
import NoteStore
import NoteSync
import NoteTestSupport

/// Several devices (stores) attached to one cloud folder, in one process, as Ensembles'
/// `SyncTestStack`.
final class SyncStack {
    let folder = TemporaryFolder("notes-sync")
    private(set) var stores: [Store]
    private(set) var engines: [SyncEngine]

    var cloud: URL { folder.appending("cloud") }

    init(devices: Int, enable: Bool = true) throws {
        let folder = self.folder
        try FileManager.default.createDirectory(at: folder.appending("cloud"), withIntermediateDirectories: true)
        stores = try (0..<devices).map { try Store(folder: folder.appending("device-\($0)")) }
        engines = stores.map(SyncEngine.init(store:))
        if enable {
            for (index, engine) in engines.enumerated() {
                try engine.enable(cloud: cloud, deviceName: "device-\(index)")
            }
        }
    }

    /// A new device joins: a store folder without a database, made from the container's
    /// newest baseline when there is one (else opened and enabled as usual); returns what
    /// joining reported.
    @discardableResult
    func join() throws -> SyncReport {
        let index = stores.count
        let folder = folder.appending("device-\(index)")
        if let (engine, report) = try SyncEngine.join(folder: folder, cloud: cloud, deviceName: "device-\(index)") {
            stores.append(engine.store)
            engines.append(engine)
            return report
        }
        let store = try Store(folder: folder)
        let engine = SyncEngine(store: store)
        stores.append(store)
        engines.append(engine)
        return try engine.enable(cloud: cloud, deviceName: "device-\(index)")
    }

    /// Adds a device with a store of its own, not enabled.
    func addStore() throws -> Store {
        let store = try Store(folder: folder.appending("device-\(stores.count)"))
        stores.append(store)
        engines.append(SyncEngine(store: store))
        return store
    }

    /// Every device syncs, in turn, until a whole round changes nothing.
    func syncUntilQuiet(rounds: Int = 10) throws {
        for _ in 0..<rounds {
            var moved = 0
            for engine in engines {
                let report = try engine.syncNow()
                moved += report.exportedLogs + report.importedLogs
            }
            if moved == 0 { return }
        }
    }

    func dumps() throws -> [String] {
        try stores.map(CanonicalDump.of)
    }
}
