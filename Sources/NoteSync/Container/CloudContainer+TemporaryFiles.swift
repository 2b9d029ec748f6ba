import Foundation

extension CloudContainer {
    /// How old a temporary file must be before its writer takes it for one a killed process
    /// left: a write in progress takes seconds.
    static let staleTemporaryAge: TimeInterval = 3600

    /// Removes the temporary files that `device` left and that are older than
    /// ``staleTemporaryAge`` at `now`: those named `.tmp-<device>-…` in the folders it writes
    /// to, and any temporary file in its own log folder. Returns how many it removed.
    ///
    /// Best effort: a folder that cannot be listed or a file that cannot be removed is left
    /// for the next time. Other devices' temporary files are never touched: they may be
    /// writes in progress, and a device writes only in its own namespace.
    @discardableResult
    func removeStaleTemporaryFiles(of device: UUID, now: Date = Date()) -> Int {
        let own = LocalCloudFileSystem.temporaryPrefix + device.storeString + "-"
        let cutoff = now.addingTimeInterval(-Self.staleTemporaryAge)
        let folders: [(path: String, prefix: String)] = [
            ("", own), (CloudName.devices, own), (CloudName.blobs, own),
            (CloudName.logs + "/" + CloudName.text(of: device), LocalCloudFileSystem.temporaryPrefix),
        ]
        var removed = 0
        for (folder, prefix) in folders {
            guard let entries = try? fileSystem.list(path(folder)) else { continue }
            for entry in entries where entry.kind == .file && entry.name.hasPrefix(prefix) {
                guard let modified = entry.modified, modified < cutoff else { continue }
                if (try? fileSystem.remove(path(folder.isEmpty ? entry.name : folder + "/" + entry.name))) != nil {
                    removed += 1
                }
            }
        }
        return removed
    }
}
