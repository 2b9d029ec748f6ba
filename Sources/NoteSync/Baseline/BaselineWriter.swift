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

    static let sequenceKey = "baseline.sequence"

    /// Writes a baseline now; returns its manifest. The caller holds the store's baseline
    /// lock (``SyncEngine``).
    func write() throws -> BaselineManifest {
        let recorded = Int64(try store.syncValues(withPrefix: Self.sequenceKey)[Self.sequenceKey] ?? "") ?? 0
        let own = try container.baselineNames().names.filter { $0.device == store.deviceID }.map(\.sequence).max() ?? 0
        let databasesOnly = try ownDatabaseSequences()
        let sequence = max(recorded, own, databasesOnly) + 1
        BaselineLoader.removeLeftovers(in: store.folder, .written)
        let file = BaselineLoader.temporaryFile(in: store.folder, .written)
        defer { try? FileManager.default.removeItem(at: file) }
        var manifest: BaselineManifest?
        let written = Date()
        _ = try store.copyForBaseline(to: file) { copy in
            let state = SyncState(values: copy.syncValues)
            var vector = state.applied.filter { $0.value > 0 }
            if state.exportedSequence > 0 { vector[store.deviceID] = state.exportedSequence }
            let made = BaselineManifest(
                container: containerID, device: store.deviceID, sequence: sequence, modelVersion: Store.currentModelVersion,
                vector: vector, bytes: 0, sha256: String(repeating: "0", count: 64), items: copy.items, written: written)
            manifest = made
            return made.databaseHeader
        }
        guard var manifest else { throw SyncError.unreadable("the store's copy for a baseline said nothing") }
        manifest.bytes = Int64(try FileManager.default.attributesOfItem(atPath: file.path)[.size] as? Int ?? 0)
        manifest.sha256 = try BaselineLoader.sha256(of: file)
        CrashPoint.baselineCopied.reach()
        try container.publishBaseline(
            CloudContainer.BaselineName(device: store.deviceID, sequence: sequence), database: file, manifest: CloudJSON.encode(manifest))
        CrashPoint.baselinePublished.reach()
        try store.recordSync { ledger in try ledger.setValue(String(sequence), for: Self.sequenceKey) }
        return manifest
    }

    /// The sequences of this device's baseline databases, with or without a manifest.
    private func ownDatabaseSequences() throws -> Int64 {
        let folder = CloudName.baselines + "/" + store.deviceID.storeString
        return try container.visibleEntries(of: folder).compactMap { CloudName.sequence(of: $0.name, suffix: "sqlite") }.max() ?? 0
    }
}
