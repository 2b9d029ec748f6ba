import Foundation
import GRDB
import NoteStore

/// `import`: applying logs that insert and then update many notes, against raw SQLite
/// inserts and updates of the same rows in the same run (the floor).
///
/// Device A, attached to an empty container, saves the notes (one save), then a new body
/// for every one of them (a second save), and exports both with `notes sync now`: the
/// container then holds logs of an insert and an update per note. Each repetition attaches a
/// fresh store with `notes sync enable`, a process timed end to end (its registration and
/// snapshot of an empty store cost a few milliseconds; the rest is the import), with its peak
/// memory from wait4(2). The floor writes the same rows into a fresh file of the same schema
/// through the C API, with prepared statements in one transaction: each note row with its
/// full-text entry, then each update with its entry replaced, as the store does, and then the
/// rows of history that A's store holds (a version of each name and body, and of each new
/// body), as the import writes them too. A second floor leaves history out: the import's
/// speed against it is what keeping history costs.
struct ImportScenario: Scenario {
    /// The target: importing at no less than 0.8 times the floor's speed (it was half the
    /// floor's before history).
    static let targetRatio = 0.8

    /// The rows of A's two saves, as the floor writes them: in the order of the changes in
    /// the logs, which is the order the import applies them in.
    private struct Rows {
        var collections: [[RawValue]] = []
        var notes: [[RawValue]] = []
        /// name, body, modified and id of each note after the second save.
        var updates: [[RawValue]] = []
        /// Per update, the offset in `notes` of the note it changes.
        var updated: [Int] = []
        /// The rows of history of each save, per object.
        var insertedVersions: [String: [[RawValue]]] = [:]
        var updatedVersions: [String: [[RawValue]]] = [:]
        var versionCount = 0
    }

    func run(on bench: Workbench) throws -> ScenarioReport {
        let count = bench.sizes.importNotes
        var report = ScenarioReport(name: "import")
        report.parameters = [Fact("notes", count), Fact("repetitions", bench.sizes.importRepetitions)]
        let rig = try SyncRig(bench: bench, label: "import")
        let deviceA = try rig.makeDevice("A")
        try rig.enable(deviceA, name: "A")
        bench.progress("import: saving \(ReportPrinter.grouped(count)) notes on A, then a new body for each")
        let rows = try writeHistory(on: deviceA, notes: count, collections: bench.sizes.collections)
        let exported = try rig.syncNow(deviceA)
        let expected = try ArrivalProbe(store: deviceA).noteSummary()
        report.facts.append(
            Fact(
                "the logs",
                "\(ReportPrinter.grouped(exported.exportedLogs)) logs, "
                    + ReportPrinter.format(Double(CatchUpScenario.bytes(of: rig.cloud)) / 1_048_576, .mebibytes)))

        var importRates: [Double] = []
        var floorRates: [Double] = []
        var plainRates: [Double] = []
        var seconds: [Double] = []
        var memory: [Double] = []
        let changes = 2 * count + rows.collections.count
        func floors() throws {
            floorRates.append(Double(changes) / (try floor(rows, history: true, bench: bench) / 1000))
            plainRates.append(Double(changes) / (try floor(rows, history: false, bench: bench) / 1000))
        }
        for repetition in 0..<bench.sizes.importRepetitions {
            bench.progress("import: repetition \(repetition + 1) of \(bench.sizes.importRepetitions)")
            let importFirst = repetition % 2 == 0
            if !importFirst { try floors() }
            let device = try rig.makeDevice("B-\(repetition)")
            let run = try rig.enable(device, name: "B \(repetition)")
            let found = try ArrivalProbe(store: device).noteSummary()
            guard found == expected else {
                throw BenchError.unexpected("after importing, B holds \(found), not \(expected) as A does")
            }
            if repetition == 0 {
                report.facts.append(Fact("changes applied by the import", run.importedChanges))
                report.facts.append(Fact("logs applied by the import", run.importedLogs))
            }
            importRates.append(Double(changes) / (run.milliseconds / 1000))
            seconds.append(run.milliseconds / 1000)
            memory.append(run.peakMebibytes)
            bench.removeFolder(device)
            if importFirst { try floors() }
        }
        let imported = Measurement("notes sync enable: import of the logs", unit: .rowsPerSecond, samples: importRates)
        let raw = Measurement(
            "raw SQLite: the same inserts and updates, and their history", unit: .rowsPerSecond, samples: floorRates)
        let plain = Measurement(
            "raw SQLite: the same inserts and updates, without history", unit: .rowsPerSecond, samples: plainRates)
        report.measurements = [
            imported, raw, plain,
            Measurement("notes sync enable: import of the logs", unit: .seconds, samples: seconds),
            Measurement("notes sync enable: peak memory", unit: .mebibytes, samples: memory),
        ]
        report.facts.append(Fact("versions in history", rows.versionCount))
        let ratio = Ratio("import / raw SQLite with history", imported, over: raw, paired: (importRates, floorRates))
        report.ratios = [
            ratio,
            Ratio("import / raw SQLite without history", imported, over: plain, paired: (importRates, plainRates)),
            Ratio("raw with history / raw without", raw, over: plain, paired: (floorRates, plainRates)),
        ]
        report.facts.append(
            Fact(
                "rows written per repetition",
                "\(ReportPrinter.grouped(changes)) (\(ReportPrinter.grouped(count)) inserts, "
                    + "\(ReportPrinter.grouped(count)) updates, \(rows.collections.count) collections)"))
        report.targets = [
            TargetCheck(
                name: "import at least \(Self.targetRatio)× raw SQLite speed", met: ratio.value >= Self.targetRatio,
                detail:
                    "\(ReportPrinter.format(imported.median, .rowsPerSecond)) "
                    + "against \(ReportPrinter.format(raw.median, .rowsPerSecond)): "
                    + String(format: "%.2f×", ratio.value)
                    + (count < 100_000 ? " (quick sizes, not the target's 100,000 notes)" : ""))
        ]
        return report
    }

