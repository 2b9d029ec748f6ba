import Foundation
import NoteStore

/// Brings entries into the store, in one save per batch, so that a crash leaves whole notes
/// only (a note and its images are in one save).
///
/// An entry with an id that the store holds updates that item (its name and body; it stays
/// where it is); without an id, a note or collection of the same name and kind in the same
/// place is updated, when there is exactly one. Otherwise the entry is created, with its id and
/// dates when it has them (a purged id is not used again: the item gets a new one). Images with
/// bytes the note has already are not attached again. So importing the same files twice
/// changes nothing the second time.
public struct Importer {
    public let store: Store
    /// Told the notes done so far and the total, every few hundred notes.
    public var progress: ((Int, Int) -> Void)?
    /// The most items, and bytes of images held in memory (``batchBytes``: images whose blob
    /// the store has; the others wait in its blob folder), a save holds. Larger saves cost
    /// less per note (each ends with a commit and a checkpoint, and writes the pages of the
    /// indexes it touched), and more memory: an import of JSON peaks at about 190 MiB with
    /// them.
    static let batchItems = 20_000
    /// The writer's page cache during an import (``Store/withWriterCache(mebibytes:_:)``):
    /// about 5% faster than the store's 32 MiB for 100,000 notes here.
    static let cacheMiB = 64
    static let batchBytes = 64 * 1024 * 1024
    /// The most bytes of images read ahead of the save and held in memory (``ReadAhead``, and
    /// the entries waiting for their ids to be looked up): enough to keep the save busy, few
    /// enough that memory stays where it was without reading ahead. Only an image whose blob
    /// the store has already is held so; other images and files wait in the blob folder, as
    /// many as a save's notes attach.
    static let readAheadBytes = 8 * 1024 * 1024
    /// The most entries given to ``run(total:into:dryRun:skippingInSkipped:_:)`` that wait for
    /// their ids to be looked up together.
    static let lookupItems = 1_000
    /// The fewest notes saved before a save is full, when the reader has nothing ready: the
    /// first save starts while the reader reads the next notes, instead of after a full
    /// save's worth, and a save is still large enough to be worth its commit.
    var idleSaveItems = 2_000

    /// Whether `#tags` in the bodies of Markdown files become tags (``MarkdownReader``).
    public var inlineTags = true

    public init(store: Store) {
        self.store = store
    }

    /// Throws what ``run(path:into:dryRun:)`` would throw first for `path` (not there, not a
    /// Markdown file, a JSON export or a folder, unreadable), without reading it: to say so
    /// before the store is opened.
    public static func check(path: URL) throws {
        if !JSONReader.isExport(path) { try MarkdownReader().check(path) }
    }

    /// Imports what `path` holds: a JSON export (``JSONReader/isExport(_:)``), else a
    /// Markdown file or folder tree (``MarkdownReader``), a line or a file at a time, so that
    /// what is imported is never in memory whole. The report's problems are the reader's, then
    /// the import's.
    public func run(path: URL, into parent: UUID?, dryRun: Bool) throws -> ImportReport {
        var problems: [String] = []
        var report: ImportReport
        // The files to attach are read with the entries, on the reading thread.
        let store = store
        let prepare: @Sendable (URL, String?) -> PreparedFile = { store.prepareFile($0, fileName: $1) }
        if JSONReader.isExport(path) {
            var reader = JSONReader()
            reader.prepare = prepare
            report = try run(total: try reader.count(path), into: parent, dryRun: dryRun) { add, whenWaiting in
                problems = try reader.stream(path, whenWaiting: whenWaiting) { entry, parent in
                    try add(entry, entry.kind == .collection ? entry.id : nil, parent)
                }
            }
        } else {
            var reader = MarkdownReader(inlineTags: inlineTags)
            reader.prepare = prepare
            report = try run(total: reader.count(path), into: parent, dryRun: dryRun, skippingInSkipped: true) {
                add, whenWaiting in
                problems = try reader.stream(path, whenWaiting: whenWaiting, add)
            }
        }
        report.problems = problems + report.problems
        return report
    }

