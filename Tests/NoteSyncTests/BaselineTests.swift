import Foundation
import GRDB
import NoteStore
@testable import NoteSync
import NoteTestSupport
import Testing

/// Baselines (docs/sync-format.md, "Baselines"): a device writes the merged state of what it
/// has applied into the container; a new device starts from the newest one that verifies and
/// applies only the logs after it; a device with notes of its own merges it and keeps them.
@Suite struct BaselineTests {
    /// The database of a baseline `manifest` describes, as published, opened read-only.
    static func publishedDatabase(_ manifest: BaselineManifest, in stack: SyncStack) throws -> DatabaseQueue {
        let name = CloudContainer.BaselineName(device: manifest.device, sequence: manifest.sequence)
        let file = stack.cloud.appendingPathComponent("\(SyncEngine.defaultContainerName)/\(name.databasePath)")
        var configuration = Configuration()
        configuration.readonly = true
        return try DatabaseQueue(path: file.path, configuration: configuration)
    }

    /// How many segments of the full-text index there are besides the first.
    static func furtherIndexSegments(_ db: Database) throws -> Int {
        try Int.fetchOne(
            db, sql: "SELECT COUNT(*) FROM item_fts_idx WHERE segid != (SELECT MIN(segid) FROM item_fts_idx)") ?? -1
    }

    @Test func aNewDeviceStartsFromTheBaselineAndAppliesTheLogsAfterIt() throws {
        let stack = try SyncStack.populated()
        let manifest = try stack.engines[0].compact().baseline
        #expect(manifest.items == (try stack.stores[0].fetch(ItemRequest(trash: .included)).count))
        _ = try stack.stores[1].addNote(named: "After the baseline", body: "later", in: nil)
        try stack.syncUntilQuiet()

        let report = try stack.join()
        #expect(report.baseline?.path == "baselines/\(stack.stores[0].deviceID.storeString)/000000000001.sqlite")
        #expect(report.importedLogs == 1, "only the log written after the baseline: \(report)")
        #expect(report.exportedLogs == 0, "a device made from a baseline pushes nothing")
        try stack.syncUntilQuiet()
        let dumps = try stack.dumps()
        #expect(dumps[3] == dumps[0])
        #expect(dumps[3].contains("After the baseline") && dumps[3].contains("conflict"))
        let joined = stack.stores[3]
        #expect(joined.deviceID != stack.stores[0].deviceID)
        let problems = try joined.check()
        #expect(problems == [], "\(problems)")
        #expect(try joined.outboxEntries().isEmpty)
        #expect(try CloudContainer.create(in: stack.cloud).logSequences(of: joined.deviceID).sequences.isEmpty)
        // Its attachment's bytes came with it.
        let photo = try #require(try joined.fetch(ItemRequest(trash: .included)).first { $0.name == "Photo" })
        let attachment = try #require(try joined.attachments(of: photo.id).first)
        #expect(try joined.data(of: attachment) == Data(contentsOf: SampleFiles.image("plain.png")))
        // What it saves afterwards reaches the others, after what it started from.
        _ = try joined.addNote(named: "From the new device", body: "", in: nil)
        try stack.syncUntilQuiet()
        #expect(Set(try stack.dumps()).count == 1)
        // Nothing of the copy is left in its store folder.
        let leftovers = try FileManager.default.contentsOfDirectory(atPath: joined.folder.path).filter {
            $0.hasPrefix(".baseline")
        }
        #expect(leftovers == [])
    }

    @Test func aDeviceWithNotesOfItsOwnMergesTheBaselineAndPushesThem() throws {
        let stack = try SyncStack.populated()
        _ = try stack.engines[1].compact()
        let store = try stack.addStore()
        _ = try store.addNote(named: "Mine", body: "written before joining", in: nil)
        let report = try stack.engines[3].enable(cloud: stack.cloud, deviceName: "device-3")
        #expect(report.baseline != nil)
        try stack.syncUntilQuiet()
        let dumps = try stack.dumps()
        #expect(Set(dumps).count == 1)
        #expect(dumps[0].contains("Mine"))
        #expect(try stack.stores[0].fetch(ItemRequest(trash: .included)).count(where: { $0.name == "Mine" }) == 1)
        #expect(try stack.stores[0].fetch(ItemRequest(trash: .included)).count(where: { $0.name == "Plan" }) == 1)
    }

