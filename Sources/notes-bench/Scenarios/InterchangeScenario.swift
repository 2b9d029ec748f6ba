import Foundation
import NoteFiles
import NoteStore

/// `interchange`: `notes export` and `notes import` of a store of 100,000 notes (every tenth
/// with tags, every fifth with an attachment its body links: 20,000 images and PDFs), as
/// Markdown and as JSON, through the binary, each import into a fresh store,
/// against the raw insert floor of the same run: the C API writing the very item rows (with
/// their entries in both full-text indexes, the word index and the trigram index, as the store
/// writes them) that the import wrote, in one transaction; and against the floor of the rows
/// with their word index entries alone and the outbox rows (a floor without the trigram index,
/// which the store did not have when the target was set). A new
/// store records no outbox rows (it has never synced), so the JSON export is also imported
/// into a store that records them, as one that syncs does, against the floor of its own rows.
/// Each run's peak memory is taken, at a quarter of the size and at the full size, to see that
/// it stays flat as the store grows.
struct InterchangeScenario: Scenario {
    /// The targets of the issue.
    static let importRatio = 0.5
    static let exportRate = 20_000.0
    /// Flat: the peak memory of the largest run at most this many times that of the smallest.
    static let flatMemory = 1.5

    enum Format: String, CaseIterable {
        case md, json
        var label: String { self == .md ? "Markdown" : "JSON" }
    }

    private struct Sample {
        var exportSeconds: [Double] = []
        var exportMemory: [Double] = []
        var importSeconds: [Double] = []
        var importMemory: [Double] = []
    }