    /// Imports entries given one at a time, collections before what they hold, as a JSON
    /// export lists them or a Markdown tree is walked: `produce` calls `add` for each, with the
    /// key the file gives it (a collection's, that what it holds names as its parent) and its
    /// parent's key (nil at the top). An entry whose parent was not imported before it goes
    /// into `parent`, or, with `skippingInSkipped`, is passed over when its parent was skipped
    /// (and reported). Few entries are held at a time, so memory stays flat however many there
    /// are. `produce` calls `whenWaiting` when its next entry is not read yet: the notes placed
    /// by then are saved while it reads, if there are ``idleSaveItems``.
    public func run<Key: Hashable>(
        total: Int, into parent: UUID?, dryRun: Bool, skippingInSkipped: Bool = false,
        _ produce: (
            _ add: (ImportEntry, _ key: Key?, _ parent: Key?) throws -> Void, _ whenWaiting: () throws -> Void
        ) throws -> Void
    ) throws -> ImportReport {
        try store.withWriterCache(mebibytes: Self.cacheMiB) {
            var run = Run(store: store, dryRun: dryRun, total: total, progress: progress)
            var waiting: [(entry: ImportEntry, key: Key?, parent: Key?)] = []
            /// The collections placed, by their keys: where and whether new.
            var placed: [Key: (id: UUID, isNew: Bool)] = [:]
            var skipped: Set<Key> = []
            /// The entry of `waiting` being imported: those before it are done.
            var current = 0
            /// The bytes that the images read for `waiting` hold.
            var waitingBytes = 0
            func drain() throws {
                run.known = run.unsaved.union(try store.knownIDs(among: waiting.compactMap(\.entry.id)))
                for (index, (entry, key, fileParent)) in waiting.enumerated() {
                    current = index
                    if skippingInSkipped, let fileParent, skipped.contains(fileParent) {
                        if let key { skipped.insert(key) }
                        entry.discardPreparedFiles()
                        continue
                    }
                    let (target, isNew) = fileParent.flatMap { placed[$0] } ?? (parent, false)
                    if let (item, isNew) = try run.importEntry(entry, into: target, parentIsNew: isNew), let key {
                        placed[key] = (item.id, isNew)
                    } else if skippingInSkipped, let key {
                        skipped.insert(key)
                    }
                }
                waiting.removeAll(keepingCapacity: true)
                current = 0
                waitingBytes = 0
            }
            do {
                try produce(
                    { entry, key, fileParent in
                        waiting.append((entry, key, fileParent))
                        waitingBytes += entry.preparedBytes
                        if waiting.count >= Self.lookupItems || waitingBytes >= Self.readAheadBytes { try drain() }
                    },
                    {
                        // The reader is behind: save what it gave rather than wait for it.
                        guard !dryRun, run.pending + waiting.count >= idleSaveItems else { return }
                        try drain()
                        if run.pending >= idleSaveItems { try run.flush() }
                    })
                try drain()
                try run.flush()
            } catch {
                // What was read and not saved leaves nothing in the blob folder (removing a
                // file the rollback removes too is harmless).
                for (entry, _, _) in waiting.dropFirst(current) { entry.discardPreparedFiles() }
                run.context.rollback()
                throw error
            }
            return run.report
        }
    }

    struct Run {
        let store: Store
        let dryRun: Bool
        let total: Int
        let progress: ((Int, Int) -> Void)?
        let context: ObjectContext
        var report = ImportReport()
        var pending = 0
        var done = 0
        /// Live children of each place, by kind and name, read once per place.
        var byName: [UUID?: [String: [Item]]] = [:]
        /// The ids the store has or had among the entries of a batch (read for each batch), and
        /// those this import made that the store may not have had then: those it made since.
        var known: Set<UUID> = []
        /// The ids this import made that no save has written yet: the store's answer for the
        /// next batch holds the others. (A dry run saves nothing, and keeps them all.)
        var unsaved: Set<UUID> = []
        /// The files staged and not saved yet, per note, by SHA-256: matched as the note's
        /// attachments are, so that where the saves fall changes nothing.
        var stagedFiles: [UUID: [String: Int]] = [:]

