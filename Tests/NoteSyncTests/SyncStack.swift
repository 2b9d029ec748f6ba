import Foundation
import NoteStore
import NoteSync
import NoteTestSupport

/// Several devices (stores) attached to one cloud folder, in one process, as Ensembles'
/// `SyncTestStack`.
final class SyncStack {
    let folder = TemporaryFolder("notes-sync")
    let stores: [Store]
    let engines: [SyncEngine]

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
