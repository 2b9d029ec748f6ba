import Foundation
import NoteTestSupport
import NoteWatch
import Testing

#if canImport(Glibc)
    import Glibc
#endif

@Suite struct WatcherLockTests {
    @Test func aSecondHolderInTheProcessIsRefusedWithThisProcessID() throws {
        let folder = TemporaryFolder("notes-lock")
        let lock = try WatcherLock(in: folder.url)
        let path = folder.appending(WatcherLock.fileName).path
        #expect(throws: WatchError.locked(path: path, pid: getpid())) { try WatcherLock(in: folder.url) }
        do {
            _ = try WatcherLock(in: folder.url)
        } catch {
            #expect(
                error.description
                    == "cannot lock '\(path)': process \(getpid()) holds it, a watcher runs for this store already")
        }
        #expect(WatcherLock.holder(in: folder.url) == getpid())
        lock.release()
        #expect(WatcherLock.holder(in: folder.url) == nil)
        let next = try WatcherLock(in: folder.url)
        #expect(WatcherLock.holder(in: folder.url) == getpid())
        next.release()
    }

    @Test func aLockHeldByAnotherProcessNamesItAndIsFreedWhenItExits() throws {
        let folder = TemporaryFolder("notes-lock")
        let path = folder.appending(WatcherLock.fileName).path
        // flock(1) holds the lock while a shell writes its id into the file, as a watcher does,
        // then waits for its standard input to close.
        let holder = Process()
        holder.executableURL = URL(fileURLWithPath: "/usr/bin/flock")
        holder.arguments = ["-n", path, "sh", "-c", "echo $$ > \"$0\"; echo $$; exec cat", path]
        let input = Pipe(), output = Pipe()
        holder.standardInput = input
        holder.standardOutput = output
        try holder.run()
        let line = String(decoding: output.fileHandleForReading.availableData, as: UTF8.self)
        let pid = try #require(Int32(line.trimmingCharacters(in: .whitespacesAndNewlines)))

        #expect(throws: WatchError.locked(path: path, pid: pid)) { try WatcherLock(in: folder.url) }
        #expect(WatcherLock.holder(in: folder.url) == pid)

        try input.fileHandleForWriting.close()
        holder.waitUntilExit()
        // The kernel released the lock with the process; the id it left in the file is stale.
        #expect(WatcherLock.holder(in: folder.url) == nil)
        let lock = try WatcherLock(in: folder.url)
        #expect(try String(contentsOfFile: path, encoding: .utf8) == "\(getpid())\n")
        lock.release()
    }

    @Test func aLockThatCannotBeMadeIsNamed() throws {
        let folder = TemporaryFolder("notes-lock")
        let missing = folder.appending("missing")
        #expect(
            throws: WatchError.cannotLock(
                path: missing.appendingPathComponent(WatcherLock.fileName).path, reason: "no such file or directory")
        ) {
            try WatcherLock(in: missing)
        }
    }
}