    func run(on bench: Workbench) throws -> ScenarioReport {
        let sizes = bench.sizes.interchangeNotes
        var report = ScenarioReport(name: "interchange")
        report.parameters = [
            Fact("notes", sizes.map(ReportPrinter.grouped).joined(separator: ", ")),
            Fact("collections", bench.sizes.collections),
            Fact(
                "attachments (images and PDFs)",
                sizes.map { ReportPrinter.grouped(Self.attachments(of: $0).images + Self.attachments(of: $0).files) }
                    .joined(separator: ", ")),
            Fact("repetitions", bench.sizes.interchangeRepetitions),
        ]
        var samples: [Int: [Format: Sample]] = [:]
        var floorRates: [Double] = []
        /// The floor of the rows with their entries in both full-text indexes.
        var bothIndexesFloorRates: [Double] = []
        /// The Markdown export's files written again by the C API alone: the file system's floor.
        var fileFloorRates: [Double] = []
        /// The JSON import into a store that records its outbox, and the floor of its rows.
        var recordingRates: [Double] = []
        var recordingFloorRates: [Double] = []
        var written: [URL] = []
        let notes = try bench.notes()
        for count in sizes {
            bench.progress("interchange: \(count) notes, making the store")
            let source = try bench.makeFolder("interchange-source")
            written.append(source)
            let files = try bench.makeFolder("interchange-files")
            try Self.fill(source, notes: count, collections: bench.sizes.collections, files: files)
            bench.removeFolder(files)
            let (images, others) = Self.attachments(of: count)
            for repetition in 0..<bench.sizes.interchangeRepetitions {
                for format in Format.allCases {
                    bench.progress("interchange: \(count) notes, \(format.label), repetition \(repetition + 1)")
                    let out = try bench.makeFolder("interchange-out")
                    let target = try bench.makeFolder("interchange-target")
                    bench.removeFolder(out)
                    bench.removeFolder(target)
                    let exported = try notes.run(
                        ["--store", source.path, "export", out.path, "--format", format.rawValue], measuringMemory: true
                    )
                    let imported = try notes.run(
                        ["--store", target.path, "import", out.path], capturingOutput: true, measuringMemory: true)
                    guard imported.output.hasPrefix("created \(count + bench.sizes.collections),"),
                        imported.output.contains("images \(images), files \(others),")
                    else {
                        throw BenchError.unexpected(
                            "the import said '\(imported.output.trimmingCharacters(in: .newlines))', "
                                + "not that it created \(count) notes "
                                + "and their collections with \(images) images and \(others) other files")
                    }
                    var sample = samples[count, default: [:]][format, default: Sample()]
                    sample.exportSeconds.append(exported.milliseconds / 1000)
                    sample.exportMemory.append(Double(exported.peakMemoryBytes ?? 0) / 1_048_576)
                    sample.importSeconds.append(imported.milliseconds / 1000)
                    sample.importMemory.append(Double(imported.peakMemoryBytes ?? 0) / 1_048_576)
                    samples[count, default: [:]][format] = sample
                    if count == sizes.last, format == .md {
                        let again = try bench.makeFolder("interchange-files")
                        bench.removeFolder(again)
                        written.append(again)
                        fileFloorRates.append(Double(count) / (try Self.writeFilesAgain(of: out, into: again)))
                    }
                    if count == sizes.last, format == .json {
                        let rows = try InsertScenario.readRows(from: target, save: nil)
                        let floor = try InsertScenario().rawRun(rows, .itemsAndOutbox, bench: bench)
                        floorRates.append(Double(count) / (floor.milliseconds / 1000))
                        let both = try InsertScenario().rawRun(rows, .itemsWithTrigrams, bench: bench)
                        bothIndexesFloorRates.append(Double(count) / (both.milliseconds / 1000))
                        let (rate, floorRate) = try importRecording(
                            out, notes: count, with: notes, bench: bench, written: &written)
                        recordingRates.append(rate)
                        recordingFloorRates.append(floorRate)
                    }
                    // Removed at the end: ext4 without a journal looks long for a free inode
                    // among those deleted in the last seconds, and 100,000 files just removed
                    // would slow the next export down by an order of magnitude.
                    written += [out, target]
                }
            }
        }
        for folder in written { bench.removeFolder(folder) }
        summarize(
            samples, floorRates: floorRates, bothIndexesFloorRates: bothIndexesFloorRates,
            fileFloorRates: fileFloorRates, sizes: sizes,
            quick: (sizes.last ?? 0) < 100_000, into: &report)
        if let largest = sizes.last {
            let imported = Measurement(
                "JSON: notes import into a store that records its outbox, \(ReportPrinter.grouped(largest)) notes",
                unit: .rowsPerSecond, samples: recordingRates)
            let floor = Measurement(
                "raw SQLite: that import's item (with full-text entries) + outbox rows", unit: .rowsPerSecond,
                samples: recordingFloorRates)
            report.measurements += [floor, imported]
            report.ratios.append(
                Ratio(
                    "JSON: import into a store that records its outbox / the floor of its rows", imported, over: floor))
        }
        return report
    }

    /// Imports the JSON export in `out` into a store that records its outbox, as a store that
    /// syncs does; returns the import's rate and that of the raw floor of the rows it wrote.
    private func importRecording(
        _ out: URL, notes count: Int, with notes: ProcessRunner, bench: Workbench, written: inout [URL]
    ) throws -> (Double, Double) {
        let target = try bench.makeFolder("interchange-recording")
        written.append(target)
        try Store(folder: target).startRecordingChanges()
        let imported = try notes.run(["--store", target.path, "import", out.path], capturingOutput: true)
        guard imported.output.hasPrefix("created \(count + bench.sizes.collections),") else {
            throw BenchError.unexpected(
                "the import into a recording store said '\(imported.output.trimmingCharacters(in: .newlines))'")
        }
        let rows = try InsertScenario.readRows(from: target, save: nil)
        guard rows.outbox.count >= count else {
            throw BenchError.unexpected(
                "the import into a recording store wrote \(rows.outbox.count) outbox rows, not one per note")
        }
        let floor = try InsertScenario().rawRun(rows, .itemsAndOutbox, bench: bench)
        return (Double(count) / (imported.milliseconds / 1000), Double(count) / (floor.milliseconds / 1000))
    }

