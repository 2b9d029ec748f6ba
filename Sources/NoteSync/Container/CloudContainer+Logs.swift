import Foundation

/// Transaction log files, as bytes: `logs/<device>/<sequence>.log`.
///
/// What a log says is the business of the log reader; here a log is a file with a valid name
/// and a bounded size that is written once and never changed.
extension CloudContainer {
    /// The most bytes a log may have; larger files are refused without being read.
    public static let logSizeLimit = 64 * 1024 * 1024

    /// The devices that have a log folder: folders in `logs/` named by a lowercase UUID, in
    /// order of their names.
    ///
    /// Skipped and reported: other names, links (never followed, even to a folder), files and
    /// other non-folders. Names starting with `.` are ignored. Throws when `logs/` cannot be
    /// listed; a missing `logs/` has no devices.
    public func logDevices() throws(SyncError) -> (devices: [UUID], skipped: [SkippedFile]) {
        var devices: [UUID] = []
        var skipped: [SkippedFile] = []
        for entry in try visibleEntries(of: CloudName.logs) {
            let reason: SkippedFile.Reason?
            if let device = CloudName.uuid(entry.name) {
                reason = SkippedFile.Reason(entry, expected: .folder)
                if reason == nil { devices.append(device) }
            } else {
                reason = .badlyNamed
            }
            if let reason { skipped.append(SkippedFile(path: CloudName.logs + "/" + entry.name, reason: reason)) }
        }
        return (devices, skipped)
    }

    /// Entries of the container folder other than the five it is made of (`container.json`,
    /// `devices`, `logs`, `blobs`, `baselines`): a file-sync engine's conflict copy of the
    /// sentinel (`container.sync-conflict-*.json`, `container (conflicted copy).json`) or
    /// anything else put there. Reported as badly named, never read; names starting with `.`
    /// are ignored.
    public func strayEntries() throws(SyncError) -> [SkippedFile] {
        let known: Set<String> = [
            CloudName.descriptor, CloudName.keyFile, CloudName.devices, CloudName.logs, CloudName.blobs,
            CloudName.baselines,
        ]
        return try visibleEntries(of: "").filter { !known.contains($0.name) }.map {
            SkippedFile(path: $0.name, reason: .badlyNamed)
        }
    }

    /// The sequences of the logs of `device`, in increasing order.
    ///
    /// A log's name is exactly 12 decimal digits and `.log`, for a sequence of at least 1.
    /// Skipped and reported: other names, links, folders and other non-files. Names starting
    /// with `.` (temporary files) are ignored. A device without a log folder has no logs;
    /// a log folder that is a link is an error, never followed.
    public func logSequences(of device: UUID) throws(SyncError) -> (sequences: [Int64], skipped: [SkippedFile]) {
        let folder = logFolder(of: device)
        var sequences: [Int64] = []
        var skipped: [SkippedFile] = []
        for entry in try visibleEntries(of: folder) {
            let reason: SkippedFile.Reason?
            if let sequence = CloudName.sequence(ofLog: entry.name) {
                reason = SkippedFile.Reason(entry, expected: .file)
                if reason == nil { sequences.append(sequence) }
            } else {
                reason = .badlyNamed
            }
            if let reason { skipped.append(SkippedFile(path: folder + "/" + entry.name, reason: reason)) }
        }
        return (sequences.sorted(), skipped)
    }

    /// The sizes of the logs of `device`, by sequence, as its folder lists them (skipped files
    /// left out; see ``logSequences(of:)``).
    public func logSizes(of device: UUID) throws(SyncError) -> [Int64: Int64] {
        var sizes: [Int64: Int64] = [:]
        for entry in try visibleEntries(of: logFolder(of: device)) where entry.kind == .file {
            if let sequence = CloudName.sequence(ofLog: entry.name) {
                sizes[sequence] = plainSize(entry.size, logPath(of: device, sequence: sequence))
            }
        }
        return sizes
    }

    /// The bytes of a log, refused when it has more than `limit` bytes or is not a regular
    /// file (a link is never followed).
    public func readLog(device: UUID, sequence: Int64, limit: Int = logSizeLimit) throws(SyncError) -> Data {
        try CloudName.requireSequence(sequence)
        let relative = logPath(of: device, sequence: sequence)
        return try opened(fileSystem.read(path(relative), limit: storedLimit(limit, relative)), relative)
    }

    /// Publishes a log: writes it atomically under its final name, only if no log of that
    /// sequence exists.
    ///
    /// A published log is immutable: an existing one is never replaced, and
    /// ``SyncError/exists(path:)`` is thrown instead (after a crash, the writer reads it back
    /// to find whether it is its own). Makes the device's log folder when missing, but never
    /// `logs/` itself: a container that was removed is not brought back.
    public func writeLog(device: UUID, sequence: Int64, data: Data) throws(SyncError) {
        try CloudName.requireSequence(sequence)
        let relative = logPath(of: device, sequence: sequence)
        guard data.count <= Self.logSizeLimit else {
            throw .tooLarge(path: absolutePath(relative), limit: Self.logSizeLimit)
        }
        try fileSystem.makeFolder(path(logFolder(of: device)))
        guard try fileSystem.create(sealed(data, relative), at: path(relative)) else {
            throw .exists(path: absolutePath(relative))
        }
    }

    /// Whether the log of `device` and `sequence` is there, with its size in bytes.
    ///
    /// Decided by `lstat(2)` of the name (a log is looked up often, in folders of many
    /// files): `absent` when it does not exist, `unreadable` when it cannot be looked up or is
    /// not a regular file.
    public func logPresence(device: UUID, sequence: Int64) -> Presence<Int64> {
        guard (1...CloudName.maximumSequence).contains(sequence) else {
            return .unreadable(SyncError.invalidName(String(sequence), reason: "not a log sequence").description)
        }
        let relative = logPath(of: device, sequence: sequence)
        do {
            let entry = try fileSystem.entry(at: path(relative))
            if let reason = SkippedFile.Reason(entry, expected: .file) {
                return .unreadable("'\(absolutePath(relative))': \(reason)")
            }
            return .present(plainSize(entry.size, relative))
        } catch {
            if case .missing = error { return .absent }
            return .unreadable(error.description)
        }
    }

    func logFolder(of device: UUID) -> String {
        CloudName.logs + "/" + CloudName.text(of: device)
    }

    func logPath(of device: UUID, sequence: Int64) -> String {
        logFolder(of: device) + "/" + CloudName.log(sequence)
    }
}
