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

    private struct Command {
        let name: String
        let arguments: [String]
        var budget = ListingScenario.budgetMilliseconds
        /// Checks the output of the untimed first run.
        let check: (String) throws -> Void
    }

    func run(on bench: Workbench) throws -> ScenarioReport {
        let sizes = bench.sizes
        var report = ScenarioReport(name: "listing")
        report.parameters = [
            Fact("notes", sizes.libraryNotes), Fact("collections", sizes.collections),
            Fact("rounds", sizes.listingRounds),
        ]
        bench.progress("listing: generating \(sizes.libraryNotes) notes")
        var library = NoteLibrary(notes: sizes.libraryNotes, collections: sizes.collections)
        // A line of Japanese in 1% of the notes, for the search of the trigram index.
        for index in stride(from: 50, to: library.notes.count, by: 100) { library.notes[index].body += "\n" + Self.japaneseLine }
        let folder = try bench.makeFolder("listing-store")
        defer { bench.removeFolder(folder) }
        bench.progress("listing: saving them")
        let buildMilliseconds = try Stopwatch.milliseconds {
            let store = try Store(folder: folder)
            let ids = try library.saveCollections(to: store)
            try library.saveNotes(to: store, collectionIDs: ids)
        }

        let counts = library.noteCounts
        let chosen = Self.typicalNestedCollection(library, counts: counts)
        let marked = library.markedCount
        report.facts = [
            Fact("store built (one save of the collections, one of the notes)", String(format: "%.1f s", buildMilliseconds / 1000)),
            Fact("database size", Self.megabytes(folder.appendingPathComponent(Store.databaseFileName))),
            Fact(
                "listed collection",
                "'\(library.path(ofCollection: chosen))': \(counts[chosen]) notes, \(library.itemCount(inCollection: chosen)) items"),
            Fact("top level items", library.topLevelCount),
            Fact("notes with '\(TextGenerator.markedWord)'", marked),
            Fact("notes with '\(Self.japaneseTerm)'", library.notes.count { $0.body.contains(Self.japaneseTerm) }),
            Fact("phrase searched", "\"\(Self.phrase(in: library))\""),
        ] + (try Self.indexSizes(folder.appendingPathComponent(Store.databaseFileName)))

        let commands = makeCommands(store: folder, library: library, collection: chosen, counts: counts, marked: marked)
        bench.progress("listing: \(sizes.listingRounds) rounds of \(commands.count) commands")
        let samples = try measure(commands, rounds: sizes.listingRounds, bench: bench)
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
    private func measureSearchWithLongNotes(store: URL, marked: Int, bench: Workbench) throws -> (measurement: Measurement, sizes: String) {
        let megabytes = bench.sizes.longNoteMegabytes
        bench.progress("listing: adding notes of \(megabytes.map { "\($0)" }.joined(separator: ", ")) MB full of '\(TextGenerator.markedWord)'")
        let opened = try Store(folder: store)
        for size in megabytes {
            let body = Self.textFullOfMarkedWord(bytes: Int(size * 1_000_000))
            _ = try opened.addNote(named: "Long note of \(size) MB", body: body, in: nil)
        }
        let command = Command(
            name: "notes search <word>, with notes of \(megabytes.map { "\($0)" }.joined(separator: ", ")) MB full of it",
            arguments: ["--store", store.path, "search", TextGenerator.markedWord],
            check: { output in
                let lines = output.split(separator: "\n")
                guard lines.count == 2 * min(marked + megabytes.count, 20), lines.allSatisfy({ $0.utf8.count < 400 }) else {
                    throw BenchError.unexpected("notes search printed \(lines.count) lines, or a line of 400 bytes or more")
                }
            })
        let samples = try measure([command], rounds: bench.sizes.listingRounds, bench: bench)
        let sizes = megabytes.map { String(format: "%g MB", $0) }.joined(separator: ", ")
        return (Measurement(command.name, unit: .milliseconds, samples: samples[0]), sizes)
    }

    /// Text of about `bytes` bytes in which every other word is the searched word.
    static func textFullOfMarkedWord(bytes: Int) -> String {
        let unit = "\(TextGenerator.markedWord) lorem \(TextGenerator.markedWord) ipsum, \(TextGenerator.markedWord) dolor. "
        return String(repeating: unit, count: max(1, bytes / unit.utf8.count))
    }

    private func makeCommands(store: URL, library: NoteLibrary, collection: Int, counts: [Int], marked: Int) -> [Command] {
        let storeArguments = ["--store", store.path]
        func expectLines(_ expected: Int, _ what: String) -> (String) throws -> Void {
            return { output in
                let lines = output.split(separator: "\n").count
                guard lines == expected else {
                    throw BenchError.unexpected("\(what) printed \(lines) lines, not \(expected)")
                }
            }
        }
        return [
            Command(name: "notes --version", arguments: ["--version"]) { output in
                guard !output.isEmpty else { throw BenchError.unexpected("notes --version printed nothing") }
            },
            Command(
                name: "notes ls <collection>",
                arguments: storeArguments + ["ls", library.path(ofCollection: collection)],
                check: expectLines(library.itemCount(inCollection: collection), "notes ls <collection>")),
            Command(name: "notes ls", arguments: storeArguments + ["ls"], check: expectLines(library.topLevelCount, "notes ls")),
            Command(
                name: "notes search <word>",
                arguments: storeArguments + ["search", TextGenerator.markedWord],
                // Two lines a result: the path, then the snippet; at most 20 results.
                check: expectLines(2 * min(marked, 20), "notes search")),
            Command(
                name: "notes ls <COLLECTION> (forgiving)",
                arguments: storeArguments + ["ls", library.path(ofCollection: collection).uppercased()],
                budget: Self.forgivingReferenceBudgetMilliseconds,
                check: expectLines(library.itemCount(inCollection: collection), "notes ls <COLLECTION>")),
            Command(
                name: "notes search \"<phrase>\"",
                arguments: storeArguments + ["search", "\"\(Self.phrase(in: library))\""],
                budget: Self.longNoteSearchBudgetMilliseconds,
                check: { output in
                    let lines = output.split(separator: "\n").count
                    guard lines > 0, lines % 2 == 0 else { throw BenchError.unexpected("notes search \"<phrase>\" printed \(lines) lines") }
                }),
            Command(
                name: "notes search <Japanese> (trigram index)",
                arguments: storeArguments + ["search", Self.japaneseTerm],
                budget: Self.longNoteSearchBudgetMilliseconds,
                check: expectLines(
                    2 * min(library.notes.count { $0.body.contains(Self.japaneseTerm) }, 20), "notes search <Japanese>")),
        ]
    }

    /// Runs every command once untimed (to warm the page cache and check its output), then
    /// in rounds, each round starting one command later than the one before.
    private func measure(_ commands: [Command], rounds: Int, bench: Workbench) throws -> [[Double]] {
        let notes = try bench.notes()
        for command in commands {
            try command.check(try notes.run(command.arguments, capturingOutput: true).output)
        }
        var samples = Array(repeating: [Double](), count: commands.count)
        for round in 0..<rounds {
            for step in commands.indices {
                let index = (round + step) % commands.count
                samples[index].append(try notes.run(commands[index].arguments).milliseconds)
            }
        }
        return samples
    }

    /// A collection inside another whose number of notes is closest to the average.
    private static func typicalNestedCollection(_ library: NoteLibrary, counts: [Int]) -> Int {
        let average = Double(library.notes.count) / Double(max(library.collections.count, 1))
        let nested = library.collections.indices.filter { library.collections[$0].parent != nil }
        return nested.min { abs(Double(counts[$0]) - average) < abs(Double(counts[$1]) - average) } ?? 0
    }

    private static func check(_ measurement: Measurement, floor: Measurement, budget: Double, quick: Bool) -> TargetCheck {
        let median = measurement.median
        let met = median < budget
        var detail = "median \(ReportPrinter.format(median, .milliseconds)) "
        detail += met
            ? String(format: "is %.0f%% of the %.0f ms budget", median / budget * 100, budget)
            : String(format: "is %.2f× the %.0f ms budget", median / budget, budget)
        detail += "; p99 \(ReportPrinter.format(measurement.p99, .milliseconds))"
        detail += "; \(ReportPrinter.format(median - floor.median, .milliseconds)) above the start-up floor"
        if quick { detail += " (quick sizes, not the target's 100,000 notes)" }
        return TargetCheck(name: "\(measurement.name) under \(Int(budget)) ms", met: met, detail: detail)
    }

    /// The line of Japanese in 1% of the notes, and the word of it searched for.
    static let japaneseLine = "東京の会議室で打ち合わせをしました。"
    static let japaneseTerm = "会議室"

    /// A phrase to search for: the first two words of the body of the library's eighth note.
    static func phrase(in library: NoteLibrary) -> String {
        let words = library.notes[min(7, library.notes.count - 1)].body
            .split(whereSeparator: { !$0.isLetter }).prefix(2)
        return words.joined(separator: " ").lowercased()
    }

    /// The size of each full-text index (its FTS5 tables, by SQLite's dbstat) and of the rest
    /// of the database.
    static func indexSizes(_ file: URL) throws -> [Fact] {
        let queue = try DatabaseQueue(path: file.path)
        defer { try? queue.close() }
        let (words, trigrams, total) = try queue.read { db in
            (
                try Int.fetchOne(db, sql: "SELECT SUM(pgsize) FROM dbstat WHERE name LIKE 'item\\_fts%' ESCAPE '\\'") ?? 0,
                try Int.fetchOne(db, sql: "SELECT SUM(pgsize) FROM dbstat WHERE name LIKE 'item\\_trigram%' ESCAPE '\\'") ?? 0,
                try Int.fetchOne(db, sql: "SELECT SUM(pgsize) FROM dbstat") ?? 0
            )
        }
        func size(_ bytes: Int) -> String { String(format: "%.1f MB", Double(bytes) / 1_000_000) }
        return [
            Fact("word index (item_fts)", size(words)),
            Fact("trigram index (item_trigram)", size(trigrams)),
            Fact("rest of the store", size(total - words - trigrams)),
            Fact("trigram index / store without it", String(format: "%.2f", Double(trigrams) / Double(max(1, total - trigrams)))),
        ]
    }

    static func megabytes(_ file: URL) -> String {
        let bytes = ((try? FileManager.default.attributesOfItem(atPath: file.path))?[.size] as? NSNumber)?.intValue ?? 0
        return String(format: "%.1f MB", Double(bytes) / 1_000_000)
    }
}
