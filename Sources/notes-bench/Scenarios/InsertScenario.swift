import Foundation
import GRDB
import NoteStore

/// `insert`: many notes inserted in one save through the store API (one ``ObjectContext``,
/// `insertNote` for each, one `save()`), against raw SQLite inserts of the same rows.
///
/// The raw runs use the C API with prepared statements in one transaction, on a store file
/// whose schema the store made (the same `item` table, indexes and FTS5 table), and insert the
/// very rows the first store run wrote, read back from its file, each with its full-text
/// entry as the store writes it. Three more raw variants tell where the time goes: one also
/// writes the save's outbox rows (the cost of the outbox itself), one leaves out the
/// full-text entries (the cost of indexing), one writes the entries of the trigram index too
/// (the cost of the second index). Every run gets a fresh store folder,
/// the collections the notes go into are saved first, untimed, and repetitions alternate
/// which side runs first.
struct InsertScenario: Scenario {
    /// The target of the issue: the store API at no less than a quarter of raw speed.
    static let targetRatio = 0.25

    static let itemInsertSQL = """
        INSERT INTO item (id, kind, name, parent, created, modified, trashed, body)
        VALUES (?, ?, ?, ?, ?, ?, ?, ?)
        """
    /// Where a row of ``itemInsertSQL`` holds the id, the name and the body.
    enum ItemColumn {
        static let id = 0
        static let name = 2
        static let body = 7
    }

    static let outboxInsertSQL = """
        INSERT INTO outbox (save, model, entity, object, operation, changes, recorded)
        VALUES (?, ?, ?, ?, ?, ?, ?)
        """

    /// The rows one store run wrote, as the raw runs insert them.
    struct WrittenRows {
        var collections: [[RawValue]]
        var notes: [[RawValue]]
        var outbox: [[RawValue]]
    }

    private struct StoreRun {
        let insertMilliseconds: Double
        let saveMilliseconds: Double
        var totalMilliseconds: Double { insertMilliseconds + saveMilliseconds }
    }

    /// The times of every run, by repetition.
    private struct Timings {
        var store: [StoreRun] = []
        /// By ``RawVariant``, in the order of `allCases`.
        var raw = Array(repeating: [Double](), count: RawVariant.allCases.count)
    }

    func run(on bench: Workbench) throws -> ScenarioReport {
        let sizes = bench.sizes
        var report = ScenarioReport(name: "insert")
        report.parameters = [
            Fact("notes", sizes.insertNotes), Fact("collections", sizes.collections),
            Fact("repetitions", sizes.insertRepetitions),
        ]
        bench.progress("insert: generating \(sizes.insertNotes) notes")
        let library = NoteLibrary(notes: sizes.insertNotes, collections: sizes.collections, seed: 42)
        let timings = try measure(library, bench: bench, report: &report)
        summarize(timings, count: sizes.insertNotes, into: &report)
        return report
    }

    /// Runs every repetition: the store run and each raw variant, the store first in even
    /// repetitions and last in odd ones. The first store run's rows are the raw runs' rows.
    private func measure(_ library: NoteLibrary, bench: Workbench, report: inout ScenarioReport) throws -> Timings {
        var timings = Timings()
        var rows: WrittenRows?
        for repetition in 0..<bench.sizes.insertRepetitions {
            bench.progress("insert: repetition \(repetition + 1) of \(bench.sizes.insertRepetitions)")
            let storeFirst = repetition % 2 == 0
            if storeFirst {
                let (run, folder, save) = try storeRun(library, bench: bench)
                timings.store.append(run)
                if rows == nil {
                    rows = try Self.readRows(from: folder, save: save)
                    report.facts += try Self.storeFacts(folder, save: save, expectedNotes: library.notes.count)
                }
                bench.removeFolder(folder)
            }
            guard let rows else { throw BenchError.unexpected("no store run wrote rows to compare with") }
            for (index, variant) in RawVariant.allCases.enumerated() {
                let (milliseconds, size) = try rawRun(rows, variant, bench: bench)
                timings.raw[index].append(milliseconds)
                if repetition == 0 && variant == .items {
                    report.facts.append(Fact("database size, raw item rows", size))
                }
            }
            if !storeFirst {
                let (run, folder, _) = try storeRun(library, bench: bench)
                timings.store.append(run)
                bench.removeFolder(folder)
            }
        }
        return timings
    }