        init(store: Store, dryRun: Bool, total: Int, progress: ((Int, Int) -> Void)?) {
            self.store = store
            self.dryRun = dryRun
            self.total = total
            self.progress = progress
            context = store.makeContext()
        }

        /// Creates or updates the item of `entry` (not what it holds); returns it and whether
        /// it is new, or nil when it is skipped (and reported).
        mutating func importEntry(_ entry: ImportEntry, into parent: UUID?, parentIsNew: Bool) throws -> (Item, Bool)? {
            if let problem = Self.problem(of: entry) {
                report.problems.append("\(entry.source): \(problem), skipped")
                entry.discardPreparedFiles()
                return nil
            }
            let (item, isNew) = try place(entry, in: parent, parentIsNew: parentIsNew)
            if entry.kind == .note {
                done += 1
                if done % 200 == 0 { progress?(done, total) }
            }
            return item.map { ($0, isNew) }
        }

        /// The id the checks of an entry name, which only their messages use.
        static let noID = UUID(uuid: (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0))

        /// Why the store would refuse the entry (its rules on names and bodies), checked before
        /// it joins a batch: one bad file must not fail a whole save.
        static func problem(of entry: ImportEntry) -> String? {
            Item.propertyFailures(name: Item.normalizedName(entry.name), body: entry.body, id: Self.noID).first?.message
        }

        /// Creates or updates the item of `entry`; returns it (nil when skipped) and whether
        /// it is new.
        mutating func place(_ entry: ImportEntry, in parent: UUID?, parentIsNew: Bool) throws -> (Item?, Bool) {
            var existing: Item?
            var id = entry.id
            if let given = entry.id, known.contains(given) {
                existing = try? context.object(with: given)
                if existing == nil { id = nil }  // Purged: never used again.
            } else if entry.id == nil, !parentIsNew {
                existing = try sameName(entry, in: parent)
            }
            if var item = existing {
                guard item.kind == entry.kind else {
                    report.problems.append(
                        "\(entry.source): the store's item with its id is a \(item.kind.rawValue), skipped")
                    entry.discardPreparedFiles()
                    return (nil, false)
                }
                let name = Item.normalizedName(entry.name)
                var changed = false
                if item.name != name { item.name = name; changed = true }
                if item.isNote, let body = entry.body {
                    let current = try item.body ?? store.item(item.id).body ?? ""
                    if current != body { item.body = body; changed = true }
                }
                if changed { try context.update(item) }
                if try setTags(entry, on: item) { changed = true }
                if try setProperties(entry, on: item) { changed = true }
                let attached = try attachImages(entry, to: item, isNew: false)
                if changed || attached > 0 {
                    report.updated += 1
                    if dryRun { report.plan.append("update \(item.kind.rawValue) \(entry.source)") }
                } else {
                    report.unchanged += 1
                }
                try count()
                return (item, false)
            }
            let now = Date()
            let item = context.insert(
                entry.kind, id: id ?? UUID(), named: entry.name, body: entry.kind == .note ? (entry.body ?? "") : nil,
                in: parent, created: entry.created ?? entry.modified ?? now,
                modified: entry.modified ?? entry.created ?? now, links: entry.links)
            known.insert(item.id)
            unsaved.insert(item.id)
            report.created += 1
            if dryRun { report.plan.append("create \(item.kind.rawValue) \(entry.source)") }
            _ = try setTags(entry, on: item)
            _ = try setProperties(entry, on: item)
            _ = try attachImages(entry, to: item, isNew: true)
            try count()
            return (item, true)
        }

        /// Makes the note's tags those of the entry, when the entry gives tags; a tag that
        /// breaks the rules is reported and left out. Returns whether the tags change.
        mutating func setTags(_ entry: ImportEntry, on note: Item) throws -> Bool {
            guard note.isNote, let given = entry.tags else { return false }
            var wanted: [String] = []
            for text in given {
                do {
                    let tag = try Tag.checked(text)
                    if !wanted.contains(tag) { wanted.append(tag) }
                } catch {
                    report.problems.append("\(entry.source): \(error), left out")
                }
            }
            let current = try context.tags(of: note.id)
            let added = try context.tag(note.id, with: wanted.filter { !current.contains($0) })
            let removed = try context.untag(note.id, current.filter { !wanted.contains($0) })
            return !added.isEmpty || !removed.isEmpty
        }

