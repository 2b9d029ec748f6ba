import Foundation
import NoteStore
import NoteSync
import NoteTerminal

/// Sync reports and status as text for people.
enum SyncOutput {
    static func show(_ report: SyncReport) {
        var line =
            "exported \(report.exportedLogs) log\(report.exportedLogs == 1 ? "" : "s"), "
            + "imported \(report.importedLogs) log\(report.importedLogs == 1 ? "" : "s") "
            + "(\(Plural.changes(report.importedChanges)))"
        if report.leftOut > 0 { line += ", left out \(Plural.changes(report.leftOut)) that break the model's rules" }
        if let baseline = report.baseline {
            print("started from the baseline \(baseline.path) (\(Plural.items(baseline.items)))")
        }
        if let joined = report.joinedContainer {
            print(
                "another device created the container at the same time, and the cloud folder kept its one "
                    + "(\(joined.storeString)): this device attached to it and pushed its notes into it; "
                    + "nothing was lost"
            )
        }
        if report.recoveredLogs > 0 {
            print(
                "this store was behind what its device published (restored from a backup, or a copy): "
                    + "took back \(Plural.logs(Int64(report.recoveredLogs))) of its own before exporting; "
                    + "nothing was lost"
            )
        }
        if report.keptEdits > 0 {
            print(
                "this device came back without its registration, and the container has dropped old history since: "
                    + "kept its unpublished edits of \(Plural.items(report.keptEdits)) "
                    + "as notes of their own, named '(kept, …)'; nothing was lost"
            )
        }
        print(line)
        if report.conflicts > 0 {
            print(
                "conflicts: \(report.conflicts) concurrent edit\(report.conflicts == 1 ? "" : "s") could not merge; "
                    + "nothing was lost: see 'notes conflicts'")
        }
        for waiting in report.waiting { print("waiting: \(waiting.path): \(waiting.reason)") }
        let (foreign, others) = partition(report.skipped)
        for line in bounded(others) { print("skipped: " + line) }
        if let line = summary(ofForeign: foreign) { print("skipped: \(line)") }
        for (device, ahead) in report.clocksAhead.sorted(by: { $0.key.storeString < $1.key.storeString }) {
            print("clock: device \(device.storeString) runs \(ClockSkew.describe(ahead)) ahead of this one")
        }
    }

    /// How many skipped files are shown one a line; more are counted, and listed in full by
    /// `notes sync status --json`.
    static let skippedShown = 5

    /// Lines for skipped files: each, when there are at most ``skippedShown``; else their
    /// count by reason, the first few, and how many more.
    private static func bounded(_ skipped: [SkippedFile]) -> [String] {
        let lines = skipped.map { "\($0.path): \($0.reason)" }
        guard skipped.count > skippedShown else { return lines }
        var counts: [String: Int] = [:]
        for file in skipped { counts[file.reason.kind, default: 0] += 1 }
        let byReason = counts.sorted { $0.value != $1.value ? $0.value > $1.value : $0.key < $1.key }
            .map { "\($0.value) \($0.key)" }.joined(separator: ", ")
        return ["\(skipped.count) files (\(byReason))"] + lines.prefix(skippedShown)
            + ["and \(skipped.count - skippedShown) more: 'notes sync status --json' lists them all"]
    }

    /// The logs of an earlier container under the same name, apart from the other skipped files.
    private static func partition(_ skipped: [SkippedFile]) -> (foreign: [SkippedFile], others: [SkippedFile]) {
        let foreign = skipped.filter { $0.reason == .foreignContainer && $0.path.hasPrefix("logs/") }
        return (foreign, skipped.filter { !($0.reason == .foreignContainer && $0.path.hasPrefix("logs/")) })
    }

    /// One line for the logs of an earlier container, however many: they are passed over for good.
    private static func summary(ofForeign logs: [SkippedFile]) -> String? {
        guard !logs.isEmpty else { return nil }
        let devices = Set(logs.map { $0.path.split(separator: "/").dropFirst().first ?? "" }).count
        return "\(Plural.logs(Int64(logs.count))) of \(devices) device\(devices == 1 ? "" : "s") "
            + "belong to an earlier container of this name: passed over for good"
    }

