import Foundation

/// The commands that read a store of a ``NoteLibrary``, each a process measured end to end:
/// `notes --version` (the floor of starting the program at all), `notes ls` of a collection
/// and of the top level, `notes search` for a word in about 1% of the notes, for a phrase,
/// with filters, and for a Japanese word (through the trigram index), and `notes ls` of the
/// collection named by its path in capitals, a forgiving reference that reads every item's
/// name (``ReferenceMatcher`` in NoteStore). The `listing` and `scale` scenarios run them.
enum ReadingCommands {
    struct Command {
        let name: String
        let arguments: [String]
        var budget = ListingScenario.budgetMilliseconds
        /// Checks the output of the untimed first run.
        let check: (String) throws -> Void
    }

    /// The line of Japanese added to 1% of the notes (``addJapanese(to:)``), and the word of
    /// it searched for.
    static let japaneseLine = "東京の会議室で打ち合わせをしました。"
    static let japaneseTerm = "会議室"

    /// Adds ``japaneseLine`` to every hundredth note, for the search of the trigram index.
    static func addJapanese(to library: inout NoteLibrary) {
        for index in stride(from: 50, to: library.notes.count, by: 100) {
            library.notes[index].body += "\n" + japaneseLine
        }
    }

    /// A phrase to search for: the first two words of the body of the library's eighth note.
    static func phrase(in library: NoteLibrary) -> String {
        let words = library.notes[min(7, library.notes.count - 1)].body
            .split(whereSeparator: { !$0.isLetter }).prefix(2)
        return words.joined(separator: " ").lowercased()
    }

    /// A collection inside another whose number of notes is closest to the average.
    static func typicalNestedCollection(_ library: NoteLibrary) -> Int {
        let counts = library.noteCounts
        let average = Double(library.notes.count) / Double(max(library.collections.count, 1))
        let nested = library.collections.indices.filter { library.collections[$0].parent != nil }
        return nested.min { abs(Double(counts[$0]) - average) < abs(Double(counts[$1]) - average) } ?? 0
    }

    /// The commands on `store`, which holds `library`, listing `collection`.
    static func make(store: URL, library: NoteLibrary, collection: Int) -> [Command] {
        let storeArguments = ["--store", store.path]
        let marked = library.markedCount
        func expectLines(_ expected: Int, _ what: String) -> (String) throws -> Void {
            return { output in
                let lines = output.split(separator: "\n").count
                guard lines == expected else {
                    throw BenchError.unexpected("\(what) printed \(lines) lines, not \(expected):\n\(output)")
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
            Command(
                name: "notes ls", arguments: storeArguments + ["ls"],
                check: expectLines(library.topLevelCount, "notes ls")),
            Command(
                name: "notes search <word>",
                arguments: storeArguments + ["search", TextGenerator.markedWord],
                // Two lines a result: the path, then the snippet; at most 20 results.
                check: expectLines(2 * min(marked, 20), "notes search")),
            Command(
                name: "notes ls <COLLECTION> (forgiving)",
                arguments: storeArguments + ["ls", library.path(ofCollection: collection).uppercased()],
                budget: ListingScenario.forgivingReferenceBudgetMilliseconds,
                check: expectLines(library.itemCount(inCollection: collection), "notes ls <COLLECTION>")),
            Command(
                name: "notes search \"<phrase>\"",
                arguments: storeArguments + ["search", "\"\(phrase(in: library))\""],
                budget: ListingScenario.longNoteSearchBudgetMilliseconds,
                check: { output in
                    let lines = output.split(separator: "\n").count
                    guard lines > 0, lines % 2 == 0 else {
                        throw BenchError.unexpected("notes search \"<phrase>\" printed \(lines) lines")
                    }
                }),
            Command(
                name: "notes search <word> in:<collection> modified:>30d (filtered)",
                arguments: storeArguments + [
                    "search", TextGenerator.markedWord, "in:\"\(library.path(ofCollection: collection))\"",
                    "modified:>30d",
                ],
                budget: ListingScenario.longNoteSearchBudgetMilliseconds,
                check: { output in
                    guard output.split(separator: "\n").count % 2 == 0 else {
                        throw BenchError.unexpected("the filtered search printed an odd count of lines")
                    }
                }),
            Command(
                name: "notes search <Japanese> (trigram index)",
                arguments: storeArguments + ["search", japaneseTerm],
                budget: ListingScenario.longNoteSearchBudgetMilliseconds,
                check: expectLines(
                    2 * min(library.notes.count { $0.body.contains(japaneseTerm) }, 20), "notes search <Japanese>")),
        ]
    }

    /// Runs every command once untimed (to warm the page cache, check its output and take its
    /// peak memory), then in rounds, each round starting one command later than the one
    /// before. Returns each command's times in milliseconds, and its peak memory in MiB.
    static func measure(_ commands: [Command], rounds: Int, bench: Workbench) throws -> (
        samples: [[Double]], memory: [Double]
    ) {
        let notes = try bench.notes()
        var memory: [Double] = []
        for command in commands {
            let first = try notes.run(command.arguments, capturingOutput: true, measuringMemory: true)
            try command.check(first.output)
            memory.append(first.peakMebibytes)
        }
        var samples = Array(repeating: [Double](), count: commands.count)
        for round in 0..<rounds {
            for step in commands.indices {
                let index = (round + step) % commands.count
                samples[index].append(try notes.run(commands[index].arguments).milliseconds)
            }
        }
        return (samples, memory)
    }
}