    /// Saves the notes on A, then a new body for each; returns the rows both saves wrote.
    private func writeHistory(on folder: URL, notes count: Int, collections: Int) throws -> Rows {
        let library = NoteLibrary(notes: count, collections: collections, seed: 91)
        let store = try Store(folder: folder)
        let notes = try library.saveAll(to: store)
        let file = folder.appendingPathComponent(Store.databaseFileName).path
        var rows = Rows()
        func items(_ kind: ItemKind) -> SQL {
            """
            SELECT id, kind, name, parent, created, modified, trashed, body FROM item \
            WHERE kind = \(kind.rawValue) ORDER BY rowid
            """
        }
        let lines: SQL = "SELECT \(sql: Self.lineColumns) FROM history_line ORDER BY object, property"
        var firstLines: [[RawValue]] = []
        (rows.collections, rows.notes, firstLines) = try DatabaseQueue(path: file).read { db in
            (
                try RawValue.rows(db, items(.collection)), try RawValue.rows(db, items(.note)),
                try RawValue.rows(db, lines)
            )
        }
        for row in firstLines {
            guard case let .bytes(bytes) = row[Self.lineObject], let object = UUID(storeBytes: bytes)?.storeString
            else { continue }
            rows.insertedVersions[object, default: []].append(row)
        }
        let second = try NoteLibrary.rewriteBodies(of: notes, in: store)
        var offsets: [String: Int] = [:]
        for (offset, row) in rows.notes.enumerated() {
            if case let .text(id) = row[InsertScenario.ItemColumn.id] { offsets[id] = offset }
        }
        try DatabaseQueue(path: file).read { db in
            // The outbox, not yet exported, holds the order of the changes in the logs.
            let updated = try SQLRequest<String>(
                literal: "SELECT object FROM outbox WHERE save = \(second?.save ?? 0) ORDER BY id"
            ).fetchAll(db)
            let current = try RawValue.rows(db, "SELECT \(sql: Self.updateColumns) FROM item WHERE kind = 'note'")
            var byID: [String: [RawValue]] = [:]
            for row in current { if case let .text(id) = row[UpdateColumn.id] { byID[id] = row } }
            rows.updates = updated.compactMap { byID[$0] }
            rows.updated = updated.compactMap { offsets[$0] }
            // Each line as the second save left it, where that save changed it.
            let unchanged = Set(firstLines)
            for row in try RawValue.rows(db, lines) where !unchanged.contains(row) {
                guard case let .bytes(bytes) = row[Self.lineObject], let object = UUID(storeBytes: bytes)?.storeString
                else { continue }
                rows.updatedVersions[object, default: []].append(row)
            }
            rows.versionCount = try Int.fetchOne(db, sql: "SELECT SUM(versions) FROM history_line") ?? 0
        }
        return rows
    }