    @Test func concurrentBaselinesResolveToTheSameChoiceEverywhere() throws {
        let stack = try SyncStack.populated()
        // Devices 0 and 1 write baselines without hearing of each other's: 1 has one log more.
        _ = try stack.engines[0].compact()
        _ = try stack.stores[1].addNote(named: "Only on 1", body: "", in: nil)
        _ = try stack.engines[1].compact()
        let container = try CloudContainer.create(in: stack.cloud)
        let catalog = try BaselineCatalog.read(container, containerID: container.identity)
        #expect(catalog.entries.count == 2)
        #expect(catalog.entries.first?.manifest.device == stack.stores[1].deviceID, "more logs come first")
        // Two baselines holding as many logs are ordered by writer id.
        let a = BaselineCatalog.Entry(
            name: .init(device: stack.stores[0].deviceID, sequence: 1), manifest: catalog.entries[0].manifest)
        var other = catalog.entries[0].manifest
        other.device = stack.stores[2].deviceID
        let b = BaselineCatalog.Entry(name: .init(device: other.device, sequence: 1), manifest: other)
        #expect(BaselineCatalog.isNewer(a, b) == (a.manifest.device.storeString > b.manifest.device.storeString))
        #expect(BaselineCatalog.isNewer(a, b) != BaselineCatalog.isNewer(b, a))
        let first = try stack.join()
        let second = try stack.join()
        #expect(first.baseline?.path == second.baseline?.path)
        #expect(first.baseline?.path.contains(stack.stores[1].deviceID.storeString) == true)
        try stack.syncUntilQuiet()
        #expect(Set(try stack.dumps()).count == 1)
    }

    /// A baseline that is damaged, cut short, of another container, or crafted.
    enum BadBaseline: String, CaseIterable, CustomTestStringConvertible {
        case flippedByte, truncated, foreignContainer, notADatabase, trigger, view, extraTable, pageSize, storeFile
        case corruptPage, badName, headerMismatch, badTag, badTagRemoval, badHistoryCut, textHistoryCut, badHistoryLine,
            wrongHistoryLineCount
        case itemIndexOfOtherRows, historyIndexOfOtherRows, danglingParent

        var testDescription: String { rawValue }
    }

