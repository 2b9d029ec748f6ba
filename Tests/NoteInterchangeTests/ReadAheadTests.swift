import Foundation
import NoteFiles
import NoteStore
import NoteTestSupport
import Synchronization
import Testing

@testable import NoteInterchange

/// Reading ahead on a thread of its own: everything arrives, in order, with bounded memory;
/// an error arrives after what was read before it; a reader dropped stops its thread; and a
/// tree walked as it is imported gives every note its own file.
@Suite struct ReadAheadTests {
    /// What the producing thread saw, shared with the test.
    final class Counters: Sendable {
        private struct Counts {
            var produced = 0
            var consumed = 0
            var mostAhead = 0
            var stopped = false
        }

        private let counts = Mutex(Counts())

        func produce() {
            counts.withLock { counts in
                counts.produced += 1
                counts.mostAhead = max(counts.mostAhead, counts.produced - counts.consumed)
            }
        }

        func consume() { counts.withLock { $0.consumed += 1 } }
        func stop() { counts.withLock { $0.stopped = true } }
        var mostAhead: Int { counts.withLock { $0.mostAhead } }
        var isStopped: Bool { counts.withLock { $0.stopped } }
    }

    @Test func everyElementArrivesInOrderAndFewWaitAtATime() throws {
        let counters = Counters()
        let reader = ReadAhead<Int>(capacity: 100, batchSize: 7) { send in
            for number in 0..<20_000 {
                counters.produce()
                guard send(number) else { return }
            }
        }
        var expected = 0
        while let number = try reader.next() {
            #expect(number == expected)
            if number != expected { break }
            counters.consume()
            expected += 1
        }
        #expect(expected == 20_000)
        // The thread waits once `capacity` elements wait: at most a batch more waits then,
        // with a batch in the thread's hands and one the caller works through.
        #expect(counters.mostAhead < 100 + 3 * 7, "\(counters.mostAhead) ahead")
    }

    @Test func fewBytesWaitAtATime() throws {
        let counters = Counters()
        // Each element counts 100 bytes: a batch is handed over at 250, and 1,000 may wait.
        let reader = ReadAhead<Int>(capacity: 10_000, byteCapacity: 1_000, batchSize: 64, bytes: { _ in 100 }) {
            send in
            for number in 0..<2_000 {
                counters.produce()
                guard send(number) else { return }
            }
        }
        var received = 0
        while try reader.next() != nil {
            counters.consume()
            received += 1
        }
        #expect(received == 2_000)
        // Ten elements wait, a batch of three is in the thread's hands, and the caller works
        // through another.
        #expect(counters.mostAhead <= 10 + 2 * 3 + 1, "\(counters.mostAhead) ahead")
    }

    /// The caller is told when the next element is not read yet, before it waits, and never
    /// when one is ready: an import saves then what it has.
    @Test func theCallerIsToldWhenItWouldWait() throws {
        // The thread sends each batch of two once the caller has been told one more time.
        let gate = Mutex(0)
        let reader = ReadAhead<Int>(batchSize: 2) { send in
            for number in 0..<6 {
                if number % 2 == 0 {
                    let deadline = ContinuousClock.now + .seconds(30)
                    while gate.withLock({ $0 }) <= number / 2, ContinuousClock.now < deadline {
                        Thread.sleep(forTimeInterval: 0.001)
                    }
                }
                guard send(number) else { return }
            }
        }
        var told: [Int] = []
        var received: [Int] = []
        while let number = try reader.next(whenWaiting: {
            told.append(received.count)
            gate.withLock { $0 += 1 }
        }) {
            received.append(number)
        }
        #expect(received == Array(0..<6))
        // Told before each batch, and not within one; perhaps once more before the end is seen.
        #expect(told == [0, 2, 4] || told == [0, 2, 4, 6], "\(told)")
    }

    /// Nothing is said while every element is ready: the thread sent them all before the
    /// caller asked.
    @Test func theCallerIsNotToldWhileElementsAreReady() throws {
        let sent = Mutex(false)
        let reader = ReadAhead<Int>(capacity: 1_000, batchSize: 3) { send in
            for number in 0..<100 { guard send(number) else { return } }
            sent.withLock { $0 = true }
        }
        let deadline = ContinuousClock.now + .seconds(30)
        while !sent.withLock({ $0 }), ContinuousClock.now < deadline { Thread.sleep(forTimeInterval: 0.001) }
        var told = 0
        var received = 0
        while try reader.next(whenWaiting: { told += 1 }) != nil { received += 1 }
        #expect(received == 100)
        // The thread may not have said it ended yet when the last batch is taken: once then.
        #expect(told <= 1, "told \(told) times")
    }