    /// Turns the times into rates, ratios of paired runs and the target's verdict.
    private func summarize(_ timings: Timings, count: Int, into report: inout ScenarioReport) {
        func rates(_ milliseconds: [Double]) -> [Double] { milliseconds.map { Double(count) / ($0 / 1000) } }
        let storeRates = rates(timings.store.map(\.totalMilliseconds))
        let store = Measurement("store API: insertNote ×\(count) + save()", unit: .rowsPerSecond, samples: storeRates)
        let rawRates = timings.raw.map(rates)
        let raw = zip(RawVariant.allCases, rawRates).map { Measurement($0.name, unit: .rowsPerSecond, samples: $1) }
        report.measurements =
            [store] + raw + [
                Measurement(
                    "store API: insertNote ×\(count)", unit: .milliseconds,
                    samples: timings.store.map(\.insertMilliseconds)),
                Measurement("store API: save()", unit: .milliseconds, samples: timings.store.map(\.saveMilliseconds)),
            ] + zip(RawVariant.allCases, timings.raw).map { Measurement($0.name, unit: .milliseconds, samples: $1) }
        report.ratios = [
            Ratio("store API / raw item rows", store, over: raw[0], paired: (storeRates, rawRates[0])),
            Ratio("store API / raw item + outbox rows", store, over: raw[1], paired: (storeRates, rawRates[1])),
            Ratio("raw item + outbox / raw item rows", raw[1], over: raw[0], paired: (rawRates[1], rawRates[0])),
            Ratio(
                "raw without full-text entries / raw item rows", raw[2], over: raw[0],
                paired: (rawRates[2], rawRates[0])),
            Ratio("raw with trigram entries / raw item rows", raw[3], over: raw[0], paired: (rawRates[3], rawRates[0])),
            Ratio("store API / raw with trigram entries", store, over: raw[3], paired: (storeRates, rawRates[3])),
        ]
        report.targets = [Self.check(report.ratios[0], store: store, raw: raw[0], quick: count < 100_000)]
    }

    /// Inserts the library's notes through the store API into a fresh store, timing the
    /// inserts and the save; returns the folder, which the caller removes, and the save's number.
    private func storeRun(_ library: NoteLibrary, bench: Workbench) throws -> (StoreRun, URL, Int64) {
        let folder = try bench.makeFolder("insert-store")
        let (run, save): (StoreRun, Int64) = try {
            let store = try Store(folder: folder)
            // As in a store that syncs: the save records its outbox rows.
            try store.startRecordingChanges()
            let ids = try library.saveCollections(to: store)
            let context = store.makeContext()
            let insert = Stopwatch.milliseconds {
                for note in library.notes {
                    context.insertNote(named: note.name, body: note.body, in: note.collection.map { ids[$0] })
                }
            }
            let (summary, save) = try Stopwatch.time { try context.save() }
            guard let summary else { throw BenchError.unexpected("the store saved nothing") }
            return (StoreRun(insertMilliseconds: insert, saveMilliseconds: save), summary.save)
        }()
        return (run, folder, save)
    }

    /// What a raw run writes in its timed transaction.
    enum RawVariant: CaseIterable {
        /// The note rows, each followed by its full-text entry, as the store writes them.
        case items
        /// The same, then the save's outbox rows.
        case itemsAndOutbox
        /// The note rows alone, with no full-text entries.
        case itemsWithoutSearchIndex
        /// The note rows, each followed by its entries in both full-text indexes: the word
        /// index and the trigram index, as the store writes them.
        case itemsWithTrigrams

        var name: String {
            switch self {
            case .items: return "raw SQLite: item rows"
            case .itemsAndOutbox: return "raw SQLite: item + outbox rows"
            case .itemsWithoutSearchIndex: return "raw SQLite: item rows without full-text entries"
            case .itemsWithTrigrams: return "raw SQLite: item rows with word and trigram entries"
            }
        }
    }

    /// Inserts the rows into a fresh store file with the C API: the collections first,
    /// untimed, then the notes in one timed transaction, as `variant` says.
    /// Returns the time and the size of the database file once closed.
    func rawRun(_ rows: WrittenRows, _ variant: RawVariant, bench: Workbench) throws -> (
        milliseconds: Double, size: String
    ) {
        let folder = try bench.makeFolder("insert-raw")
        defer { bench.removeFolder(folder) }
        _ = try Store(folder: folder)  // makes the schema, and closes
        let file = folder.appendingPathComponent(Store.databaseFileName)
        let milliseconds: Double = try {
            let connection = try RawConnection(path: file.path)
            try connection.execute("BEGIN IMMEDIATE")
            let items = try connection.prepare(Self.itemInsertSQL)
            for row in rows.collections {
                items.bind(row)
                try items.execute()
            }
            try connection.execute("COMMIT")
            return try Stopwatch.milliseconds { try insertNotes(rows, variant, connection) }
        }()
        return (milliseconds, ListingScenario.megabytes(file))
    }