    /// Each bad baseline, made to look newer than the good one, is reported and passed over:
    /// the new device starts from the good baseline, and every device ends the same.
    @Test(arguments: BadBaseline.allCases)
    func aBadBaselineIsReportedAndPassedOver(_ kind: BadBaseline) throws {
        let stack = try SyncStack.populated()
        let good = try stack.engines[0].compact().baseline
        let container = stack.cloud.appendingPathComponent(SyncEngine.defaultContainerName)
        let goodDatabase = container.appendingPathComponent("baselines/\(good.device.storeString)/000000000001.sqlite")
        let writer = stack.stores[2].deviceID
        let folder = container.appendingPathComponent("baselines/\(writer.storeString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let database = folder.appendingPathComponent("000000000001.sqlite")
        try FileManager.default.copyItem(at: goodDatabase, to: database)
        var manifest = good
        manifest.device = writer
        let outside = stack.folder.appending("outside")
        try FileManager.default.createDirectory(at: outside, withIntermediateDirectories: true)
        var rehash = true
        func edit(_ sql: String) throws {
            let queue = try DatabaseQueue(path: database.path)
            try queue.writeWithoutTransaction { try $0.execute(sql: sql) }
            try queue.close()
        }
        switch kind {
        case .flippedByte:
            var data = try Data(contentsOf: database)
            data[data.count / 2] ^= 0x40
            try data.write(to: database)
            rehash = false
        case .truncated:
            let data = try Data(contentsOf: database)
            try data.prefix(data.count - 4096).write(to: database)
            rehash = false
        case .foreignContainer:
            manifest.container = UUID()
        case .notADatabase:
            try Data(repeating: 0x5A, count: 8192).write(to: database)
        case .trigger:
            try edit("CREATE TRIGGER wipe AFTER INSERT ON item BEGIN DELETE FROM item; END")
        case .view:
            try edit("CREATE VIEW everything AS SELECT * FROM item")
        case .extraTable:
            try edit("CREATE TABLE extra(x)")
        case .pageSize:
            try edit("PRAGMA page_size = 8192; VACUUM")
        case .storeFile:
            try FileManager.default.removeItem(at: database)
            try FileManager.default.copyItem(
                at: stack.stores[1].folder.appendingPathComponent(Store.databaseFileName), to: database)
        case .corruptPage:
            var data = try Data(contentsOf: database)
            for offset in (4096 * 3)..<(4096 * 3 + 600) { data[offset] = 0xFF }
            try data.write(to: database)
        case .badName:
            try edit("UPDATE item SET name = 'evil' || char(27) || '[2J' WHERE rowid = (SELECT MIN(rowid) FROM item)")
        case .headerMismatch:
            try edit("UPDATE baseline SET value = '{}' WHERE key = 'vector'")
        case .badTag:
            try edit(
                """
                INSERT INTO tag(item, name, stamp) \
                VALUES ((SELECT id FROM item LIMIT 1), 'two words', \
                '0000000000000001/' || (SELECT id FROM item LIMIT 1))
                """)
        case .badTagRemoval:
            try edit(
                """
                INSERT INTO tag_removal(item, name, device, clock) \
                VALUES ((SELECT id FROM item LIMIT 1), 'fine', 'not a device', 1)
                """)
        case .badHistoryCut:
            // A cut of no version its line holds.
            try edit(
                """
                INSERT INTO history_cut(object, property, stamp) \
                SELECT object, property, zeroblob(24) FROM history_line LIMIT 1
                """)
        case .textHistoryCut:
            // A good cut, and beside it the same key with the id as text, a stamp of no version.
            try edit(
                """
                INSERT INTO history_cut(object, property, stamp) \
                SELECT object, property, oldest FROM history_line LIMIT 1;
                INSERT INTO history_cut(object, property, stamp) \
                SELECT CAST(object AS TEXT), property, zeroblob(24) FROM history_line LIMIT 1
                """)
        case .badHistoryLine:
            // Well formed for SQLite; a line that claims more devices than its bytes hold.
            try edit(
                "UPDATE history_line SET line = x'01ffffffff0f00' WHERE rowid = (SELECT MIN(rowid) FROM history_line)")
        case .wrongHistoryLineCount:
            try edit(
                "UPDATE history_line SET versions = versions + 1 WHERE rowid = (SELECT MIN(rowid) FROM history_line)")
        case .itemIndexOfOtherRows:
            // Every page where it belongs, every record well formed: only the index of item
            // ids holds the entries of the index of collections, and the other way round.
            try IndexRoots.swap("sqlite_autoindex_item_1", "item_collection", in: database)
        case .historyIndexOfOtherRows:
            // With the index of tags, checked after it on the same connection.
            try IndexRoots.swap("history_line_key", "tag_on_name", in: database)
        case .danglingParent:
            try edit(
                """
                PRAGMA foreign_keys = OFF;
                UPDATE item SET parent = '00000000-0000-4000-8000-000000000000' \
                WHERE rowid = (SELECT MIN(rowid) FROM item WHERE kind = 'note')
                """)
        }
        // More logs than the good one, so that it is chosen first.
        manifest.vector[writer] = (manifest.vector[writer] ?? 0) + 1_000
        if rehash {
            manifest.bytes = Int64(try Data(contentsOf: database).count)
            manifest.sha256 = try BaselineLoader.sha256(of: database)
        }
        try CloudJSON.encode(manifest).write(to: folder.appendingPathComponent("000000000001.json"))
        let before = try FileManager.default.subpathsOfDirectory(atPath: stack.folder.path).filter {
            !$0.hasPrefix("device-3")
        }.sorted()

        let report = try stack.join()
        let after = try FileManager.default.subpathsOfDirectory(atPath: stack.folder.path).filter {
            !$0.hasPrefix("device-3")
        }.sorted()
        let path = "baselines/\(writer.storeString)/000000000001"
        let skipped = report.skipped.filter { $0.path.hasPrefix(path) }
        #expect(skipped.count == 1, "\(kind): \(report.skipped)")
        // The SHA-256 is checked while the database is: a damaged copy says so, whatever else
        // fails in it, and a copy with the right SHA-256 fails on what is wrong inside.
        switch kind {
        case .flippedByte: #expect("\(skipped)".contains("SHA-256 of its manifest (damaged)"), "\(skipped)")
        case .corruptPage, .notADatabase, .trigger: #expect(!"\(skipped)".contains("SHA-256"), "\(kind): \(skipped)")
        case .itemIndexOfOtherRows: #expect("\(skipped)".contains("does not hold the rows of item"), "\(skipped)")
        case .historyIndexOfOtherRows:
            #expect("\(skipped)".contains("index history_line_key does not hold"), "\(skipped)")
        case .badHistoryLine, .wrongHistoryLineCount:
            #expect("\(skipped)".contains("a line of history"), "\(skipped)")
        case .badHistoryCut, .textHistoryCut:
            #expect("\(skipped)".contains("a cut of history"), "\(skipped)")
        case .danglingParent: #expect("\(skipped)".contains("it refers to an item it does not hold"), "\(skipped)")
        default: break
        }
        #expect(report.baseline?.path == "baselines/\(good.device.storeString)/000000000001.sqlite", "\(kind)")
        try stack.syncUntilQuiet()
        let dumps = try stack.dumps()
        #expect(dumps[3] == dumps[0], "\(kind)")
        #expect(try stack.stores[3].check() == [])
        let changed = Set(after).symmetricDifference(before).filter {
            !$0.contains("/logs/") && !$0.contains("/devices/")
        }
        #expect(changed.isEmpty, "\(kind): \(changed)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: outside.path).isEmpty)
    }

    /// A baseline of a newer model than this build reads is passed over, with the reason, and
    /// the device joins by the logs. (Baselines of older models, written by their releases, are
    /// read and upgraded: OlderBaselineTests.)
    @Test func aBaselineOfANewerModelIsPassedOver() throws {
        let stack = try SyncStack.populated()
        var manifest = try stack.engines[0].compact().baseline
        let folder = stack.cloud.appendingPathComponent(
            "\(SyncEngine.defaultContainerName)/baselines/\(manifest.device.storeString)")
        manifest.modelVersion = Store.currentModelVersion + 1
        try CloudJSON.encode(manifest).write(to: folder.appendingPathComponent("000000000001.json"))
        let later = try stack.join()
        #expect(later.baseline == nil)
        let reason =
            "written by model version \(Store.currentModelVersion + 1); "
            + "this build reads baselines of 4 to \(Store.currentModelVersion)"
        #expect(
            later.skipped.contains { $0.path.hasSuffix("000000000001.json") && "\($0.reason)".contains(reason) },
            "\(later.skipped)")
        try stack.syncUntilQuiet()
        #expect(Set(try stack.dumps()).count == 1)
    }

