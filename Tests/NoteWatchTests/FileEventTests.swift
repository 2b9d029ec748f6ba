import Foundation
import NoteTestSupport
import NoteWatch
import Testing

#if canImport(Glibc)
    import Glibc
#endif

extension WatcherTests {
    @Suite struct FileEvents {
        @Test func theFirstBatchIsARescan() throws {
            let fixture = try WatchFixture()
            #expect(eventually(within: 5) { !fixture.recorder.batches.isEmpty })
            #expect(fixture.recorder.batches.first == [.rescan])
        }

        /// The time from `rename(2)` to the handler call, for files renamed one after another.
        /// With coalescing, a file renamed right after the previous batch waits for the period.
        @Test(arguments: [Duration.zero, .milliseconds(5)])
        func aRenamedFileIsReportedWithinMilliseconds(coalescing: Duration) throws {
            let fixture = try WatchFixture(coalescing: coalescing)
            try fixture.makeFolder("logs")
            var latencies: [Duration] = []
            for sequence in 1...20 {
                let name = "logs/\(String(format: "%012d", sequence)).log"
                let temporary = try fixture.writeTemporary(in: "logs")
                let renamed = ContinuousClock.now
                try fixture.publish(temporary, as: name)
                #expect(fixture.recorder.waitFor(.fileReady(name)))
                guard let arrival = fixture.recorder.arrival(of: .fileReady(name)) else { return }
                latencies.append(arrival - renamed)
            }
            latencies.sort()
            let median = latencies[latencies.count / 2], slowest = latencies[latencies.count - 1]
            print(
                "rename to handler, coalescing \(coalescing.milliseconds) ms: "
                    + "median \(median.milliseconds) ms, slowest \(slowest.milliseconds) ms of \(latencies.count)"
            )
            #expect(slowest < .milliseconds(500))
        }

        @Test func temporaryNamesAreNotReportedButTheirRenameIs() throws {
            let fixture = try WatchFixture()
            try fixture.makeFolder("devices")
            let temporary = try fixture.writeTemporary(in: "devices")
            try fixture.publish(temporary, as: "devices/a.json")
            #expect(fixture.recorder.waitFor(.fileReady("devices/a.json")))
            // The temporary file's events came first: had they been reported, they would be here.
            let temporaryPath = "devices/" + temporary.lastPathComponent
            #expect(!fixture.recorder.events.contains(.fileReady(temporaryPath)))
            #expect(!fixture.recorder.events.contains(.removed(temporaryPath)))
            #expect(!fixture.recorder.events.contains { "\($0)".contains(".tmp-") })
        }

        @Test func aLinkedFileIsReported() throws {
            let fixture = try WatchFixture()
            try fixture.makeFolder("blobs")
            try fixture.link("blobs/0123")
            try fixture.link("container.json")
            #expect(fixture.recorder.waitFor(.fileReady("blobs/0123")))
            #expect(fixture.recorder.waitFor(.fileReady("container.json")))
            #expect(!fixture.recorder.events.contains { "\($0)".contains(".tmp-") })
        }

        @Test func aFileWrittenInPlaceIsReportedWhenClosed() throws {
            let fixture = try WatchFixture()
            let descriptor = open(fixture.url("notes.txt").path, O_WRONLY | O_CREAT | O_CLOEXEC, 0o600)
            #expect(descriptor >= 0)
            _ = write(descriptor, "first half", 10)
            #expect(fixture.recorder.waitFor(.fileReady("notes.txt")))
            let batchesBeforeClose = fixture.recorder.batches.count
            _ = write(descriptor, "second half", 11)
            close(descriptor)
            // Reported again once closed: the first report came from IN_CREATE.
            #expect(
                eventually(within: 5) {
                    fixture.recorder.batches.dropFirst(batchesBeforeClose).joined().contains(.fileReady("notes.txt"))
                })
        }

        @Test func aRemovedFileIsReported() throws {
            let fixture = try WatchFixture()
            try fixture.link("container.json")
            try fixture.makeFolder("devices")
            try fixture.write("devices/a.json")
            #expect(fixture.recorder.waitFor(.fileReady("devices/a.json")))
            try FileManager.default.removeItem(at: fixture.url("container.json"))
            #expect(fixture.recorder.waitFor(.removed("container.json")))
            try FileManager.default.moveItem(at: fixture.url("devices/a.json"), to: fixture.folder.appending("a.json"))
            #expect(fixture.recorder.waitFor(.removed("devices/a.json")))
        }

        @Test func writesInTheFolderOfModifiedFilesAreReported() throws {
            let fixture = try WatchFixture()
            let wal = fixture.store.appendingPathComponent("store.sqlite-wal")
            #expect(FileManager.default.createFile(atPath: wal.path, contents: nil))
            let handle = try FileHandle(forWritingTo: wal)
            try handle.write(contentsOf: Data("a page".utf8))
            try handle.close()
            #expect(fixture.recorder.waitFor(.modified("store.sqlite-wal")))
            // Nothing of the wake folder inside it, nor of the tree, is reported as modified.
            try fixture.write("container.json")
            #expect(fixture.recorder.waitFor(.fileReady("container.json")))
            let modified = fixture.recorder.events.filter { if case .modified = $0 { true } else { false } }
            #expect(Set(modified) == [.modified("store.sqlite-wal")])
        }
    }
}