    static func describe(_ status: SyncStatus) -> String {
        var lines: [String] = []
        var state = status.state.rawValue
        if let reason = status.reason { state += ": \(reason)" }
        if let since = status.since { state += " (since \(Timestamp.iso(since)))" }
        lines.append("state:     \(state)")
        if let cloud = status.cloud { lines.append("cloud:     \(cloud)") }
        if let name = status.containerName, let id = status.container {
            lines.append("container: \(name) (\(id.storeString))")
        }
        if status.encryption.encrypted {
            lines.append(
                "encrypted: yes, "
                    + (status.encryption.keyHeld
                        ? "the container key is kept in this store"
                        : "the key is needed: the next 'notes sync now' asks for the passphrase"))
        }
        lines.append(
            "device:    \(status.deviceName ?? "-") (\(status.device.storeString)), "
                + "\(Plural.logs(status.exportedSequence)) published"
        )
        lines.append(
            status.recordsChanges
                ? "pending:   \(Plural.changes(status.pendingExports)) to export"
                : "pending:   never synced: 'notes sync enable' sends everything this store holds")
        if let failure = status.exportError {
            lines.append(
                "export:    failed at \(Timestamp.iso(failure.date)): "
                    + "\(TerminalText.escaped(failure.message, keepingLayout: false))"
            )
        }
        if let last = status.lastSync { lines.append("last sync: \(Timestamp.iso(last))") }
        if let catchUp = status.catchUp {
            lines.append(
                "catch-up:  \(catchUp.logsApplied) of \(Plural.logs(Int64(catchUp.logsToApply))) applied, "
                    + "\(Plural.changes(catchUp.changesApplied)) "
                    + "(process \(catchUp.process), since \(Timestamp.iso(catchUp.started)))"
            )
        }
        if let baseline = status.newestBaseline {
            let writer =
                status.devices.first { $0.id == baseline.device }?.name
                ?? (baseline.device == status.device ? status.deviceName : nil)
            lines.append(
                "baseline:  \(baseline.sequence) of \(writer ?? "-") (\(baseline.device.storeString)), "
                    + "\(Plural.items(baseline.items)), \(Plural.logs(baseline.logCount)), \(size(baseline.bytes)), "
                    + "written \(Timestamp.iso(baseline.written))"
            )
        }
        if !status.devices.isEmpty {
            lines.append("devices:")
            for device in status.devices {
                lines.append(
                    "  \(device.name ?? "-") (\(device.id.storeString)): "
                        + "applied \(device.applied) of \(Plural.logs(device.available))"
                )
            }
        }
        let ahead = status.devices.filter { $0.clockAhead != nil }
        if !ahead.isEmpty {
            lines.append("clocks:")
            for device in ahead {
                lines.append(
                    "  \(device.name ?? "-") (\(device.id.storeString)) "
                        + "runs \(ClockSkew.describe(device.clockAhead ?? 0)) "
                        + "ahead of this device (at its last log)"
                )
            }
        }
        if !status.waiting.isEmpty {
            lines.append("waiting:")
            lines += status.waiting.map { "  \($0.path): \($0.reason)" }
        }
        if !status.skipped.isEmpty {
            let (foreign, others) = partition(status.skipped)
            lines.append("skipped:")
            lines += bounded(others).map { "  " + $0 }
            if let line = summary(ofForeign: foreign) { lines.append("  " + line) }
        }
        return lines.joined(separator: "\n") + "\n"
    }

    /// A size in bytes as people read it: `812 bytes`, `4.2 MiB`.
    static func size(_ bytes: Int64) -> String {
        if bytes < 1024 { return "\(bytes) bytes" }
        let units = ["KiB", "MiB", "GiB", "TiB"]
        var value = Double(bytes) / 1024
        var unit = 0
        while value >= 1024, unit < units.count - 1 {
            value /= 1024
            unit += 1
        }
        return String(format: "%.1f %@", value, units[unit])
    }
}

extension SkippedFile.Reason {
    /// The reason without the details of one file, to count files by.
    var kind: String {
        switch self {
        case .unreadable: return "unreadable"
        case .damaged: return "damaged"
        default: return description
        }
    }
}

extension Plural {
    static func logs(_ count: Int64) -> String {
        "\(count) log\(count == 1 ? "" : "s")"
    }

    static func changes(_ count: Int) -> String {
        "\(count) change\(count == 1 ? "" : "s")"
    }
}

/// The JSON shape of `sync status`.
struct SyncStatusJSON: Encodable {
    struct DeviceJSON: Encodable {
        let id: String
        let name: String?
        let this: Bool
        let applied: Int64?
        let available: Int64
        /// Whole seconds its clock ran ahead of this device's at its last log, when over a minute.
        let clockAheadSeconds: Int?

        init(id: String, name: String?, this: Bool, applied: Int64?, available: Int64, clockAheadSeconds: Int? = nil) {
            self.id = id
            self.name = name
            self.this = this
            self.applied = applied
            self.available = available
            self.clockAheadSeconds = clockAheadSeconds
        }

        init(_ device: SyncStatus.Device) {
            self.init(
                id: device.id.storeString, name: device.name, this: false, applied: device.applied,
                available: device.available,
                clockAheadSeconds: device.clockAhead.map { Int($0) })
        }

        enum CodingKeys: String, CodingKey { case id, name, this, applied, available, clockAheadSeconds }

