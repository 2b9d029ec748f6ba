import Foundation
import NoteTestSupport
import Testing

/// A store on a file system with no space left: reading commands still read, writing ones
/// say "no space left on device", and `notes watch` waits for space instead of ending. Needs
/// a small tmpfs, which only root may mount.
@Suite(.enabled(if: geteuid() == 0, "mounting a tmpfs needs root"))
struct FullDiskTests {
    @Test func aFullDiskStillReadsAndSaysWhy() throws {
        let folder = TemporaryFolder("notes-cli-full")
        let mountPoint = folder.appending("disk")
        try FileManager.default.createDirectory(at: mountPoint, withIntermediateDirectories: true)
        let mount = Process()
        mount.executableURL = URL(fileURLWithPath: "/bin/mount")
        mount.arguments = ["-t", "tmpfs", "-o", "size=4M", "tmpfs", mountPoint.path]
        try mount.run()
        mount.waitUntilExit()
        try #require(mount.terminationStatus == 0, "cannot mount a tmpfs here")
        defer {
            let unmount = Process()
            unmount.executableURL = URL(fileURLWithPath: "/bin/umount")
            unmount.arguments = [mountPoint.path]
            try? unmount.run()
            unmount.waitUntilExit()
        }
        let store = mountPoint.appendingPathComponent("store")
        #expect(try NotesCommand.run(["add", "kept", "--body", "safe"], store: store).status == 0)
        let filler = mountPoint.appendingPathComponent("filler")
        _ = FileManager.default.createFile(atPath: filler.path, contents: nil)
        let handle = try FileHandle(forWritingTo: filler)
        let block = Data(count: 64 * 1024)
        while (try? handle.write(contentsOf: block)) != nil {}
        try? handle.close()

        let listed = try NotesCommand.run(["ls"], store: store)
        #expect(listed.status == 0 && listed.output.contains("kept"), "\(listed)")
        #expect(try NotesCommand.run(["cat", "kept"], store: store).output == "safe")
        let added = try NotesCommand.run(["add", "more"], store: store)
        #expect(added.status != 0)
        #expect(added.error.contains("no space left on device"), "\(added)")

        let watcher = try BackgroundNotes(["watch"], store: store, mergingErrors: true)
        #expect(
            eventually { watcher.output.contains("no space left on device; waiting for space") }, "\(watcher.output)")
        #expect(watcher.process.isRunning)
        func watcherRuns() -> Bool {
            (try? NotesCommand.run(["sync", "status"], store: store).output.contains("watcher:   running")) == true
        }
        #expect(!watcherRuns())
        try FileManager.default.removeItem(at: filler)
        #expect(eventually(within: 20) { watcherRuns() }, "\(watcher.output)")
        #expect(watcher.stop(SIGINT) == 0)
        #expect(try NotesCommand.run(["add", "more"], store: store).status == 0)
    }
}