    @Test func whatWasReadAndNotGivenIsDiscarded() throws {
        let counters = Counters()
        let discarded = Mutex<Set<Int>>([])
        let produced = Mutex(0)
        var reader: ReadAhead<Int>? = ReadAhead(
            capacity: 50, batchSize: 4, discard: { number in discarded.withLock { _ = $0.insert(number) } }
        ) { send in
            defer { counters.stop() }
            var number = 0
            while true {
                produced.withLock { $0 = number + 1 }
                guard send(number) else { return }
                number += 1
            }
        }
        var given: Set<Int> = []
        for _ in 0..<10 { given.insert(try #require(try reader?.next())) }
        let deadline = Date().addingTimeInterval(10)
        // The thread reads ahead until the channel is full.
        while produced.withLock({ $0 }) < 50 && Date() < deadline { usleep(1_000) }
        reader = nil
        while !counters.isStopped && Date() < deadline { usleep(1_000) }
        #expect(counters.isStopped)
        let dropped = discarded.withLock { $0 }
        #expect(given.isDisjoint(with: dropped), "nothing given is discarded")
        #expect(given.union(dropped) == Set(0..<produced.withLock { $0 }), "everything read is given or discarded")
    }

    struct Broken: Error, Equatable {}

    @Test func anErrorArrivesAfterWhatWasReadBeforeIt() throws {
        let reader = ReadAhead<Int>(capacity: 10, batchSize: 3) { send in
            for number in 0..<5 { _ = send(number) }
            throw Broken()
        }
        var received: [Int] = []
        #expect(throws: Broken.self) {
            while let number = try reader.next() { received.append(number) }
        }
        #expect(received == [0, 1, 2, 3, 4])
    }

    @Test func aReaderDroppedStopsItsThread() throws {
        let counters = Counters()
        var reader: ReadAhead<Int>? = ReadAhead(capacity: 10, batchSize: 2) { send in
            defer { counters.stop() }
            var number = 0
            while send(number) { number += 1 }
        }
        #expect(try reader?.next() == 0)
        reader = nil
        let deadline = Date().addingTimeInterval(10)
        while !counters.isStopped && Date() < deadline { usleep(1_000) }
        #expect(counters.isStopped)
    }

    /// A tree walked as it is imported: notes in folders between notes, more than a batch of
    /// the read-ahead in one folder, a folder the import skips (its name breaks the store's
    /// rules) with what it holds, a folder of images alone (no collection) and an empty one
    /// an export made (a collection): each note gets its own file's text, in its own place,
    /// and its image. The same when the import saves whenever the reader is behind with one
    /// note (collections saved before what they hold, a note before its next file).
    @Test(arguments: [2_000, 1])
    func aWalkedTreeGivesEachNoteItsOwnFileInItsPlace(idleSaveItems: Int) throws {
        let folder = TemporaryFolder("notes-read-ahead")
        let tree = folder.appending("tree")
        func write(_ path: String, _ text: String? = nil) throws {
            let url = tree.appendingPathComponent(path)
            try FileManager.default.createDirectory(
                at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
            try Data((text ?? "the text of \(path)").utf8).write(to: url)
        }
        try write("a.md")
        for number in 0..<1_500 { try write("big/n\(number).md") }
        let images = ["plain.png", "interlaced.png", "baseline.jpg", "still.gif"]
        for image in images {
            try FileManager.default.createDirectory(
                at: tree.appendingPathComponent("big"), withIntermediateDirectories: true)
            try FileManager.default.copyItem(
                at: SampleFiles.image(image), to: tree.appendingPathComponent("big/\(image)"))
        }
        // Every hundredth note of `big` embeds an image, those of one note the same as another's.
        for number in stride(from: 0, to: 1_500, by: 100) {
            try write("big/n\(number).md", "the text of big/n\(number)\n![](\(images[number / 100 % images.count]))\n")
        }
        try write("big/inner/x.md")
        try write("big/inner/y.md")
        try write("big/inner/deeper/only images/picture.png", "not read")
        try write("b.md")
        try write("bad\u{1B}name/1.md")
        try write("bad\u{1B}name/sub/2.md")
        // Inside a folder the import skips, a file that would be reported is not read.
        try write("bad\u{1B}name/sub/latin1.md")
        try Data([0x66, 0xFF, 0x0A]).write(to: tree.appendingPathComponent("bad\u{1B}name/sub/latin1.md"))
        try write("bad\u{7}images/picture.png", "not read")
        try write("c.md")
        try write("empty/.collection.md", "---\nid: 0d1e2f3a-4b5c-4d6e-8f70-8192a3b4c5d6\n---\n")
        try write("images/picture.png", "not read")
        let reader = MarkdownReader()
        #expect(reader.count(tree) == 3 + 1_500 + 2 + 3)

        let store = try Store(folder: folder.appending("store"))
        var importer = Importer(store: store)
        importer.idleSaveItems = idleSaveItems
        let report = try importer.run(path: tree, into: nil, dryRun: false)
        #expect(report.created == 3 + 1 + 1_500 + 1 + 2 + 1, "\(report)")
        #expect(report.images == 15, "\(report)")
        #expect(report.problems.count == 1 && report.problems[0].hasPrefix("bad\u{1B}name: "), "\(report.problems)")
        let index = try store.collectionIndex()
        let notes = try store.fetch(ItemRequest(kind: .note))
        #expect(notes.count == 1_505)
        for item in notes {
            let path = index.path(of: item)
            let attachments = try store.attachments(of: item.id)
            if path.hasPrefix("big/n"), let number = Int(path.dropFirst(5)), number % 100 == 0 {
                let image = images[number / 100 % images.count]
                #expect(item.body == "the text of \(path)\n![](\(image))\n")
                #expect(attachments.count == 1)
                #expect(try attachments.map { try store.data(of: $0) } == [Data(contentsOf: SampleFiles.image(image))])
            } else {
                #expect(item.body == "the text of \(path).md")
                #expect(attachments.isEmpty)
            }
        }
        #expect(try store.check() == [])
        let collections = try store.fetch(ItemRequest(kind: .collection)).map { index.path(of: $0) }.sorted()
        #expect(collections == ["big", "big/inner", "empty"])
        #expect(try store.item(UUID(uuidString: "0d1e2f3a-4b5c-4d6e-8f70-8192a3b4c5d6")!).name == "empty")

        // Read whole, as a tree: the same places, in the order of names.
        let (entries, problems) = try reader.read(tree)
        #expect(problems == report.problems)
        #expect(entries.map(\.name) == ["a", "b", "big", "c", "empty"])
        #expect(entries[2].children.count == 1_501 && entries[2].children.first?.name == "inner")
        #expect(entries[2].children[0].children.map(\.name) == ["x", "y"])
    }

    @Test func byteSearchGivesIndexesOfTheText() {
        let text: Substring = "é ![a](b.png) ü ![c](d.png)"[...]
        let first = ByteSearch.firstRange(of: Array("![".utf8), in: text)
        #expect(first.map { String(text[$0.lowerBound...].prefix(4)) } == "![a]")
        let last = ByteSearch.lastRange(of: Array("![".utf8), in: text)
        #expect(last.map { String(text[$0.lowerBound...]) } == "![c](d.png)")
        #expect(
            ByteSearch.firstRange(of: Array("![".utf8), in: text, from: text.index(after: first!.lowerBound)) == last)
        #expect(ByteSearch.firstRange(of: Array("zz".utf8), in: text) == nil)
    }

    @Test func frontMatterValuesReadAsBefore() {
        let (matter, body) = FrontMatter.split(
            "---\nname: \"plain\"\nother: \"tab\\there \\\"q\\\"\"\n  key: x\ntags: [a, \"b c\"]\n---\nbody")
        #expect(matter?["name"] == "plain")
        #expect(matter?["other"] == "tab\there \"q\"")
        #expect(matter?["key"] == nil)
        #expect(matter?.list("tags") == ["a", "b c"])
        #expect(body == "body")
        #expect(FrontMatter.trimmed(" \t é x \t") == "é x")
        #expect(FrontMatter.unquoted("\"a\"b\"") == "\"a\"b\"")
    }
}
