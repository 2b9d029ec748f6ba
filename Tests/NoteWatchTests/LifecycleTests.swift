import Foundation
import NoteTestSupport
import NoteWatch
import Testing

#if canImport(Glibc)
    import Glibc
#endif

extension WatcherTests {
    @Suite struct Lifecycle {
        @Test func stopReturnsPromptly() throws {
            let fixture = try WatchFixture()
            #expect(fixture.recorder.waitFor(.rescan))
            let started = ContinuousClock.now
            fixture.watcher.stop()
            let stopping = ContinuousClock.now - started
            print("stop() returned in \(stopping.milliseconds) ms")
            #expect(stopping < .seconds(1))
        }

        @Test func aWatcherStartsAgainAfterStop() throws {
            let fixture = try WatchFixture()
            fixture.watcher.stop()
            let recorder = EventRecorder()
            try fixture.watcher.start(handler: recorder.record)
            try fixture.write("again")
            #expect(recorder.waitFor(.fileReady("again")))
            #expect(recorder.batches.first == [.rescan])
        }

        @Test func aSecondWatcherInTheProcessIsRefused() throws {
            let fixture = try WatchFixture()
            let other = TemporaryFolder("notes-watch-other")
            let second = DirectoryWatcher(root: other.appending("root"), wakeFolder: other.appending("run"))
            #expect(throws: WatchError.anotherWatcherRunning) { try second.start { _ in } }
            #expect(throws: WatchError.alreadyStarted) { try fixture.watcher.start { _ in } }
            fixture.watcher.stop()
            let recorder = EventRecorder()
            try second.start(handler: recorder.record)
            #expect(recorder.waitFor(.rescan))
            second.stop()
        }

        @Test func theHandlerCanStopTheWatcher() throws {
            let folder = TemporaryFolder("notes-watch")
            let root = folder.appending("root")
            try FileManager.default.createDirectory(at: root, withIntermediateDirectories: true)
            let watcher = DirectoryWatcher(root: root, wakeFolder: folder.appending("run"))
            let recorder = EventRecorder()
            try watcher.start { events in
                recorder.record(events)
                if events.contains(.fileReady("stop")) { watcher.stop() }
            }
            try Data().write(to: root.appendingPathComponent("stop"))
            #expect(recorder.waitFor(.fileReady("stop")))
            // The thread ends after the handler returns: then another watcher may start.
            let next = DirectoryWatcher(root: root, wakeFolder: folder.appending("run"))
            #expect(eventually(within: 5) { (try? next.start { _ in }) != nil })
            next.stop()
        }

        @Test func aStoppedWatcherIsFreedThoughItsHandlerHoldsIt() throws {
            let folder = TemporaryFolder("notes-watch")
            weak var released: DirectoryWatcher?
            try {
                let watcher = DirectoryWatcher(root: folder.appending("root"), wakeFolder: folder.appending("run"))
                try watcher.start { _ in _ = watcher.root }
                released = watcher
                watcher.stop()
            }()
            // The thread lets go of the handler when it ends, shortly after stop() returns.
            #expect(eventually(within: 5) { released == nil })
        }

        @Test func theInotifyDescriptorIsClosedOnExec() throws {
            let fixture = try WatchFixture()
            #expect(fixture.recorder.waitFor(.rescan))
            let descriptors = try FileManager.default.contentsOfDirectory(atPath: "/proc/self/fd").compactMap(
                Int32.init)
            let inotify = descriptors.filter { descriptor in
                (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/fd/\(descriptor)"))
                    == "anon_inode:inotify"
            }
            #expect(inotify.count == 1)
            for descriptor in inotify {
                #expect(fcntl(descriptor, F_GETFD) & FD_CLOEXEC != 0)
            }
        }

        @Test func startNamesAFolderThatCannotBeWatched() throws {
            let folder = TemporaryFolder("notes-watch")
            let missingParent = folder.appending("missing/root")
            let watcher = DirectoryWatcher(root: missingParent, wakeFolder: folder.appending("run"))
            #expect(
                throws: WatchError.cannotWatch(
                    path: folder.appending("missing").path, reason: "no such file or directory")
            ) {
                try watcher.start { _ in }
            }
            let inside = DirectoryWatcher(root: folder.url, wakeFolder: folder.appending("run"))
            #expect(throws: WatchError.self) { try inside.start { _ in } }
            do {
                try inside.start { _ in }
            } catch {
                #expect(
                    error.description
                        == "cannot watch '\(folder.path)' and '\(folder.appending("run").path)' together: "
                        + "the wake folder must be outside the watched root"
                )
            }
            // Nothing was left running by the failures.
            let recorder = EventRecorder()
            let watcher2 = DirectoryWatcher(root: folder.appending("root"), wakeFolder: folder.appending("run"))
            try watcher2.start(handler: recorder.record)
            #expect(recorder.waitFor(.rescan))
            watcher2.stop()
        }
    }
}
