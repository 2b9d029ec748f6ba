import Foundation
import GRDB
import NoteStore

/// `listing`: reading a large store with the `notes` command, each run a separate process
/// measured end to end.
///
/// The store holds a ``NoteLibrary`` (100,000 notes in about 100 collections at full size).
/// Measured: `notes ls` of a nested collection of about 1,000 notes, `notes ls` of the top
/// level, `notes search` for a word in about 1% of the notes, for a phrase, and for a
/// Japanese word (through the trigram index) in 1% of the notes, `notes --version`, the floor
/// of starting the program at all, and `notes ls` of the nested collection named by its path
/// in capitals, a forgiving reference that reads every item's name (``ReferenceMatcher`` in
/// NoteStore). They run in rounds, in a rotating order. Then
/// notes of 1, 5 and 10 MB full of the searched word join the store, and the search is
/// measured again.
struct ListingScenario: Scenario {
    /// The target of ARCHITECTURE.md for each command, at 100,000 notes.
    static let budgetMilliseconds = 30.0
    /// The target for a search when the store holds notes of several megabytes full of the
    /// word, and for a phrase and a Japanese word.
    static let longNoteSearchBudgetMilliseconds = 50.0
    /// The target of a command given a forgiving reference, at 100,000 notes.
    static let forgivingReferenceBudgetMilliseconds = 50.0

    func run(on bench: Workbench) throws -> ScenarioReport {
        let sizes = bench.sizes
        var report = ScenarioReport(name: "listing")
        report.parameters = [
            Fact("notes", sizes.libraryNotes), Fact("collections", sizes.collections),
            Fact("rounds", sizes.listingRounds),
        ]
        bench.progress("listing: generating \(sizes.libraryNotes) notes")
        var library = NoteLibrary(notes: sizes.libraryNotes, collections: sizes.collections)
        ReadingCommands.addJapanese(to: &library)
        let folder = try bench.makeFolder("listing-store")
        defer { bench.removeFolder(folder) }
        bench.progress("listing: saving them")
        let buildMilliseconds = try Stopwatch.milliseconds {
            let store = try Store(folder: folder)
            let ids = try library.saveCollections(to: store)
            try library.saveNotes(to: store, collectionIDs: ids)
        }

        let counts = library.noteCounts
        let chosen = ReadingCommands.typicalNestedCollection(library)
        let marked = library.markedCount
        report.facts =
            [
                Fact(
                    "store built (one save of the collections, one of the notes)",
                    String(format: "%.1f s", buildMilliseconds / 1000)),
                Fact("database size", Self.megabytes(folder.appendingPathComponent(Store.databaseFileName))),
                Fact(
                    "listed collection",
                    "'\(library.path(ofCollection: chosen))': \(counts[chosen]) notes, "
                        + "\(library.itemCount(inCollection: chosen)) items"
                ),
                Fact("top level items", library.topLevelCount),
                Fact("notes with '\(TextGenerator.markedWord)'", marked),
                Fact(
                    "notes with '\(ReadingCommands.japaneseTerm)'",
                    library.notes.count { $0.body.contains(ReadingCommands.japaneseTerm) }),
                Fact("phrase searched", "\"\(ReadingCommands.phrase(in: library))\""),
            ] + (try Self.indexSizes(folder.appendingPathComponent(Store.databaseFileName)))

        let commands = ReadingCommands.make(store: folder, library: library, collection: chosen)
        bench.progress("listing: \(sizes.listingRounds) rounds of \(commands.count) commands")
        let samples = try ReadingCommands.measure(commands, rounds: sizes.listingRounds, bench: bench).samples
        report.measurements = zip(commands, samples).map { command, samples in
            Measurement(command.name, unit: .milliseconds, samples: samples)
        }
        let long = try measureSearchWithLongNotes(store: folder, marked: marked, bench: bench)
        report.facts.append(Fact("notes full of '\(TextGenerator.markedWord)' added for the last search", long.sizes))
        report.measurements.append(long.measurement)
        let floor = report.measurements[0]
        let quick = bench.sizes.libraryNotes < 100_000
        let budgets = commands.map(\.budget) + [Self.longNoteSearchBudgetMilliseconds]
        for (index, measurement) in report.measurements.enumerated().dropFirst() {
            report.ratios.append(Ratio("\(measurement.name) / \(floor.name) (medians)", measurement, over: floor))
            let budget = budgets[index]
            report.targets.append(Self.check(measurement, floor: floor, budget: budget, quick: quick))
        }
        return report
    }

