import CFileSystem
import Crypto
import Foundation
import NoteFiles
import NoteStore

#if canImport(Glibc)
    import Glibc
#endif

/// Takes a baseline from the container into a store: copied into the store folder, checked
/// (size and SHA-256 against its manifest, the database itself checked while the SHA-256 is
/// computed, see ``BaselineDatabase/verify(_:)``), and then either made the store of a new device or merged
/// into a store that has notes of its own.
///
/// A baseline that fails any check is reported and passed over for the next one in the
/// choice; when none is left, the logs do the work.
struct BaselineLoader {
    let container: CloudContainer
    let containerID: UUID
    /// The store folder, where the copy is made (never in the cloud folder, where its bytes
    /// could change between the checks and their use).
    let folder: URL
    /// The store that remembers the baselines found unusable, so that they are not checked
    /// again until they change; none for a new device, which checks each once.
    var store: Store? = nil

    /// The newest complete baseline that verifies, as a checked database in the store folder,
    /// for a device at `applied`; nil when none is ahead of it. Baselines passed over are
    /// added to `report`.
    /// With `covering`, only a baseline that holds at least one of the given logs (device and
    /// sequence) is taken.
    func newestVerified(
        aheadOf applied: [UUID: Int64], device: UUID?, covering: [UUID: Int64]? = nil, report: inout SyncReport
    ) throws -> (entry: BaselineCatalog.Entry, database: BaselineDatabase, file: URL)? {
        var found: [String: UnusableBaseline?] = [:]
        defer { if let store { try? UnusableBaseline.record(found, in: store) } }
        return try newestVerified(aheadOf: applied, device: device, covering: covering, report: &report, found: &found)
    }

    /// ``newestVerified(aheadOf:device:covering:report:)``, adding to `found` the baselines
    /// found unusable (and, as nil, those remembered so that changed and verified), for the
    /// caller to record.
    func newestVerified(
        aheadOf applied: [UUID: Int64], device: UUID?, covering: [UUID: Int64]? = nil, report: inout SyncReport,
        found: inout [String: UnusableBaseline?]
    ) throws -> (entry: BaselineCatalog.Entry, database: BaselineDatabase, file: URL)? {
        Self.removeLeftovers(in: folder, .taken)
        let catalog = try BaselineCatalog.read(container, containerID: containerID)
        report.skipped += catalog.skipped
        let candidates = catalog.entries.filter { entry in
            BaselineCatalog.isAhead(entry, of: applied, device: device ?? UUID())
                && (covering.map { gaps in gaps.contains { entry.manifest.vector[$0.key] ?? 0 >= $0.value } } ?? true)
        }
        guard !candidates.isEmpty else { return nil }
        var logs: [UUID: [Int64]] = [:]
        for other in try container.logDevices().devices {
            logs[other] = try container.logSequences(of: other).sequences
        }
        let remembered = try store.map { try SyncState($0).unusableBaselines } ?? [:]
        for entry in candidates where BaselineCatalog.isComplete(entry, logs: logs) {
            let path = entry.name.databasePath
            do {
                let identity = UnusableBaseline.identity(of: try container.baselineFiles(entry.name))
                if let known = remembered[path], known.identity == identity {
                    report.skipped.append(SkippedFile(path: path, reason: .unreadable(known.reason)))
                    continue
                }
                do {
                    let (database, file) = try fetch(entry, becomingStore: device == nil)
                    if remembered[path] != nil { found[path] = .some(nil) }
                    return (entry, database, file)
                } catch let problem as BaselineProblem {
                    report.skipped.append(SkippedFile(path: path, reason: .unreadable(problem.description)))
                    found[path] = UnusableBaseline(identity: identity, reason: problem.description)
                }
            } catch let error as SyncError {
                if case .missing = error { continue }
                report.skipped.append(SkippedFile(path: path, reason: SkippedFile.Reason(error)))
            }
        }
        return nil
    }

    /// Copies of baselines in the store folder: those taken in (under the store's sync lock)
    /// and those written out (under its baseline lock), told apart so that each removes only
    /// its own leftovers.
    enum CopyKind: String {
        case taken = ".baseline-in-"
        case written = ".baseline-out-"
    }

