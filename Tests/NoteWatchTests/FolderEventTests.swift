import Foundation
import NoteTestSupport
import NoteWatch
import Testing

extension WatcherTests {
    @Suite struct FolderEvents {
        @Test func aFolderMadeAfterStartIsWatched() throws {
            let fixture = try WatchFixture()
            try fixture.makeFolder("logs")
            // Made and written at once: the file may arrive before the folder's watch exists.
            try fixture.makeFolder("logs/device-a")
            try fixture.write("logs/device-a/000000000001.log")
            #expect(fixture.recorder.waitFor(.fileReady("logs/device-a/000000000001.log")))
            try fixture.write("logs/device-a/000000000002.log")
            #expect(fixture.recorder.waitFor(.fileReady("logs/device-a/000000000002.log")))
        }

        @Test func nestedFoldersMadeAtOnceAreWatched() throws {
            let fixture = try WatchFixture()
            try fixture.makeFolder("a/b/c")
            try fixture.write("a/b/c/early")
            #expect(fixture.recorder.waitFor(.fileReady("a/b/c/early")))
            try fixture.write("a/b/c/late")
            try fixture.write("a/b/later")
            #expect(fixture.recorder.waitFor(.fileReady("a/b/c/late")))
            #expect(fixture.recorder.waitFor(.fileReady("a/b/later")))
        }

        @Test func aFolderRenamedInTheTreeReportsUnderItsNewName() throws {
            let fixture = try WatchFixture()
            try fixture.makeFolder("a/inner")
            try fixture.write("a/inner/1")
            #expect(fixture.recorder.waitFor(.fileReady("a/inner/1")))
            try FileManager.default.moveItem(at: fixture.url("a"), to: fixture.url("b"))
            #expect(fixture.recorder.waitFor(.removed("a")))
            #expect(fixture.recorder.waitFor(.fileReady("b/inner/1")))
            try fixture.write("b/inner/2")
            #expect(fixture.recorder.waitFor(.fileReady("b/inner/2")))
            #expect(!fixture.recorder.events.contains(.fileReady("a/inner/2")))
        }

        @Test func aFolderMovedOutOfTheTreeIsNoLongerReported() throws {
            let fixture = try WatchFixture()
            try fixture.makeFolder("a")
            try fixture.write("a/1")
            #expect(fixture.recorder.waitFor(.fileReady("a/1")))
            let outside = fixture.folder.appending("outside")
            try FileManager.default.moveItem(at: fixture.url("a"), to: outside)
            #expect(fixture.recorder.waitFor(.removed("a")))
            try Data("x".utf8).write(to: outside.appendingPathComponent("2"))
            try fixture.write("z")
            // Events come in order: once z is reported, a file written before it would be too.
            #expect(fixture.recorder.waitFor(.fileReady("z")))
            #expect(!fixture.recorder.events.contains(.fileReady("a/2")))
        }

        @Test func hiddenFoldersAreNotReported() throws {
            let fixture = try WatchFixture()
            try fixture.makeFolder(".cache/inner")
            try fixture.write(".cache/inner/file")
            try fixture.write("z")
            #expect(fixture.recorder.waitFor(.fileReady("z")))
            #expect(!fixture.recorder.events.contains { "\($0)".contains(".cache") })
        }

        @Test func removingTheRootIsReportedAndItIsWatchedWhenMadeAgain() throws {
            let fixture = try WatchFixture()
            try fixture.link("container.json")
            try fixture.makeFolder("devices")
            try fixture.write("devices/a.json")
            #expect(fixture.recorder.waitFor(.fileReady("devices/a.json")))
            try FileManager.default.removeItem(at: fixture.root)
            #expect(fixture.recorder.waitFor(.removed("")))
            #expect(fixture.recorder.waitFor(.removed("container.json")))
            #expect(fixture.recorder.waitFor(.removed("devices/a.json")))
            #expect(fixture.recorder.waitFor(.removed("devices")))

            let rescans = fixture.recorder.events.filter { $0 == .rescan }.count
            try fixture.makeFolder("")
            #expect(eventually(within: 5) { fixture.recorder.events.filter { $0 == .rescan }.count == rescans + 1 })
            try fixture.makeFolder("logs")
            try fixture.write("logs/1")
            #expect(fixture.recorder.waitFor(.fileReady("logs/1")))
        }

        @Test func aRootMovedAwayIsReportedAndNoLongerWatched() throws {
            let fixture = try WatchFixture()
            try fixture.write("before")
            #expect(fixture.recorder.waitFor(.fileReady("before")))
            let away = fixture.folder.appending("away")
            try FileManager.default.moveItem(at: fixture.root, to: away)
            #expect(fixture.recorder.waitFor(.removed("")))
            try Data("x".utf8).write(to: away.appendingPathComponent("after"))
            // A root made again is looked at as a whole, then watched.
            try fixture.makeFolder("")
            #expect(eventually(within: 5) { fixture.recorder.events.filter { $0 == .rescan }.count == 2 })
            try fixture.write("new")
            #expect(fixture.recorder.waitFor(.fileReady("new")))
            #expect(!fixture.recorder.events.contains(.fileReady("after")))
        }

        @Test func aRootMadeAfterStartIsWatched() throws {
            let fixture = try WatchFixture(makingRoot: false)
            #expect(eventually(within: 5) { fixture.recorder.batches.first == [.rescan] })
            try fixture.makeFolder("logs")
            #expect(eventually(within: 5) { fixture.recorder.events.filter { $0 == .rescan }.count == 2 })
            try fixture.write("logs/1")
            #expect(fixture.recorder.waitFor(.fileReady("logs/1")))
        }
    }
}
