import Foundation
import NoteStore
import NoteTestSupport
import Synchronization
import Testing

#if canImport(Glibc)
    import Glibc
#endif

@Suite struct CommitSignalTests {
    /// The events of a file, through inotify(7).
    private final class FileEvents {
        let descriptor: Int32

        init(_ path: String) throws {
            descriptor = inotify_init1(Int32(IN_NONBLOCK | IN_CLOEXEC))
            guard descriptor >= 0, inotify_add_watch(descriptor, path, UInt32(IN_MODIFY)) >= 0 else {
                throw CocoaError(.fileReadUnknown)
            }
        }

        deinit { close(descriptor) }

        /// Whether the file was written since the last call, waiting up to `seconds`.
        func written(within seconds: Int32) -> Bool {
            var pending = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
            guard poll(&pending, 1, seconds * 1000) > 0 else { return false }
            var buffer = [UInt8](repeating: 0, count: 4096)
            while buffer.withUnsafeMutableBytes({ read(descriptor, $0.baseAddress, $0.count) }) > 0 {}
            return true
        }
    }

    @Test func eachCommitWritesTheSignalOnceItIsWhole() throws {
        let fixture = try StoreFixture()
        let signal = fixture.store.folder.appendingPathComponent(Store.commitSignalFileName)
        #expect(FileManager.default.fileExists(atPath: signal.path))
        let events = try FileEvents(signal.path)
        // Another store on the folder, as another process: its commit is seen through the signal.
        let other = try Store(folder: fixture.store.folder)
        let reader = try Store(folder: fixture.store.folder, access: .readOnly)
        for round in 0..<3 {
            let note = try other.addNote(named: "signalled \(round)", body: "", in: nil)
            #expect(events.written(within: 10), "round \(round)")
            #expect(try reader.item(note.id).name == "signalled \(round)", "round \(round)")
        }
        // A store opened to read writes nothing.
        _ = try reader.fetch(ItemRequest(scope: .topLevel))
        #expect(!events.written(within: 0))
    }

    @Test func checkNowLooksAtOnceWhateverThePace() throws {
        let fixture = try StoreFixture()
        let commits = Mutex(0)
        // At this pace the observation would not look again while the test runs.
        let observation = try fixture.store.observeCommits(every: 3600) { commits.withLock { $0 += 1 } }
        defer { observation.cancel() }
        let other = try Store(folder: fixture.store.folder)
        _ = try other.addNote(named: "elsewhere", body: "", in: nil)
        observation.checkNow()
        #expect(eventually { commits.withLock { $0 } == 1 })
        _ = try other.addNote(named: "again", body: "", in: nil)
        observation.checkNow()
        #expect(eventually { commits.withLock { $0 } == 2 })
    }
}
