import Foundation
import NoteStore
import NoteTestSupport
import Testing

@testable import NoteInterchange

/// Reading ahead on a thread of its own: everything arrives, in order, with bounded memory;
/// an error arrives after what was read before it; a reader dropped stops its thread; and an
/// import that skips a collection still gives every other note its own file.
@Suite struct ReadAheadTests {
    /// What the producing thread saw, shared with the test.
    final class Counters: @unchecked Sendable {
        private let lock = NSLock()
        private var produced = 0
        private var consumed = 0
        private(set) var mostAhead = 0
        private(set) var stopped = false

        func produce() {
            lock.withLock {
                produced += 1
                mostAhead = max(mostAhead, produced - consumed)
            }
        }

        func consume() { lock.withLock { consumed += 1 } }
        func stop() { lock.withLock { stopped = true } }
        var isStopped: Bool { lock.withLock { stopped } }
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

    /// Notes in folders between notes, more than a chunk of them in one folder, and a folder
    /// the import skips (its name breaks the store's rules): each note gets its own file's
    /// text, and each file is read once.
    @Test func prefetchedNotesMatchTheirFilesWhenTheImportSkipsACollection() throws {
        final class Reads: @unchecked Sendable {
            let lock = NSLock()
            var count: [String: Int] = [:]
            func read(_ name: String) { lock.withLock { count[name, default: 0] += 1 } }
        }
        let reads = Reads()
        let prefetched = PrefetchedReads()
        func note(_ path: String) -> ImportEntry {
            var entry = ImportEntry(source: path, kind: .note, name: path)
            let number = prefetched.add {
                reads.read(path)
                var read = ImportEntry(source: path, kind: .note, name: (path as NSString).lastPathComponent)
                read.body = "the text of \(path)"
                return (read, [])
            }
            entry.reading = { prefetched.take(number) }
            return entry
        }
        func collection(_ name: String, _ children: [ImportEntry]) -> ImportEntry {
            var entry = ImportEntry(source: name, kind: .collection, name: name)
            entry.children = children
            return entry
        }
        // Registered in the order of the tree, as a reader builds it.
        let a = note("a")
        let before = (0..<700).map { note("big/n\($0)") }
        let inner = collection("inner", [note("big/inner/x"), note("big/inner/y")])
        let after = (700..<1_500).map { note("big/n\($0)") }
        let b = note("b")
        let bad = collection("bad\u{1B}name", [note("bad/1"), note("bad/2")])
        let tree = [a, collection("big", before + [inner] + after), b, bad, note("c")]
        let folder = TemporaryFolder("notes-read-ahead")
        let store = try Store(folder: folder.appending("store"))
        let report = try Importer(store: store).run(tree, into: nil, dryRun: false)
        #expect(report.created == 3 + 1 + 1_500 + 1 + 2, "\(report)")
        #expect(report.problems.count == 1 && report.problems[0].hasPrefix("bad\u{1B}name: "), "\(report.problems)")
        let index = try store.collectionIndex()
        for item in try store.fetch(ItemRequest(kind: .note)) {
            let path = index.path(of: item)
            #expect(item.body == "the text of \(path)")
        }
        #expect(reads.count.values.allSatisfy { $0 == 1 } && reads.count.count == 1_500 + 2 + 3 + 2, "\(reads.count.filter { $0.value != 1 })")
    }

    @Test func byteSearchGivesIndexesOfTheText() {
        let text: Substring = "é ![a](b.png) ü ![c](d.png)"[...]
        let first = ByteSearch.firstRange(of: Array("![".utf8), in: text)
        #expect(first.map { String(text[$0.lowerBound...].prefix(4)) } == "![a]")
        let last = ByteSearch.lastRange(of: Array("![".utf8), in: text)
        #expect(last.map { String(text[$0.lowerBound...]) } == "![c](d.png)")
        #expect(ByteSearch.firstRange(of: Array("![".utf8), in: text, from: text.index(after: first!.lowerBound)) == last)
        #expect(ByteSearch.firstRange(of: Array("zz".utf8), in: text) == nil)
        #expect(MarkdownLinks.images(in: text).map(\.destination) == ["b.png", "d.png"])
    }

    @Test func frontMatterValuesReadAsBefore() {
        let (matter, body) = FrontMatter.split("---\nname: \"plain\"\nother: \"tab\\there \\\"q\\\"\"\n  key: x\ntags: [a, \"b c\"]\n---\nbody")
        #expect(matter?["name"] == "plain")
        #expect(matter?["other"] == "tab\there \"q\"")
        #expect(matter?["key"] == nil)
        #expect(matter?.list("tags") == ["a", "b c"])
        #expect(body == "body")
        #expect(FrontMatter.trimmed(" \t é x \t") == "é x")
        #expect(FrontMatter.unquoted("\"a\"b\"") == "\"a\"b\"")
    }
}