    /// A new name for a copy of a baseline in the store folder.
    static func temporaryFile(in folder: URL, _ kind: CopyKind) -> URL {
        folder.appendingPathComponent(kind.rawValue + String(UInt64.random(in: 1...UInt64.max), radix: 16) + ".sqlite")
    }

    /// Removes the copies of `kind` that a process killed while writing or joining left in the
    /// store folder; called under the lock that copies of that kind are made under, so that no
    /// copy in use goes.
    static func removeLeftovers(in folder: URL, _ kind: CopyKind) {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []
        for name in names where name.hasPrefix(kind.rawValue) {
            try? FileManager.default.removeItem(at: folder.appendingPathComponent(name))
        }
    }

    /// Copies the baseline's database into the store folder and checks it. A copy `becomingStore`
    /// (a new device's) starts towards the disk once hashed, to be synced when it is linked.
    private func fetch(_ entry: BaselineCatalog.Entry, becomingStore: Bool) throws -> (BaselineDatabase, URL) {
        let manifest = entry.manifest
        // The size first, from the listing: a manifest that declares more bytes than its
        // database has (or fewer) costs nothing, however many it declares.
        let listed = try container.baselineFiles(entry.name).database
        guard listed.kind != .file || listed.size == manifest.bytes else {
            throw BaselineProblem(text: "it has \(listed.size) bytes, not the \(manifest.bytes) of its manifest")
        }
        let file = Self.temporaryFile(in: folder, .taken)
        var keep = false
        defer { if !keep { try? FileManager.default.removeItem(at: file) } }
        let bytes = try container.copyBaselineDatabase(
            entry.name, to: file, limit: Int(min(manifest.bytes, Int64(CloudContainer.baselineSizeLimit))))
        guard bytes == manifest.bytes else {
            throw BaselineProblem(text: "it has \(bytes) bytes, not the \(manifest.bytes) of its manifest")
        }
        // The SHA-256 is computed while the database is checked; a copy without the SHA-256
        // of its manifest is refused as damaged, whatever the checks of the database found.
        // The copy is not synced: a new device syncs it when it makes its store of it, and
        // its pages start towards the disk once hashed; others only read it.
        let digest = Self.digest(of: file, writingBack: becomingStore)
        let damaged = BaselineProblem(text: "its bytes do not have the SHA-256 of its manifest (damaged)")
        let database: BaselineDatabase
        do {
            database = try BaselineDatabase.verify(file)
        } catch {
            guard try digest.wait().get() == manifest.sha256 else { throw damaged }
            throw error
        }
        let matches: Bool
        do { matches = try digest.wait().get() == manifest.sha256 } catch {
            database.close()
            throw error
        }
        guard matches else {
            database.close()
            throw damaged
        }
        guard database.header == manifest.databaseHeader else {
            database.close()
            throw BaselineProblem(text: "its header does not match its manifest")
        }
        keep = true
        return (database, file)
    }

