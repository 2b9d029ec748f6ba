import Foundation
import NoteStore

/// A baseline found unusable, remembered so that it is not checked again until it changes
/// (docs/sync-format.md, "Verification").
///
/// Checking a baseline means copying and hashing its database, which a manifest that lies
/// about its size can make last minutes; a device that found it unusable once keeps the
/// identity of its two files (size, modification time and inode of the manifest and of the
/// database) and why, and passes it over, reported, while they stay the same.
struct UnusableBaseline: Equatable {
    /// The identity of the baseline's files when it was found unusable.
    let identity: String
    /// Why it is unusable, as reported.
    let reason: String

    /// The identity of a baseline's files, as `lstat(2)` gives it: a file rewritten, replaced
    /// or renamed into place has another one.
    static func identity(of files: (manifest: CloudEntry, database: CloudEntry)) -> String {
        [files.manifest, files.database].map { entry in
            "\(entry.size):\(entry.modified?.timeIntervalSince1970 ?? 0):\(entry.inode ?? 0)"
        }.joined(separator: ",")
    }

    /// Records `found` (a nil value forgets the baseline: it changed and was used) in the
    /// store and, given the baselines `present`, forgets the others.
    static func record(_ found: [String: UnusableBaseline?], present: Set<String>? = nil, in store: Store) throws {
        let known = try store.syncSnapshot().unusableBaselines.keys
        let gone = present.map { present in known.filter { !present.contains($0) && found[$0] == nil } } ?? []
        guard !found.isEmpty || !gone.isEmpty else { return }
        try store.recordSync { ledger in
            for (path, record) in found {
                try ledger.setUnusableBaseline(record.map { .init(identity: $0.identity, reason: $0.reason) }, at: path)
            }
            for path in gone { try ledger.setUnusableBaseline(nil, at: path) }
        }
    }
}
