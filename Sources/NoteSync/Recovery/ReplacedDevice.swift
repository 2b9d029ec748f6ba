import Foundation
import NoteStore

/// A store that was copied, or restored from a backup, took a new device id when it opened
/// (see `Store+Identity.swift` in NoteStore). Sync takes over from the old id before it does
/// anything else: what this store exported under the old id counts as applied logs of another
/// device (the old id's later logs, written by the original store or before the backup was
/// restored, are then imported like any other device's), and this device starts its own logs
/// at 1 under its new id, with a registration of its own written at its next sync.
extension SyncEngine {
    /// Returns sync's state afterwards: as read, when the store replaced no id.
    func takeOverReplacedDevice() throws -> SyncState {
        let state = try SyncState(store)
        guard let replaced = state.replacedDevice else { return state }
        try store.finishReplacement { ledger in
            let applied = max(state.applied[replaced] ?? 0, state.exportedSequence)
            if applied > 0 { try ledger.setApplied(applied, of: replaced) }
            try ledger.update { record in
                record.exportedSequence = 0
                record.exportError = nil
                record.acknowledged = nil
                record.baselineSequence = 0
                record.ownLogsChecked = nil
                if let name = state.deviceName, name.hasPrefix(ProcessInfo.processInfo.hostName + ":") {
                    // A name made from the host and the store folder follows the folder.
                    record.deviceName = Self.defaultDeviceName(for: store.folder)
                }
                if state.containerID != nil { record.registrationPending = true }
                // The id this store had before it took a new one: its unpublished versions carry it.
                record.replacedDevice = replaced
            }
        }
        return try SyncState(store)
    }

    /// Writes this device's registration when it took a new id and has none yet; returns
    /// whether it did.
    func registerAfterReplacement(_ container: CloudContainer, containerID: UUID) throws -> Bool {
        let record = try store.syncRecord()
        guard record.registrationPending else { return false }
        // A copy, or a backup, may hold edits it never published from before history was
        // dropped: they become notes of their own before anything is exported.
        _ = try UnpublishedEdits(store: store).keepIfHistoryWasDropped(in: container)
        try container.register(
            DeviceRegistration(
                container: containerID, device: store.deviceID,
                name: record.deviceName ?? Self.defaultDeviceName(for: store.folder),
                modelVersion: Store.currentModelVersion))
        try store.recordSync { ledger in try ledger.update { $0.registrationPending = false } }
        return true
    }

    /// The host and the store folder's name (`vm:laptop-notes`), so that several stores of one
    /// machine tell apart; a control character in either becomes `?`.
    public static func defaultDeviceName(for store: URL) -> String {
        let name = ProcessInfo.processInfo.hostName + ":" + store.standardizedFileURL.lastPathComponent
        return String(String.UnicodeScalarView(name.unicodeScalars.map { ControlCharacters.contains($0) ? "?" : $0 }))
    }
}