    private func summarize(
        _ samples: [Int: [Format: Sample]], floorRates: [Double], bothIndexesFloorRates: [Double],
        fileFloorRates: [Double], sizes: [Int], quick: Bool, into report: inout ScenarioReport
    ) {
        guard let largest = sizes.last, let smallest = sizes.first else { return }
        let floor = Measurement(
            "raw SQLite: the import's item (with full-text entries) + outbox rows (none: a new store)",
            unit: .rowsPerSecond,
            samples: floorRates)
        let fileFloor = Measurement(
            "raw files: the Markdown export's folders and files written again (mkdir, open, write, close), per note",
            unit: .perSecond,
            samples: fileFloorRates)
        let bothIndexesFloor = Measurement(
            "raw SQLite: the import's item rows with their word and trigram entries", unit: .rowsPerSecond,
            samples: bothIndexesFloorRates)
        report.measurements += [floor, bothIndexesFloor, fileFloor]
        let note = quick ? " (quick sizes, not the target's 100,000 notes)" : ""
        for format in Format.allCases {
            guard let big = samples[largest]?[format], let small = samples[smallest]?[format] else { continue }
            let exportRates = big.exportSeconds.map { Double(largest) / $0 }
            let importRates = big.importSeconds.map { Double(largest) / $0 }
            let exported = Measurement(
                "\(format.label): notes export, \(ReportPrinter.grouped(largest)) notes", unit: .perSecond,
                samples: exportRates)
            let imported = Measurement(
                "\(format.label): notes import, \(ReportPrinter.grouped(largest)) notes", unit: .rowsPerSecond,
                samples: importRates)
            report.measurements += [
                exported, imported,
                Measurement(
                    "\(format.label): peak memory of export, \(ReportPrinter.grouped(smallest)) notes",
                    unit: .mebibytes, samples: small.exportMemory),
                Measurement(
                    "\(format.label): peak memory of export, \(ReportPrinter.grouped(largest)) notes", unit: .mebibytes,
                    samples: big.exportMemory),
                Measurement(
                    "\(format.label): peak memory of import, \(ReportPrinter.grouped(smallest)) notes",
                    unit: .mebibytes, samples: small.importMemory),
                Measurement(
                    "\(format.label): peak memory of import, \(ReportPrinter.grouped(largest)) notes", unit: .mebibytes,
                    samples: big.importMemory),
            ]
            report.ratios.append(
                Ratio("\(format.label): import / raw SQLite floor without the trigram index", imported, over: floor))
            let ratio = Ratio(
                "\(format.label): import / raw SQLite floor with both full-text indexes", imported,
                over: bothIndexesFloor)
            report.ratios.append(ratio)
            if format == .md {
                report.ratios.append(Ratio("Markdown: export / raw file floor", exported, over: fileFloor))
            }
            report.targets.append(
                TargetCheck(
                    name:
                        "\(format.label): import at least \(Self.importRatio)× the raw insert floor "
                        + "(with both full-text indexes)",
                    met: ratio.value >= Self.importRatio,
                    detail: String(format: "%.2f×", ratio.value) + note))
            report.targets.append(
                TargetCheck(
                    name: "\(format.label): export at least 20,000 notes/s", met: exported.median >= Self.exportRate,
                    detail: ReportPrinter.format(exported.median, .perSecond, unit: false) + " notes/s at the median"
                        + note
                        + (format == .md
                            ? "; this machine's file floor: "
                                + ReportPrinter.format(fileFloor.median, .perSecond, unit: false) + " notes' files/s"
                            : "")))
            for (what, smallRun, bigRun) in [
                ("export", small.exportMemory, big.exportMemory), ("import", small.importMemory, big.importMemory),
            ] {
                let low = Measurement("", unit: .mebibytes, samples: smallRun).median
                let high = Measurement("", unit: .mebibytes, samples: bigRun).median
                report.targets.append(
                    TargetCheck(
                        name:
                            "\(format.label): peak memory of \(what) flat "
                            + "(\(ReportPrinter.grouped(largest)) notes "
                            + "at most \(Self.flatMemory)× \(ReportPrinter.grouped(smallest)))",
                        met: high <= Self.flatMemory * low,
                        detail: ReportPrinter.format(low, .mebibytes) + " and " + ReportPrinter.format(high, .mebibytes)
                            + String(format: " (%.2f×)", high / low)))
            }
        }
    }