    /// Merges a verified baseline into `store`, in one transaction with the record of the logs
    /// it holds; its blobs are copied in first (those the container lacks or holds damaged are
    /// awaited), and a baseline of an older model is upgraded
    /// first, in `file`, its copy in the store folder. Returns how many changes it applied.
    func merge(_ database: BaselineDatabase, _ entry: BaselineCatalog.Entry, file: URL, into store: Store) throws -> Int
    {
        try database.upgradeToCurrentModel(file: file)
        for sha256 in try database.blobs() where !store.hasBlob(sha256) {
            // One that cannot be had now leaves its attachments waiting (``BlobRepair``).
            try? container.copyBlob(sha256, into: store)
        }
        // A cut of the store that the baseline holds is at or after the baseline's (settings
        // differ from store to store): the store keeps it, and its history.
        var cuts: [HistoryCut] = []
        for cut in try database.historyCuts() {
            if let own = try store.historyCut(of: cut.object, cut.property), own != cut.stamp,
                try database.holdsVersion(of: cut.object, cut.property, at: own)
            {
                continue
            }
            cuts.append(cut)
        }
        // Versions below a cut that this store lacks go (below): an unpublished edit among
        // them is first kept as a note of its own, and taken back, so that no text goes with it.
        var lacking: Set<UUID> = []
        for cut in cuts where try !store.hasVersion(of: cut.object, cut.property, at: cut.stamp) {
            lacking.insert(cut.object)
        }
        if !lacking.isEmpty { _ = try UnpublishedEdits(store: store).keepAsNotes(only: lacking) }
        let knowledge = try database.knowledge()
        let clock = ClockSkew.adoptable(try database.clock(), now: store.wallClock.now())
        let merger = Merger()
        let writer = entry.manifest.device
        return try store.merge(durable: false) { replica -> Int in
            var applied = 0
            // The cuts first: versions the baseline dropped, arriving again later, stay out.
            // A property whose cut this store does not hold (nor a later one) has only
            // versions below it (every later one descends from it): they go, as they went from
            // the baseline, so that the cut and what follows it are not taken for edits
            // concurrent with them.
            for cut in cuts where try !replica.hasVersion(of: cut.object, cut.property, at: cut.stamp) {
                try replica.removeHistory(of: cut.object, cut.property)
            }
            try replica.recordHistoryCuts(cuts)
            try database.forEachRecord { record in
                if try merger.apply(record.logChange, from: writer, to: replica) { applied += 1 }
            }
            let current = try replica.ledger.applied()
            for (device, sequence) in entry.manifest.vector
            where device != store.deviceID && sequence > (current[device] ?? 0) {
                try replica.ledger.setApplied(sequence, of: device)
            }
            try replica.ledger.noteKnowledge(knowledge.filter { $0.key != store.deviceID })
            try replica.ledger.observe(clock: clock)
            return applied
        }
    }

    /// The SHA-256 of a file, computed on a thread of its own while the caller goes on.
    ///
    /// A new device checks a baseline's copy two ways, its SHA-256 against the manifest and the
    /// database itself; both read the whole file and neither needs the other, so they run on two
    /// cores. The copy lies in the store folder, where nothing else writes, so both see the same
    /// bytes. Wait for the digest before the file goes, on every path, so that no thread is left
    /// reading; and before the file is opened as a database, since closing a descriptor of a
    /// file drops every lock the process holds on it.
    ///
    /// With `writingBack`, the thread then starts the file's pages towards the disk
    /// (sync_file_range(2)) and does not wait for them to arrive: the copy is not synced when it is made,
    /// and a new device that makes its store of it syncs it before it links it, when little is
    /// left to wait for. Submitting the writes costs a tenth of a second for a copy of 200 MiB,
    /// which this keeps off the thread that checks the database.
    static func digest(of file: URL, writingBack: Bool) -> BackgroundWork<String> {
        // Opened here, so that the writeback reaches this file even when it is removed first.
        let descriptor = writingBack ? open(file.path, O_RDONLY | O_CLOEXEC) : -1
        return BackgroundWork {
            defer {
                if descriptor >= 0 {
                    _ = notes_start_writeback(descriptor)
                    close(descriptor)
                }
            }
            return try sha256(of: file)
        }
    }

    /// The SHA-256 of a file, in 64 lowercase hex digits, read a MiB at a time.
    static func sha256(of file: URL) throws -> String {
        let handle = try FileHandle(forReadingFrom: file)
        defer { try? handle.close() }
        var hash = SHA256()
        while let chunk = try handle.read(upToCount: 1 << 20), !chunk.isEmpty {
            hash.update(data: chunk)
        }
        return HexText.lowercase(hash.finalize())
    }
}

extension SnapshotRecord {
    /// The change a log carries for this record: its clock is the clock of its `*` stamp (else
    /// the greatest of its stamps).
    var logChange: LogChange {
        let clock = stamps["*"]?.clock ?? stamps.values.map(\.clock).max() ?? 0
        let operation: LogChange.Operation
        switch self.operation {
        case .delete: operation = .delete
        case .update: operation = .update
        case .insert: operation = .insert
        }
        return LogChange(
            entity: entity, object: object, operation: operation, clock: clock, values: values, stamps: stamps,
            history: history)
    }
}
