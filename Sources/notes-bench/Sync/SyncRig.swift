import Foundation
import NoteStore

/// Devices on this machine that sync through one cloud folder, as a person with several
/// machines would have them: each a store folder, attached with `notes sync enable`, with a
/// `notes watch` of its own when a scenario needs live sync.
///
/// Everything goes through the `notes` binary, as separate processes, so the figures are those
/// of the product as it runs.
final class SyncRig {
    let bench: Workbench
    let cloud: URL
    /// The passphrase of the container, which `enable` makes encrypted when there is one.
    let passphrase: String?
    private let notes: ProcessRunner
    private var watchers: [BackgroundProcess] = []

    init(bench: Workbench, label: String, passphrase: String? = nil) throws {
        self.bench = bench
        self.passphrase = passphrase
        cloud = try bench.makeFolder("\(label)-cloud")
        var notes = try bench.notes()
        if let passphrase { notes.environment["NOTES_PASSPHRASE"] = passphrase }
        self.notes = notes
    }

    deinit {
        for watcher in watchers { _ = try? watcher.stop() }
    }

    /// A new store folder for a device, not yet attached.
    func makeDevice(_ name: String) throws -> URL {
        try bench.makeFolder("device-\(name)")
    }

    /// Attaches the store to the cloud folder's container with `notes sync enable` (which
    /// pushes the store's notes and imports the others'); returns that run.
    @discardableResult
    /// `cloud`, when given, is the device's own copy of the shared folder (a file-sync engine
    /// keeps the copies in step); else the rig's one folder.
    func enable(_ store: URL, name: String, cloud: URL? = nil) throws -> SyncRun {
        SyncRun(
            try notes.run(
                ["--store", store.path, "sync", "enable", "--cloud", (cloud ?? self.cloud).path, "--device-name", name]
                    + (passphrase == nil ? [] : ["--encrypt"]),
                capturingOutput: true, measuringMemory: true))
    }

    /// A new device joins with `notes sync enable`: it must start from the container's newest
    /// baseline and then hold `expected`, else the scenario stops, naming `what` was joined.
    /// Returns that run.
    func joinFromBaseline(_ store: URL, name: String, holding expected: NoteSummary, what: String) throws -> SyncRun {
        let joined = try enable(store, name: name)
        guard joined.process.output.contains("started from the baseline"),
            try ArrivalProbe(store: store).noteSummary() == expected
        else {
            throw BenchError.unexpected(
                "the new device did not join \(what) from the baseline: \(joined.process.output)")
        }
        return joined
    }

    /// `notes sync compact` on the store, as a process: a baseline of it into the container.
    @discardableResult
    func compact(_ store: URL) throws -> SyncRun {
        SyncRun(
            try notes.run(["--store", store.path, "sync", "compact"], capturingOutput: true, measuringMemory: true))
    }

    /// `notes sync now` on the store, as a process.
    @discardableResult
    func syncNow(_ store: URL) throws -> SyncRun {
        SyncRun(try notes.run(["--store", store.path, "sync", "now"], capturingOutput: true, measuringMemory: true))
    }

    /// `notes sync status` on the store, as a process.
    func status(_ store: URL) throws -> ProcessRunner.Run {
        try notes.run(["--store", store.path, "sync", "status"], capturingOutput: true)
    }

    /// Starts `notes watch` on the store and waits until it watches the container.
    @discardableResult
    func startWatcher(_ store: URL, name: String) throws -> BackgroundProcess {
        let watcher = try BackgroundProcess(
            bench.notesBinary, ["--store", store.path, "watch"], label: "notes watch (\(name))",
            errorFile: store.deletingLastPathComponent().appendingPathComponent("watch-\(name).err"))
        watchers.append(watcher)
        try watcher.waitForError(containing: "watching '", within: 30)
        return watcher
    }

    /// Two attached devices, A and B, each with its watcher running, and a collection saved
    /// on A that has reached B: what the live-sync scenarios measure with.
    struct WatchedPair {
        let deviceA: URL
        let deviceB: URL
        /// A's store, opened in this process, to save through.
        let store: Store
        /// B's store, read-only, to see what arrived.
        let probe: ArrivalProbe
        /// The collection the notes go into.
        let collection: UUID

        /// Saves one note on A and polls B until it is readable; returns the time from the
        /// start of the save and from its commit, in milliseconds.
        func saveAndWait(name: String, body: String) throws -> (total: Double, afterCommit: Double) {
            let clock = ContinuousClock()
            let start = clock.now
            let note = try store.addNote(named: name, body: body, in: collection)
            let committed = clock.now
            guard let arrived = try probe.wait(within: 10, until: { try probe.has(note.id) }) else {
                throw BenchError.unexpected("note '\(name)' saved on A was not readable on B within 10 s")
            }
            return ((arrived - start).milliseconds, (arrived - committed).milliseconds)
        }
    }

    /// `prepare`, when given, runs on A's store folder before A is attached.
    func watchedPair(collection name: String, label: String = "", prepare: ((URL) throws -> Void)? = nil) throws
        -> WatchedPair
    {
        let deviceA = try makeDevice("A\(label)")
        let deviceB = try makeDevice("B\(label)")
        try prepare?(deviceA)
        try enable(deviceA, name: "A\(label)")
        try enable(deviceB, name: "B\(label)")
        try startWatcher(deviceA, name: "A\(label)")
        try startWatcher(deviceB, name: "B\(label)")
        let store = try Store(folder: deviceA)
        let probe = try ArrivalProbe(store: deviceB)
        let collection = try store.addCollection(named: name, in: nil).id
        guard try probe.wait(within: 30, until: { try probe.has(collection) }) != nil else {
            throw BenchError.unexpected("a collection saved on A did not reach B within 30 s")
        }
        return WatchedPair(deviceA: deviceA, deviceB: deviceB, store: store, probe: probe, collection: collection)
    }

    /// Stops every watcher; returns their peak resident memory in bytes, in the order started.
    @discardableResult
    func stopWatchers() throws -> [Int] {
        defer { watchers.removeAll() }
        return try watchers.map { try $0.stop() }
    }
}

/// A run of `notes sync enable` or `notes sync now`, with what it said it did.
struct SyncRun {
    let process: ProcessRunner.Run
    /// From its line "exported E logs, imported I logs (C changes)".
    let exportedLogs: Int
    let importedLogs: Int
    let importedChanges: Int

    init(_ process: ProcessRunner.Run) {
        self.process = process
        let line = process.output.split(separator: "\n").first { $0.hasPrefix("exported ") } ?? ""
        let numbers = line.split(whereSeparator: { !$0.isNumber }).compactMap { Int($0) }
        exportedLogs = numbers.count > 0 ? numbers[0] : 0
        importedLogs = numbers.count > 1 ? numbers[1] : 0
        importedChanges = numbers.count > 2 ? numbers[2] : 0
    }

    var milliseconds: Double { process.milliseconds }
    var peakMebibytes: Double { process.peakMebibytes }
}
