import Foundation
import NoteStore

/// Writes a baseline of the store into the container: the store's merged state up to the logs
/// it has applied and published (its vector), as a database copied from the store, published
/// under `baselines/<device>/<sequence>.sqlite`, then its manifest beside it.
///
/// The copy is made in the store folder and removed afterwards; the baseline's sequence is
/// recorded in the store once both files are published, and a sequence whose files exist is
/// never written again (a crash between the two leaves a database without manifest, which no
/// reader uses).
struct BaselineWriter {
    let store: Store
    let container: CloudContainer
    let containerID: UUID
    /// What a test changes of the sync (``SyncHooks``).
    var hooks = SyncHooks.none

    /// A baseline written, and what it dropped of history.
    struct Written {
        var manifest: BaselineManifest
        var history: HistoryDropped
    }

    /// Writes a baseline now. The caller holds the store's baseline lock (``SyncEngine``).
    func write() throws -> Written {
        let recorded = try store.syncRecord().baselineSequence
        let own = try container.baselineNames().names.filter { $0.device == store.deviceID }.map(\.sequence).max() ?? 0
        let databasesOnly = try ownDatabaseSequences()
        let sequence = max(recorded, own, databasesOnly) + 1
        BaselineLoader.removeLeftovers(in: store.folder, .written)
        let file = BaselineLoader.temporaryFile(in: store.folder, .written)
        defer { try? FileManager.default.removeItem(at: file) }
        var manifest: BaselineManifest?
        let written = Date()
        let retention = try HistoryRetention.of(store)
        // So that this baseline says so when an earlier one dropped history, whatever became
        // of it.
        if HistoryRetention.wasDropped(in: try BaselineCatalog.read(container, containerID: containerID)) {
            try HistoryRetention.noteDropped(in: store)
        }
        var heldBack: String?
        let copied = try store.copyForBaseline(
            to: file,
            retention: { copy in
                heldBack = try HistoryRetention.heldBack(
                    vector: Self.vector(of: copy, device: store.deviceID), unexported: copy.unexported,
                    device: store.deviceID,
                    container: container)
                return heldBack == nil ? retention.pruning(now: written) : nil
            }
        ) { copy in
            let vector = Self.vector(of: copy, device: store.deviceID)
            let made = BaselineManifest(
                container: containerID, device: store.deviceID, sequence: sequence, modelVersion: copy.modelVersion,
                vector: vector, bytes: 0, sha256: String(repeating: "0", count: 64), items: copy.items, written: written
            )
            manifest = made
            return made.databaseHeader
        }
        guard var manifest else { throw SyncError.unreadable("the store's copy for a baseline said nothing") }
        manifest.historyDropped = try copied.recordsCuts || HistoryRetention.wasDropped(in: store)
        manifest.bytes = Int64(try FileManager.default.attributesOfItem(atPath: file.path)[.size] as? Int ?? 0)
        manifest.sha256 = try BaselineLoader.sha256(of: file)
        hooks.reach(.baselineCopied)
        try container.publishBaseline(
            CloudContainer.BaselineName(device: store.deviceID, sequence: sequence), database: file,
            manifest: CloudJSON.encode(manifest))
        hooks.reach(.baselinePublished)
        try store.recordSync { ledger in try ledger.update { $0.baselineSequence = sequence } }
        // Carried into this store's later baselines, and what a device that comes back with
        // edits of its own is checked against.
        try store.recordHistoryCuts(copied.cuts)
        if manifest.historyDropped { try HistoryRetention.noteDropped(in: store) }
        let pruning = retention.pruning(now: written)
        if heldBack != nil,
            try !HistoryPruning.hasCandidates(
                minimumVersions: pruning.minimumVersions, olderThan: pruning.olderThan, in: store)
        {
            heldBack = nil
        }
        return Written(
            manifest: manifest,
            history: HistoryDropped(
                versions: copied.cuts.reduce(0) { $0 + $1.dropped.count }, properties: copied.cuts.count,
                heldBack: heldBack))
    }

    /// The vector of a copy: what it had applied, and this device's last published log.
    static func vector(of copy: BaselineCopy, device: UUID) -> [UUID: Int64] {
        let state = SyncState(copy.sync)
        var vector = state.applied.filter { $0.value > 0 }
        if state.exportedSequence > 0 { vector[device] = state.exportedSequence }
        return vector
    }

    /// The sequences of this device's baseline databases, with or without a manifest.
    private func ownDatabaseSequences() throws -> Int64 {
        let folder = CloudName.baselines + "/" + store.deviceID.storeString
        return try container.visibleEntries(of: folder).compactMap { CloudName.sequence(of: $0.name, suffix: "sqlite") }
            .max() ?? 0
    }
}

/// What a baseline dropped of history: how many versions, of how many names and bodies; or
/// why it kept all of it when no version may go yet (docs/sync-format.md, "Retention of
/// history").
public struct HistoryDropped: Sendable, Equatable {
    public var versions: Int
    public var properties: Int
    /// Why nothing could go of history the settings do not keep: a device that is not quiet,
    /// named; nil when the copy was quiet or there was nothing to drop.
    public var heldBack: String?
}