        /// Makes the note's properties those of the entry, in its order, when the entry gives
        /// them; a property that breaks the rules is reported and left out. Returns whether
        /// they change.
        mutating func setProperties(_ entry: ImportEntry, on note: Item) throws -> Bool {
            guard note.isNote, let given = entry.properties else { return false }
            var wanted: [(key: String, value: PropertyValue)] = []
            for (key, value) in given {
                do {
                    let key = try Property.checked(key)
                    guard !wanted.contains(where: { $0.key == key }) else { continue }
                    wanted.append((key, try Property.checked(value, key: key)))
                } catch {
                    report.problems.append("\(entry.source): \(error), left out")
                }
            }
            if wanted.count > Property.maximumCount {
                report.problems.append(
                    "\(entry.source): more than \(Property.maximumCount) properties, the rest left out")
                wanted = Array(wanted.prefix(Property.maximumCount))
            }
            let current = try context.properties(of: note.id)
            // The same keys and values in the same order: their positions may have gaps.
            if current.map(\.key) == wanted.map(\.key), current.map(\.value) == wanted.map(\.value) { return false }
            try context.replaceProperties(note.id, with: wanted)
            return true
        }

        /// Stages the entry's files that no attachment of the note matches (by their bytes, each
        /// attachment matching one file), saved or staged by an entry before it; returns how
        /// many. Two files of the same bytes are two attachments, each written back where its
        /// link points. A note this import creates has none saved to match.
        mutating func attachImages(_ entry: ImportEntry, to note: Item, isNew: Bool) throws -> Int {
            guard !entry.images.isEmpty else { return 0 }
            var known =
                isNew ? [:] : Dictionary(try store.attachments(of: note.id).map { ($0.sha256, 1) }, uniquingKeysWith: +)
            known.merge(stagedFiles[note.id] ?? [:], uniquingKeysWith: +)
            var stagedNow: [String] = []
            defer { for sha256 in stagedNow { stagedFiles[note.id, default: [:]][sha256, default: 0] += 1 } }
            var attached = 0
            for image in entry.images {
                do {
                    let staged =
                        if let prepared = image.prepared {
                            try context.attachFile(prepared, to: note, caption: image.caption, unlessMatching: &known)
                        } else {
                            try context.attachFile(
                                image.file, to: note, caption: image.caption, fileName: image.fileName,
                                unlessMatching: &known)
                        }
                    if let staged {
                        stagedNow.append(staged.sha256)
                        attached += 1
                        if staged.kind == .image { report.images += 1 } else { report.files += 1 }
                        let kind = staged.kind == .image ? "image" : "file"
                        if dryRun {
                            report.plan.append("attach \(kind) \(image.file.lastPathComponent) to \(entry.source)")
                        }
                    }
                } catch {
                    report.problems.append("\(entry.source): \(error), not attached")
                }
            }
            return attached
        }

        mutating func count() throws {
            pending += 1
            if pending >= Importer.batchItems || context.stagedAttachmentBytes >= Importer.batchBytes { try flush() }
        }

        mutating func flush() throws {
            if dryRun {
                context.rollback()
            } else {
                try context.save()
                unsaved.removeAll(keepingCapacity: true)
            }
            pending = 0
            stagedFiles = [:]
        }

        mutating func sameName(_ entry: ImportEntry, in parent: UUID?) throws -> Item? {
            if byName[parent] == nil {
                let request = ItemRequest(scope: parent.map { .children(of: $0) } ?? .topLevel, includesBodies: false)
                byName[parent] = Dictionary(grouping: try store.fetch(request)) { "\($0.kind.rawValue):\($0.name)" }
            }
            let matches = byName[parent]?["\(entry.kind.rawValue):\(Item.normalizedName(entry.name))"] ?? []
            guard matches.count == 1, let match = matches.first else { return nil }
            return try context.object(with: match.id)
        }
    }
}