    /// Adds notes of the sizes in ``BenchSizes/longNoteMegabytes``, every other word of which
    /// is the searched word, then times `notes search` for it.
    private func measureSearchWithLongNotes(store: URL, marked: Int, bench: Workbench) throws -> (
        measurement: Measurement, sizes: String
    ) {
        let megabytes = bench.sizes.longNoteMegabytes
        bench.progress(
            "listing: adding notes of \(megabytes.map { "\($0)" }.joined(separator: ", ")) MB "
                + "full of '\(TextGenerator.markedWord)'"
        )
        let opened = try Store(folder: store)
        for size in megabytes {
            let body = Self.textFullOfMarkedWord(bytes: Int(size * 1_000_000))
            _ = try opened.addNote(named: "Long note of \(size) MB", body: body, in: nil)
        }
        let command = ReadingCommands.Command(
            name:
                "notes search <word>, with notes of \(megabytes.map { "\($0)" }.joined(separator: ", ")) MB full of it",
            arguments: ["--store", store.path, "search", TextGenerator.markedWord],
            check: { output in
                let lines = output.split(separator: "\n")
                guard lines.count == 2 * min(marked + megabytes.count, 20), lines.allSatisfy({ $0.utf8.count < 400 })
                else {
                    throw BenchError.unexpected(
                        "notes search printed \(lines.count) lines, or a line of 400 bytes or more")
                }
            })
        let samples = try ReadingCommands.measure([command], rounds: bench.sizes.listingRounds, bench: bench).samples
        let sizes = megabytes.map { String(format: "%g MB", $0) }.joined(separator: ", ")
        return (Measurement(command.name, unit: .milliseconds, samples: samples[0]), sizes)
    }

    /// Text of about `bytes` bytes in which every other word is the searched word.
    static func textFullOfMarkedWord(bytes: Int) -> String {
        let unit =
            "\(TextGenerator.markedWord) lorem \(TextGenerator.markedWord) ipsum, \(TextGenerator.markedWord) dolor. "
        return String(repeating: unit, count: max(1, bytes / unit.utf8.count))
    }

    private static func check(_ measurement: Measurement, floor: Measurement, budget: Double, quick: Bool)
        -> TargetCheck
    {
        let median = measurement.median
        let met = median < budget
        var detail = "median \(ReportPrinter.format(median, .milliseconds)) "
        detail +=
            met
            ? String(format: "is %.0f%% of the %.0f ms budget", median / budget * 100, budget)
            : String(format: "is %.2f× the %.0f ms budget", median / budget, budget)
        detail += "; p99 \(ReportPrinter.format(measurement.p99, .milliseconds))"
        detail += "; \(ReportPrinter.format(median - floor.median, .milliseconds)) above the start-up floor"
        if quick { detail += " (quick sizes, not the target's 100,000 notes)" }
        return TargetCheck(name: "\(measurement.name) under \(Int(budget)) ms", met: met, detail: detail)
    }

    /// The size of each full-text index (its FTS5 tables, by SQLite's dbstat) and of the rest
    /// of the database.
    static func indexSizes(_ file: URL) throws -> [Fact] {
        let queue = try DatabaseQueue(path: file.path)
        defer { try? queue.close() }
        let (words, trigrams, total) = try queue.read { db in
            (
                try Int.fetchOne(db, sql: "SELECT SUM(pgsize) FROM dbstat WHERE name LIKE 'item\\_fts%' ESCAPE '\\'")
                    ?? 0,
                try Int.fetchOne(
                    db, sql: "SELECT SUM(pgsize) FROM dbstat WHERE name LIKE 'item\\_trigram%' ESCAPE '\\'") ?? 0,
                try Int.fetchOne(db, sql: "SELECT SUM(pgsize) FROM dbstat") ?? 0
            )
        }
        func size(_ bytes: Int) -> String { String(format: "%.1f MB", Double(bytes) / 1_000_000) }
        return [
            Fact("word index (item_fts)", size(words)),
            Fact("trigram index (item_trigram)", size(trigrams)),
            Fact("rest of the store", size(total - words - trigrams)),
            Fact(
                "trigram index / store without it",
                String(format: "%.2f", Double(trigrams) / Double(max(1, total - trigrams)))),
        ]
    }

    static func megabytes(_ file: URL) -> String {
        let bytes = ((try? FileManager.default.attributesOfItem(atPath: file.path))?[.size] as? NSNumber)?.intValue ?? 0
        return String(format: "%.1f MB", Double(bytes) / 1_000_000)
    }
}
