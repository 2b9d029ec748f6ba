import Foundation
import NoteTestSupport
import NoteWatch
import Testing

#if canImport(Glibc)
    import Glibc
#endif

extension WatcherTests {
    @Suite struct Bursts {
        @Test func aThousandFilesMakeFewHandlerCalls() throws {
            let fixture = try WatchFixture()
            try fixture.makeFolder("logs/device-a")
            #expect(fixture.recorder.waitFor(.rescan))
            let batchesBefore = fixture.recorder.batches.count
            let files = (1...1000).map { String(format: "%012d.log", $0) }
            let names = files.map { "logs/device-a/" + $0 }

            let folder = fixture.url("logs/device-a").path
            let paths = files.map { (temporary: folder + "/.tmp-" + $0, final: folder + "/" + $0) }
            let written = DispatchSemaphore(value: 0)
            let started = ContinuousClock.now
            Thread {
                for (temporary, final) in paths { Self.publish(temporary, as: final) }
                written.signal()
            }.start()
            #expect(written.wait(timeout: .now() + 30) == .success)
            let writing = ContinuousClock.now - started

            #expect(eventually(within: 10) { fixture.recorder.readyPaths.isSuperset(of: names) })
            let allReported = ContinuousClock.now - started
            let calls = fixture.recorder.batches.count - batchesBefore
            print(
                "1,000 files renamed in \(writing.milliseconds) ms by another thread: "
                    + "\(calls) handler calls, all reported within \(allReported.milliseconds) ms"
            )
            #expect(calls < 100)
            #expect(calls >= 1)
        }

        /// When the handler is slow, events wait in the kernel's queue; past its size
        /// (fs.inotify.max_queued_events) they are lost, and the watcher says to rescan.
        @Test func aQueueOverflowAsksForARescan() throws {
            let holding = DispatchSemaphore(value: 0), gate = DispatchSemaphore(value: 0)
            let recorder = EventRecorder { events in
                if events.contains(.fileReady("hold")) {
                    holding.signal()
                    gate.wait()
                }
            }
            let fixture = try WatchFixture(recorder: recorder)
            try fixture.write("hold")
            #expect(holding.wait(timeout: .now() + 5) == .success)

            // Each file makes two events: IN_CREATE and IN_CLOSE_WRITE.
            let queueSize =
                (try? String(contentsOfFile: "/proc/sys/fs/inotify/max_queued_events", encoding: .utf8))
                .flatMap { Int($0.trimmingCharacters(in: .whitespacesAndNewlines)) } ?? 16384
            let folder = fixture.url("")
            for index in 0..<(queueSize / 2 + 1000) {
                let descriptor = open(
                    folder.appendingPathComponent("f\(index)").path, O_WRONLY | O_CREAT | O_CLOEXEC, 0o600)
                close(descriptor)
            }
            gate.signal()
            #expect(eventually(within: 10) { fixture.recorder.events.filter { $0 == .rescan }.count == 2 })
            print("queue of \(queueSize) events overflowed: rescan reported")
        }

        /// Writes a file under a temporary name and renames it, as the container's writers do.
        private static func publish(_ temporary: String, as final: String) {
            let descriptor = open(temporary, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o600)
            _ = write(descriptor, final, final.utf8.count)
            close(descriptor)
            rename(temporary, final)
        }
    }
}
