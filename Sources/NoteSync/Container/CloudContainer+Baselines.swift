import Foundation

/// Baselines, as files: `baselines/<device>/<sequence>.sqlite`, the database, and
/// `baselines/<device>/<sequence>.json`, its manifest, published after it.
///
/// What a baseline says is the business of ``BaselineCatalog`` and the store; here a baseline
/// is a pair of files with valid names and bounded sizes, written once and never changed.
extension CloudContainer {
    /// The most bytes a baseline's database may have.
    public static let baselineSizeLimit: Int = 64 << 30

    /// A baseline's place: its writer and sequence.
    public struct BaselineName: Hashable, Sendable {
        public let device: UUID
        public let sequence: Int64

        public var manifestPath: String {
            CloudName.baselines + "/" + CloudName.text(of: device) + "/" + CloudName.numbered(sequence, "json")
        }

        public var databasePath: String {
            CloudName.baselines + "/" + CloudName.text(of: device) + "/" + CloudName.numbered(sequence, "sqlite")
        }
    }

    /// The baselines whose manifest is in the container, and the files that were skipped.
    ///
    /// `baselines/` holds a folder per device named by its lowercase UUID, each holding
    /// `<12 digits>.sqlite` and `<12 digits>.json`; other names, links and entries of the wrong
    /// kind are skipped and reported, names starting with `.` ignored. A missing `baselines/`
    /// has none.
    public func baselineNames() throws(SyncError) -> (names: [BaselineName], skipped: [SkippedFile]) {
        var names: [BaselineName] = []
        var skipped: [SkippedFile] = []
        for folder in try visibleEntries(of: CloudName.baselines) {
            let folderPath = CloudName.baselines + "/" + folder.name
            guard let device = CloudName.uuid(folder.name) else {
                skipped.append(SkippedFile(path: folderPath, reason: .badlyNamed))
                continue
            }
            if let reason = SkippedFile.Reason(folder, expected: .folder) {
                skipped.append(SkippedFile(path: folderPath, reason: reason))
                continue
            }
            for entry in try visibleEntries(of: folderPath) {
                let path = folderPath + "/" + entry.name
                if let sequence = CloudName.sequence(of: entry.name, suffix: "json") {
                    if let reason = SkippedFile.Reason(entry, expected: .file) {
                        skipped.append(SkippedFile(path: path, reason: reason))
                    } else {
                        names.append(BaselineName(device: device, sequence: sequence))
                    }
                } else if CloudName.sequence(of: entry.name, suffix: "sqlite") == nil {
                    skipped.append(SkippedFile(path: path, reason: .badlyNamed))
                }
            }
        }
        return (names, skipped)
    }

    /// The bytes of a baseline's manifest.
    public func readBaselineManifest(_ name: BaselineName) throws(SyncError) -> Data {
        try opened(
            fileSystem.read(path(name.manifestPath), limit: storedLimit(BaselineManifest.sizeLimit, name.manifestPath)),
            name.manifestPath)
    }

    /// What `lstat(2)` says of a baseline's two files, without reading them: the manifest and
    /// the database, whose size is its plain size (the size of its bytes once opened, in an
    /// encrypted container).
    public func baselineFiles(_ name: BaselineName) throws(SyncError) -> (manifest: CloudEntry, database: CloudEntry) {
        let manifest = try fileSystem.entry(at: path(name.manifestPath))
        var database = try fileSystem.entry(at: path(name.databasePath))
        database.size = plainSize(database.size, name.databasePath)
        return (manifest, database)
    }

    /// Copies a baseline's database into the local file `destination` (made, never replaced).
    public func copyBaselineDatabase(_ name: BaselineName, to destination: URL, limit: Int) throws(SyncError) -> Int64 {
        try copyOut(name.databasePath, to: destination, limit: limit)
    }

    /// Publishes a baseline: its database, copied from the local file `database`, then its
    /// manifest, each created exclusively. Makes `baselines/` and the device's folder when
    /// missing. Throws ``SyncError/exists(path:)`` when a baseline of that sequence exists.
    public func publishBaseline(_ name: BaselineName, database: URL, manifest: Data) throws(SyncError) {
        try fileSystem.makeFolder(path(CloudName.baselines))
        try fileSystem.makeFolder(path(CloudName.baselines + "/" + CloudName.text(of: name.device)))
        guard try createCopy(of: database, at: name.databasePath) else {
            throw .exists(path: absolutePath(name.databasePath))
        }
        guard try fileSystem.create(sealed(manifest, name.manifestPath), at: path(name.manifestPath)) else {
            throw .exists(path: absolutePath(name.manifestPath))
        }
    }
}
