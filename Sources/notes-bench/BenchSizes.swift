/// How big each scenario runs: full for the figures in docs/benchmarks.md, quick for a check
/// that the benchmark still works.
struct BenchSizes: Sendable {
    /// `local-save`: saves through the store API, and `notes add` runs.
    var saves: Int
    var addRuns: Int
    /// `listing`: notes in the store, collections, and rounds of the four commands.
    var libraryNotes: Int
    var collections: Int
    var listingRounds: Int
    /// `insert`: notes inserted in one save, and repetitions of each variant.
    var insertNotes: Int
    var insertRepetitions: Int

    static let full = BenchSizes(
        saves: 500, addRuns: 30, libraryNotes: 100_000, collections: 100, listingRounds: 30,
        insertNotes: 100_000, insertRepetitions: 3)

    static let quick = BenchSizes(
        saves: 40, addRuns: 5, libraryNotes: 10_000, collections: 100, listingRounds: 5,
        insertNotes: 5_000, insertRepetitions: 2)
}