    /// Writes the folders and files of `export` again under `folder`, with the same names and
    /// sizes, by the C API alone (`mkdir`, `open`, `write`, `close`): what the file system
    /// costs an export of the same files on this machine. Returns the seconds it took.
    static func writeFilesAgain(of export: URL, into folder: URL) throws -> Double {
        var files: [(path: String, size: Int)] = []
        var folders: [String] = [""]
        var index = 0
        while index < folders.count {
            let relative = folders[index]
            index += 1
            for entry in try FolderListing.entries(of: export.path + relative) {
                let path = relative + "/" + entry.name
                if entry.kind == .folder { folders.append(path); continue }
                var info = stat()
                guard stat(export.path + path, &info) == 0 else {
                    throw BenchError.unexpected("cannot read \(export.path + path)")
                }
                files.append((path, Int(info.st_size)))
            }
        }
        let bytes = [UInt8](repeating: 0x61, count: files.map(\.size).max() ?? 0)
        let start = DispatchTime.now()
        for relative in folders where mkdir(folder.path + relative, 0o755) != 0 {
            throw BenchError.unexpected("cannot make \(folder.path + relative): \(String(cString: strerror(errno)))")
        }
        for (relative, size) in files {
            let descriptor = open(folder.path + relative, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
            let written = descriptor < 0 ? -1 : bytes.withUnsafeBytes { write(descriptor, $0.baseAddress, size) }
            let failure = errno
            if descriptor >= 0 { close(descriptor) }
            guard written == size else {
                throw BenchError.unexpected(
                    "cannot write \(folder.path + relative): \(String(cString: strerror(failure)))")
            }
        }
        return Double(DispatchTime.now().uptimeNanoseconds - start.uptimeNanoseconds) / 1e9
    }

    /// A store of `notes` notes in `collections` collections, every tenth note with two tags,
    /// and every fifth with an attachment that its body links: a PNG image (`![figure](...)`)
    /// or a PDF (`[document](...)`) in turn, each of its own bytes, in a folder `attachments`
    /// beside the note.
    static func fill(_ folder: URL, notes count: Int, collections: Int, files: URL) throws {
        var library = NoteLibrary(notes: count, collections: collections, seed: 7)
        for index in library.notes.indices where index % attachmentEvery == 0 {
            library.notes[index].body +=
                isImage(index)
                ? "\n\n![figure](attachments/n\(index).png)\n" : "\n\n[document](attachments/n\(index).pdf)\n"
        }
        let store = try Store(folder: folder)
        let ids = try library.saveCollections(to: store)
        guard let summary = try library.saveNotes(to: store, collectionIDs: ids) else {
            throw BenchError.unexpected("the store saved no notes")
        }
        let context = store.makeContext()
        for (index, id) in summary.inserted.enumerated() where index % 10 == 0 {
            try context.tag(id, with: ["tag\(index % 7)", "shared"])
        }
        try context.save()
        try FileManager.default.createDirectory(at: files, withIntermediateDirectories: true)
        var batch = store.makeContext()
        for (index, id) in summary.inserted.enumerated() where index % attachmentEvery == 0 {
            let name = "n\(index)." + (isImage(index) ? "png" : "pdf")
            let file = files.appendingPathComponent(name)
            try (isImage(index) ? GeneratedFiles.png(seed: index) : GeneratedFiles.pdf(seed: index)).write(to: file)
            try batch.attachFile(file, to: try store.item(id), fileName: name)
            try FileManager.default.removeItem(at: file)
            if index % 10_000 == 0 {
                try batch.save()
                batch = store.makeContext()
            }
        }
        try batch.save()
    }

    /// One note in this many has an attachment.
    static let attachmentEvery = 5

    /// Whether the attachment of note `index` is an image (else a PDF).
    static func isImage(_ index: Int) -> Bool { index % (2 * attachmentEvery) == 0 }

    /// The images and the other files that a store of `count` notes has.
    static func attachments(of count: Int) -> (images: Int, files: Int) {
        let attached = (count + attachmentEvery - 1) / attachmentEvery
        let images = (count + 2 * attachmentEvery - 1) / (2 * attachmentEvery)
        return (images, attached - images)
    }
}
