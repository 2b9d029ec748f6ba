import Foundation
import NoteStore

/// The baselines of a container and the choice among them (docs/sync-format.md, "Baselines").
///
/// Every device orders the baselines it can read the same way, newest first: by the number of
/// logs they hold (the sum of their vectors), then by writer id and sequence, greatest first.
/// So devices that see the same files choose the same baseline, whoever wrote them and in
/// whatever order they arrived. A baseline is only of use when the logs after it are still
/// there: ``isComplete(_:logs:)``.
struct BaselineCatalog {
    struct Entry {
        let name: CloudContainer.BaselineName
        let manifest: BaselineManifest
    }

    /// Readable baselines of the container, newest first.
    let entries: [Entry]
    /// Manifests that could not be used, and why.
    let skipped: [SkippedFile]

    /// Reads the manifests of `container`; those of another container, of another name than
    /// their file's, of a newer model or that cannot be read are skipped and reported.
    static func read(_ container: CloudContainer, containerID: UUID) throws(SyncError) -> BaselineCatalog {
        let (names, skippedNames) = try container.baselineNames()
        var skipped = skippedNames
        var entries: [Entry] = []
        for name in names {
            let reason: SkippedFile.Reason?
            do {
                switch CloudJSON.decode(BaselineManifest.self, from: try container.readBaselineManifest(name)) {
                case let .success(manifest):
                    if manifest.container != containerID {
                        reason = .foreignContainer
                    } else if manifest.device != name.device || manifest.sequence != name.sequence {
                        reason = .unreadable(
                            "it names baseline \(manifest.sequence) of device \(manifest.device.storeString)")
                    } else if !BaselineDatabase.readableModelVersions.contains(manifest.modelVersion) {
                        let readable = BaselineDatabase.readableModelVersions
                        reason = .unreadable(
                            "written by model version \(manifest.modelVersion); "
                                + "this build reads baselines of \(readable.first!) to \(readable.last!)"
                        )
                    } else {
                        entries.append(Entry(name: name, manifest: manifest))
                        reason = nil
                    }
                case let .failure(problem):
                    reason = .unreadable("not a baseline manifest: \(problem.reason)")
                }
            } catch {
                if case .missing = error { continue }
                reason = SkippedFile.Reason(error)
            }
            if let reason { skipped.append(SkippedFile(path: name.manifestPath, reason: reason)) }
        }
        return BaselineCatalog(entries: entries.sorted(by: Self.isNewer), skipped: skipped)
    }

    /// Whether `a` comes before `b` in the choice: more logs, then the greater writer id, then
    /// the greater sequence.
    static func isNewer(_ a: Entry, _ b: Entry) -> Bool {
        let (left, right) = (a.manifest, b.manifest)
        if left.logCount != right.logCount { return left.logCount > right.logCount }
        if left.device != right.device { return left.device.storeString > right.device.storeString }
        return left.sequence > right.sequence
    }

    /// Whether every log after the baseline is still in the container: for each device, its
    /// logs present there either all come before the baseline's position or start at most one
    /// after it (`logs`: the sequences present, per device).
    static func isComplete(_ entry: Entry, logs: [UUID: [Int64]]) -> Bool {
        logs.allSatisfy { device, sequences in
            let position = entry.manifest.vector[device] ?? 0
            guard let firstAfter = sequences.filter({ $0 > position }).min() else { return true }
            return sequences.min()! <= position + 1 || firstAfter == position + 1
        }
    }

    /// Whether the baseline holds logs that a device at `applied` has not applied.
    static func isAhead(_ entry: Entry, of applied: [UUID: Int64], device: UUID) -> Bool {
        entry.manifest.vector.contains { other, sequence in other != device && sequence > (applied[other] ?? 0) }
    }
}