        /// Every key, null when there is no value, so that every object of an array has the same keys.
        func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(id, forKey: .id)
            try container.encode(name, forKey: .name)
            try container.encode(this, forKey: .this)
            try container.encode(applied, forKey: .applied)
            try container.encode(available, forKey: .available)
            try container.encode(clockAheadSeconds, forKey: .clockAheadSeconds)
        }
    }

    struct FileJSON: Encodable {
        let path: String
        let reason: String
    }

    let state: String
    let reason: String?
    let since: String?
    let cloud: String?
    let containerName: String?
    let container: String?
    let device: DeviceJSON
    let devices: [DeviceJSON]
    let pendingExports: Int
    let recordsChanges: Bool
    let waiting: [FileJSON]
    let skipped: [FileJSON]
    let lastSync: String?
    let watcher: WatcherJSON
    let catchUp: CatchUpJSON?
    let baseline: BaselineJSON?
    let exportError: ExportErrorJSON?
    let encrypted: Bool
    /// Whether this store keeps the container key; null for a plain container.
    let keyHeld: Bool?

    /// The last export that failed: when, and why.
    struct ExportErrorJSON: Encodable {
        let failed: String
        let reason: String
    }

    /// The newest baseline: where it is and what it holds.
    struct BaselineJSON: Encodable {
        let device: String
        let sequence: Int64
        let items: Int
        let logs: Int64
        let bytes: Int64
        let written: String
    }

    /// An import of several logs under way: its process, and how far it has come.
    struct CatchUpJSON: Encodable {
        let pid: Int32
        let logsApplied: Int
        let logsToApply: Int
        let changesApplied: Int
        let started: String
    }

    struct WatcherJSON: Encodable {
        let running: Bool
        let pid: Int32?

        enum CodingKeys: String, CodingKey { case running, pid }

        func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(running, forKey: .running)
            try container.encode(pid, forKey: .pid)
        }
    }

    init(_ status: SyncStatus, watcher pid: Int32?) {
        watcher = WatcherJSON(running: pid != nil, pid: pid)
        state = status.state.rawValue
        reason = status.reason
        since = status.since.map(Timestamp.iso)
        cloud = status.cloud
        containerName = status.containerName
        container = status.container?.storeString
        device = DeviceJSON(
            id: status.device.storeString, name: status.deviceName, this: true, applied: nil,
            available: status.exportedSequence)
        devices = status.devices.map(DeviceJSON.init)
        pendingExports = status.pendingExports
        recordsChanges = status.recordsChanges
        waiting = status.waiting.map { FileJSON(path: $0.path, reason: $0.reason) }
        skipped = status.skipped.map { FileJSON(path: $0.path, reason: $0.reason.description) }
        lastSync = status.lastSync.map(Timestamp.iso)
        catchUp = status.catchUp.map {
            CatchUpJSON(
                pid: $0.process, logsApplied: $0.logsApplied, logsToApply: $0.logsToApply,
                changesApplied: $0.changesApplied,
                started: Timestamp.iso($0.started))
        }
        exportError = status.exportError.map { ExportErrorJSON(failed: Timestamp.iso($0.date), reason: $0.message) }
        encrypted = status.encryption.encrypted
        keyHeld = status.encryption.encrypted ? status.encryption.keyHeld : nil
        baseline = status.newestBaseline.map {
            BaselineJSON(
                device: $0.device.storeString, sequence: $0.sequence, items: $0.items, logs: $0.logCount,
                bytes: $0.bytes,
                written: Timestamp.iso($0.written))
        }
    }

    enum CodingKeys: String, CodingKey {
        case state, reason, since, cloud, containerName, container, device, devices, pendingExports, recordsChanges,
            waiting, skipped
        case lastSync
        case watcher, catchUp, baseline, exportError, encrypted, keyHeld
    }

    func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(state, forKey: .state)
        try container.encode(reason, forKey: .reason)
        try container.encode(since, forKey: .since)
        try container.encode(cloud, forKey: .cloud)
        try container.encode(containerName, forKey: .containerName)
        try container.encode(self.container, forKey: .container)
        try container.encode(device, forKey: .device)
        try container.encode(devices, forKey: .devices)
        try container.encode(pendingExports, forKey: .pendingExports)
        try container.encode(recordsChanges, forKey: .recordsChanges)
        try container.encode(waiting, forKey: .waiting)
        try container.encode(skipped, forKey: .skipped)
        try container.encode(lastSync, forKey: .lastSync)
        try container.encode(watcher, forKey: .watcher)
        try container.encode(encrypted, forKey: .encrypted)
        try container.encode(keyHeld, forKey: .keyHeld)
        try container.encode(catchUp, forKey: .catchUp)
        try container.encode(baseline, forKey: .baseline)
        try container.encode(exportError, forKey: .exportError)
    }
}
