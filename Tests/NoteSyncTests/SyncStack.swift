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

    /// The passphrase of the container, which is encrypted when there is one.
    let passphrase: String?
    /// scrypt at its lowest accepted cost for an encrypted container; nothing else.
    let hooks: SyncHooks

    var cloud: URL { folder.appending("cloud") }

    /// `devices` stores, enabled in turn unless `enable` is false; with a `passphrase`, the
    /// first one makes the container encrypted (with scrypt at its lowest accepted cost) and
    /// every device gives that passphrase. Device `i` reads `clocks[i]` when there is one, else
    /// the system clock.
    init(devices: Int, enable: Bool = true, passphrase: String? = nil, clocks: [WallClock] = []) throws {
        let folder = self.folder
        self.passphrase = passphrase
        hooks = passphrase == nil ? .none : SyncHooks(scryptCost: "1024")
        try FileManager.default.createDirectory(at: folder.appending("cloud"), withIntermediateDirectories: true)
        stores = try (0..<devices).map { index in
            try Store(
                folder: folder.appending("device-\(index)"), wallClock: index < clocks.count ? clocks[index] : .system)
        }
        engines = []
        engines = stores.map(engine(of:))
        if enable {
            for (index, engine) in engines.enumerated() {
                try engine.enable(cloud: cloud, deviceName: "device-\(index)", encrypt: passphrase != nil)
            }
        }
    }

    /// An engine on `store` that gives the stack's passphrase when asked.
    func engine(of store: Store) -> SyncEngine {
        let engine = SyncEngine(store: store, hooks: hooks)
        if let passphrase { engine.passphrase = { _ in passphrase } }
        return engine
    }

    /// A handle on the container, sealed with its key when it is encrypted (read from the
    /// store of the first device).
    func container() throws -> CloudContainer {
        var container = try CloudContainer.create(in: cloud)
        if passphrase != nil, let key = StoredKey.read(in: stores[0].folder, container: container.identity) {
            container.sealing = FileSealing(key: key, container: container.identity)
        }
        return container
    }

    /// The logs of `device` in the container, in order.
    func logs(of device: UUID) throws -> [TransactionLog] {
        let container = try container()
        return try container.logSequences(of: device).sequences.map {
            try LogCodec.decode(container.readLog(device: device, sequence: $0))
        }
    }

    /// A new device joins: a store folder without a database, made from the container's
    /// newest baseline when there is one (else opened and enabled as usual); returns what
    /// joining reported.
    @discardableResult
    func join() throws -> SyncReport {
        let index = stores.count
        let folder = folder.appending("device-\(index)")
        let given = passphrase
        if let (engine, report) = try SyncEngine.join(
            folder: folder, cloud: cloud, deviceName: "device-\(index)",
            passphrase: given.map { text in { _ in text } },
            hooks: hooks)
        {
            stores.append(engine.store)
            engines.append(engine)
            return report
        }
        let store = try Store(folder: folder)
        let engine = engine(of: store)
        stores.append(store)
        engines.append(engine)
        return try engine.enable(cloud: cloud, deviceName: "device-\(index)")
    }

    /// Adds a device with a store of its own, not enabled.
    func addStore() throws -> Store {
        let store = try Store(folder: folder.appending("device-\(stores.count)"))
        stores.append(store)
        engines.append(engine(of: store))
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
        try stores.map { try CanonicalDump.of($0) }
    }
}