    /// The full-text index keeps the words of replaced text until its segments merge; a
    /// baseline's is merged, and its copy vacuumed of the pages that freed. A device joining
    /// from it finds each note by what it says now (the index still points at the right rows),
    /// not by what it said.
    @Test func aBaselineOfEditedNotesHoldsAMergedIndexOfTheirTextNow() throws {
        let stack = try SyncStack(devices: 1)
        let store = stack.stores[0]
        // Many words of their own per note, so that the index is most of the store and what
        // the edits replaced is more than a twentieth of it.
        func body(_ note: Int, _ round: Int) -> String {
            (0..<150).map { "r\(round)n\(note)w\($0)" }.joined(separator: " ")
        }
        let notes = try (0..<60).map { try store.addNote(named: "Note \($0)", body: body($0, 0), in: nil) }
        for round in 1...3 {
            for (index, note) in notes.enumerated() { _ = try store.edit(note.id, body: body(index, round)) }
        }
        try stack.syncUntilQuiet()
        let storeQueue = try DatabaseQueue(path: store.folder.appendingPathComponent(Store.databaseFileName).path)
        let storeSegments = try storeQueue.read(Self.furtherIndexSegments)
        try storeQueue.close()
        #expect(storeSegments > 0, "the store's own index has several segments")
        let manifest = try stack.engines[0].compact().baseline
        let queue = try Self.publishedDatabase(manifest, in: stack)
        let (free, segments) = try queue.read { db in
            // One merged segment holds every entry.
            (try Int.fetchOne(db, sql: "PRAGMA freelist_count") ?? -1, try Self.furtherIndexSegments(db))
        }
        try queue.close()
        #expect(free == 0, "the copy was vacuumed")
        #expect(segments == 0)
        let report = try stack.join()
        #expect(report.baseline != nil, "the index matched its rows: \(report.skipped)")
        let joined = stack.stores[1]
        for index in [0, 17, 59] {
            #expect(try joined.search("r3n\(index)w42").map(\.item.name) == ["Note \(index)"])
            #expect(try joined.search("r2n\(index)w42").isEmpty)
        }
        #expect(try joined.check() == [])
    }

    @Test func withoutAUsableBaselineANewDeviceReplaysTheLogs() throws {
        let stack = try SyncStack.populated()
        let report = try stack.join()
        #expect(report.baseline == nil)
        #expect(report.importedLogs > 0)
        try stack.syncUntilQuiet()
        #expect(Set(try stack.dumps()).count == 1)
    }

    @Test func aBaselineHoldsNoDeviceLocalState() throws {
        let stack = try SyncStack.populated()
        _ = try stack.stores[0].addNote(named: "Not yet exported", body: "", in: nil)
        let manifest = try stack.engines[0].compact().baseline
        let queue = try Self.publishedDatabase(manifest, in: stack)
        let found = try queue.read { db throws -> [String?] in
            [
                try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM outbox").map(String.init),
                try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM sync_state").map(String.init),
                try String.fetchOne(db, sql: "SELECT value FROM metadata WHERE key = 'device_id'"),
                try String.fetchOne(db, sql: "PRAGMA journal_mode"),
            ]
        }
        #expect(found == ["0", "0", nil, "delete"])
        try queue.close()
        // The vector holds every log the writer had applied and published.
        let state = try stack.stores[0].syncSnapshot()
        let applied = state.applied.count
        #expect(manifest.vector.count == applied + 1)
        #expect(manifest.vector[manifest.device] == state.record.exportedSequence)
    }
}