    /// The timed part of a raw run: one transaction with a prepared statement per table.
    private func insertNotes(_ rows: WrittenRows, _ variant: RawVariant, _ connection: RawConnection) throws {
        let items = try connection.prepare(Self.itemInsertSQL)
        let index = try connection.prepare(
            "INSERT INTO item_fts (rowid, name, body) VALUES (last_insert_rowid(), ?, ?)")
        let trigrams = try connection.prepare(
            "INSERT INTO item_trigram (rowid, name, body) VALUES (last_insert_rowid(), ?, ?)")
        try connection.execute("BEGIN IMMEDIATE")
        for row in rows.notes {
            items.bind(row)
            try items.execute()
            if variant != .itemsWithoutSearchIndex {
                index.bind([row[ItemColumn.name], row[ItemColumn.body]])
                try index.execute()
            }
            if variant == .itemsWithTrigrams {
                // The text as the store indexes it: ASCII text as it is, and two U+FFFF after.
                trigrams.bind([Self.padded(row[ItemColumn.name]), Self.padded(row[ItemColumn.body])])
                try trigrams.execute()
            }
        }
        if variant == .itemsAndOutbox {
            let entries = try connection.prepare(Self.outboxInsertSQL)
            for row in rows.outbox {
                entries.bind(row)
                try entries.execute()
            }
        }
        try connection.execute("COMMIT")
    }

    /// The text as the trigram index takes it: ASCII text as it is, and two U+FFFF after.
    static func padded(_ value: RawValue) -> RawValue {
        guard case let .text(text) = value else { return value }
        return .text(text + "\u{FFFF}\u{FFFF}")
    }

    /// The rows the store wrote: its collections, and the notes and outbox rows of `save`
    /// (of every save, with nil).
    static func readRows(from folder: URL, save: Int64?) throws -> WrittenRows {
        let queue = try DatabaseQueue(path: folder.appendingPathComponent(Store.databaseFileName).path)
        return try queue.read { db in
            func items(_ kind: ItemKind) -> SQL {
                """
                SELECT id, kind, name, parent, created, modified, trashed, body FROM item \
                WHERE kind = \(kind.rawValue) ORDER BY rowid
                """
            }
            let outbox: SQL = """
                SELECT save, model, entity, object, operation, changes, recorded FROM outbox
                WHERE save = \(save) OR \(save) IS NULL ORDER BY id
                """
            return WrittenRows(
                collections: try RawValue.rows(db, items(.collection)),
                notes: try RawValue.rows(db, items(.note)),
                outbox: try RawValue.rows(db, outbox))
        }
    }

    /// What the first store run wrote: notes, outbox rows of the save, database size.
    private static func storeFacts(_ folder: URL, save: Int64, expectedNotes: Int) throws -> [Fact] {
        let file = folder.appendingPathComponent(Store.databaseFileName)
        let (notes, outbox) = try DatabaseQueue(path: file.path).read { db in
            (
                try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM item WHERE kind = 'note'") ?? 0,
                try SQLRequest<Int>(literal: "SELECT COUNT(*) FROM outbox WHERE save = \(save)").fetchOne(db) ?? 0
            )
        }
        guard notes == expectedNotes else {
            throw BenchError.unexpected("the store holds \(notes) notes, not \(expectedNotes)")
        }
        return [
            Fact("outbox rows written by the save", outbox),
            Fact("database size, store API", ListingScenario.megabytes(file)),
        ]
    }

    private static func check(_ ratio: Ratio, store: Measurement, raw: Measurement, quick: Bool) -> TargetCheck {
        let met = ratio.value >= targetRatio
        var detail =
            "store \(ReportPrinter.format(store.median, .rowsPerSecond)) "
            + "against raw \(ReportPrinter.format(raw.median, .rowsPerSecond)): "
        detail += String(format: "%.2f× raw speed, ", ratio.value)
        detail +=
            met
            ? String(format: "%.1f× the %.2f× required", ratio.value / targetRatio, targetRatio)
            : String(format: "it needs to be %.1f× faster to reach %.2f×", targetRatio / ratio.value, targetRatio)
        if quick { detail += " (quick sizes, not the target's 100,000 notes)" }
        return TargetCheck(
            name: "store API at least \(targetRatio)× raw SQLite insert speed", met: met, detail: detail)
    }
}