    /// Writes the rows into a fresh store file with the C API in one transaction; returns the
    /// time it took in milliseconds.
    static let lineColumns = "object, property, versions, oldest, line"
    /// Where a row of ``lineColumns`` holds the object.
    static let lineObject = 0
    /// The columns of a note as the second save left it, in the order of the update.
    static let updateColumns = "name, body, modified, id"
    /// Where a row of ``updateColumns`` holds the name, the body and the id.
    enum UpdateColumn {
        static let name = 0
        static let body = 1
        static let id = 3
    }

    private func floor(_ rows: Rows, history: Bool, bench: Workbench) throws -> Double {
        let folder = try bench.makeFolder("import-raw")
        defer { bench.removeFolder(folder) }
        _ = try Store(folder: folder)  // makes the schema, and closes
        let connection = try RawConnection(path: folder.appendingPathComponent(Store.databaseFileName).path)
        let insert = try connection.prepare(InsertScenario.itemInsertSQL)
        let index = try connection.prepare(
            "INSERT INTO item_fts (rowid, name, body) VALUES (last_insert_rowid(), ?, ?)")
        let unindex = try connection.prepare(
            "INSERT INTO item_fts (item_fts, rowid, name, body) VALUES ('delete', ?, ?, ?)")
        let update = try connection.prepare("UPDATE item SET name = ?, body = ?, modified = ? WHERE id = ?")
        let reindex = try connection.prepare("INSERT INTO item_fts (rowid, name, body) VALUES (?, ?, ?)")
        let trigrams = try connection.prepare("INSERT INTO item_trigram (rowid, name, body) VALUES (?, ?, ?)")
        let untrigram = try connection.prepare(
            "INSERT INTO item_trigram (item_trigram, rowid, name, body) VALUES ('delete', ?, ?, ?)")
        /// The entry of the trigram index of a row, as the store writes it.
        func trigramEntry(_ statement: RawStatement, _ rowid: RawValue, _ name: RawValue, _ body: RawValue) throws {
            statement.bind([rowid, InsertScenario.padded(name), InsertScenario.padded(body)])
            try statement.execute()
        }
        let version = try connection.prepare(
            """
            INSERT INTO history_line (\(Self.lineColumns)) VALUES (?, ?, ?, ?, ?)
            ON CONFLICT (object, property) \
            DO UPDATE SET versions = excluded.versions, oldest = excluded.oldest, line = excluded.line
            """)
        func writeVersions(_ rows: [[RawValue]]?) throws {
            for row in history ? rows ?? [] : [] {
                version.bind(row)
                try version.execute()
            }
        }
        func id(_ row: [RawValue], _ column: Int) -> String {
            if case let .text(id) = row[column] { return id }
            return ""
        }
        return try Stopwatch.milliseconds {
            try connection.execute("BEGIN IMMEDIATE")
            for row in rows.collections {
                insert.bind(row)
                try insert.execute()
                try writeVersions(rows.insertedVersions[id(row, InsertScenario.ItemColumn.id)])
            }
            var rowids: [Int64] = []
            for row in rows.notes {
                insert.bind(row)
                try insert.execute()
                rowids.append(connection.lastInsertedRowID)
                index.bind([row[InsertScenario.ItemColumn.name], row[InsertScenario.ItemColumn.body]])
                try index.execute()
                try trigramEntry(
                    trigrams, .integer(rowids[rowids.count - 1]), row[InsertScenario.ItemColumn.name],
                    row[InsertScenario.ItemColumn.body])
                try writeVersions(rows.insertedVersions[id(row, InsertScenario.ItemColumn.id)])
            }
            for row in rows.updates {
                update.bind(row)
                try update.execute()
                try writeVersions(rows.updatedVersions[id(row, UpdateColumn.id)])
            }
            // The index in the order of rows, as the store writes it (see SearchIndex).
            for (row, offset) in zip(rows.updates, rows.updated).sorted(by: { $0.1 < $1.1 }) {
                let rowid = RawValue.integer(rowids[offset])
                let note = rows.notes[offset]
                unindex.bind([rowid, note[InsertScenario.ItemColumn.name], note[InsertScenario.ItemColumn.body]])
                try unindex.execute()
                reindex.bind([rowid, row[UpdateColumn.name], row[UpdateColumn.body]])
                try reindex.execute()
                try trigramEntry(
                    untrigram, rowid, note[InsertScenario.ItemColumn.name], note[InsertScenario.ItemColumn.body])
                try trigramEntry(trigrams, rowid, row[UpdateColumn.name], row[UpdateColumn.body])
            }
            try connection.execute("COMMIT")
        }
    }
}
