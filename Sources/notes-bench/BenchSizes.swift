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
    /// `listing`: the sizes of the notes full of the searched word added for the last search.
    var longNoteMegabytes: [Double]
    /// `browser`: notes in the store the browser shows, and saves made while it is open.
    var browserNotes: Int
    var browserSaves: Int
    /// `insert`: notes inserted in one save, and repetitions of each variant.
    var insertNotes: Int
    var insertRepetitions: Int
    /// `import`: notes inserted then updated on A, and repetitions of the import and floor.
    var importNotes: Int
    var importRepetitions: Int
    /// `sync-latency`: saves timed with the watchers, and rounds of the git peer.
    var syncSaves: Int
    var peerSaves: Int
    /// `sustained`: the length of each phase.
    var sustainedSeconds: Int
    /// `catch-up`: the sizes of the histories a new device joins, and repetitions of each.
    var catchUpNotes: [Int]
    var catchUpRepetitions: Int
    /// `catch-up`: how many times each note of the largest history is edited, for the
    /// history whose baseline a new device joins from as well.
    var catchUpEdits: Int
    /// `idle`: how long the watcher is watched at rest, and how many times it is stopped.
    var idleSeconds: Int
    var idleStops: Int
    /// `history`: one-line edits of a 10 KB note, and merges of a 100 KB note.
    var historyEdits: Int
    var mergeRounds: Int
    /// `syncthing`: rounds of a plain file and a note between the two hosts.
    var syncthingRounds: Int
    /// `interchange`: the sizes of the stores exported and imported (the first a quarter of
    /// the last, for memory), and repetitions of each.
    var interchangeNotes: [Int]
    var interchangeRepetitions: Int
    /// `encryption`: saves timed on each container, notes imported into each, repetitions of
    /// each import and of the key's derivation.
    var encryptionSaves: Int
    var encryptionNotes: Int
    var encryptionRepetitions: Int
    /// scrypt's cost for every encrypted container of a run, when not a new container's own
    /// (2^17): a quick run checks that encryption works, not what its key costs.
    var scryptCost: Int?
    /// `big-note`: the lines of the note (about 50 bytes each), and the one-line edits.
    var bigNoteLines: Int
    var bigNoteEdits: Int
    /// `big-file`: the size of the file attached and synced, in MiB.
    var bigFileMegabytes: Int
    /// `links`: the notes (each linking to five others), the notes that link to the one
    /// renamed, and the rounds of `backlinks`.
    var linkNotes: Int
    var hubBacklinks: Int
    var linkRounds: Int
    /// `scale`: the sizes of the stores, the notes of each collection, the rounds of the
    /// commands, and the new devices that join (and clones of the git peer) at each size.
    var scaleNotes: [Int]
    var notesPerCollection: Int
    var scaleRounds: Int
    var scaleJoins: Int

    /// `devices`: the devices of the container, the logs each device made in process publishes,
    /// and the saves timed on each pair.
    var manyDevices: Int
    var deviceLogs: Int
    var deviceSaves: Int

    static let full = BenchSizes(
        saves: 500, addRuns: 30, libraryNotes: 100_000, collections: 100, listingRounds: 30,
        longNoteMegabytes: [1, 5, 10], browserNotes: 100_000, browserSaves: 30,
        insertNotes: 100_000, insertRepetitions: 3, importNotes: 100_000, importRepetitions: 3,
        syncSaves: 500, peerSaves: 500, sustainedSeconds: 20,
        catchUpNotes: [10_000, 100_000], catchUpRepetitions: 3, catchUpEdits: 10, idleSeconds: 20, idleStops: 10,
        historyEdits: 1000, mergeRounds: 20, syncthingRounds: 30, interchangeNotes: [25_000, 100_000],
        interchangeRepetitions: 3,
        encryptionSaves: 300, encryptionNotes: 100_000, encryptionRepetitions: 3, scryptCost: nil,
        bigNoteLines: 195_000,
        bigNoteEdits: 200,
        bigFileMegabytes: 300, linkNotes: 100_000, hubBacklinks: 1_000, linkRounds: 30,
        scaleNotes: [10_000, 100_000, 1_000_000], notesPerCollection: 1_000, scaleRounds: 10, scaleJoins: 2,
        manyDevices: 50, deviceLogs: 200, deviceSaves: 200)

    static let quick = BenchSizes(
        saves: 40, addRuns: 5, libraryNotes: 2_000, collections: 100, listingRounds: 5,
        longNoteMegabytes: [0.1, 0.5, 1], browserNotes: 1_000, browserSaves: 5,
        insertNotes: 1_000, insertRepetitions: 2, importNotes: 400, importRepetitions: 1,
        syncSaves: 40, peerSaves: 10, sustainedSeconds: 1,
        catchUpNotes: [200], catchUpRepetitions: 1, catchUpEdits: 2, idleSeconds: 2, idleStops: 2,
        historyEdits: 50, mergeRounds: 3, syncthingRounds: 2, interchangeNotes: [100, 400], interchangeRepetitions: 1,
        encryptionSaves: 10, encryptionNotes: 150, encryptionRepetitions: 1, scryptCost: 1_024,
        bigNoteLines: 10_000, bigNoteEdits: 5,
        bigFileMegabytes: 16, linkNotes: 400, hubBacklinks: 50, linkRounds: 5,
        scaleNotes: [100, 400], notesPerCollection: 50, scaleRounds: 2, scaleJoins: 1,
        manyDevices: 4, deviceLogs: 3, deviceSaves: 6)
}
