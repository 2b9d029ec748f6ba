import Foundation
import NoteTestSupport
import Testing

/// Faults in the container that the device holding the lost content can mend are mended
/// within a minute while that device's `notes watch` runs: the device that finds the fault
/// says so in its registration, the holder's watcher sees the registration change through
/// inotify and mends it, and the finder's watcher takes what was mended. Real processes, real
/// inotify, no hourly check.
@Suite struct HealingTests {
    let folder = TemporaryFolder("notes-cli-healing")
    var cloud: URL { folder.appending("cloud") }
    var container: URL { cloud.appendingPathComponent("NoteCollector") }

    /// The time a fault may take to be mended.
    static let healingTime: TimeInterval = 60

    enum Fault: String, CaseIterable, CustomTestStringConvertible {
        /// The log is cut in half.
        case truncatedLog
        /// An earlier log of the same device is found in its place, as a file-sync engine that
        /// brings back an old file would leave it.
        case replayedLog
        /// The folders of the two devices' logs trade places.
        case swappedLogFolders
        /// The blob of an attachment the log lists is cut in half.
        case truncatedBlob

        var testDescription: String { rawValue }
    }

    func notes(_ store: URL, _ arguments: String...) throws -> NotesResult {
        try NotesCommand.run(arguments, store: store)
    }

    func deviceID(_ store: URL) throws -> String {
        let status =
            try JSONSerialization.jsonObject(with: Data(try notes(store, "sync", "status", "--json").output.utf8))
            as? [String: Any]
        return try #require((status?["device"] as? [String: Any])?["id"] as? String)
    }

    func logs(of device: String) -> [URL] {
        let folder = container.appendingPathComponent("logs/\(device)")
        let names = (try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []
        return names.filter { $0.hasSuffix(".log") }.sorted().map { folder.appendingPathComponent($0) }
    }

    func cutInHalf(_ file: URL) throws {
        let data = try Data(contentsOf: file)
        try data.prefix(data.count / 2).write(to: file)
    }

    /// Whether `store` holds the note `name`, with its image and the image's bytes when
    /// `image`.
    func holdsWhole(_ store: URL, _ name: String, image: Bool = false) -> Bool {
        guard let listing = try? notes(store, "ls", "--json"), listing.output.contains("\"\(name)\""),
            let attachments = try? notes(store, "attachments", name)
        else { return false }
        return attachments.status == 0 && !attachments.output.contains("waiting")
            && attachments.output.contains("PNG") == image
    }

    /// Devices `a` and `b` enabled, with a note each, in step; `a`'s watcher running.
    func twoDevicesInStep() throws -> (a: URL, b: URL, writer: BackgroundNotes) {
        try FileManager.default.createDirectory(at: cloud, withIntermediateDirectories: true)
        let a = folder.appending("a"), b = folder.appending("b")
        for (store, name) in [(a, "a"), (b, "b")] {
            #expect(try notes(store, "sync", "enable", "--cloud", cloud.path, "--device-name", name).status == 0)
        }
        #expect(try notes(a, "add", "first", "--body", "before the fault").status == 0)
        #expect(try notes(b, "add", "from b", "--body", "so that b has logs too").status == 0)
        for store in [a, b, a] { #expect(try notes(store, "sync", "now").status == 0) }
        let writer = try BackgroundNotes(["watch", "-v"], store: a, mergingErrors: true)
        #expect(eventually { writer.output.contains("watching '") }, "\(writer.output)")
        return (a, b, writer)
    }

    /// Saves the note `second` on `a` (with an image when `image`), and waits until `a`'s
    /// watcher has published it.
    func saveSecond(on a: URL, image: Bool) throws {
        let deviceA = try deviceID(a)
        let published = logs(of: deviceA).count
        #expect(try notes(a, "add", "second", "--body", "after the fault").status == 0)
        if image { #expect(try notes(a, "attach", "second", SampleFiles.image("plain.png").path).status == 0) }
        let expected = published + (image ? 2 : 1)
        #expect(eventually { logs(of: deviceA).count == expected }, "\(logs(of: deviceA))")
    }

    func blobFile() throws -> URL {
        let blobs = container.appendingPathComponent("blobs")
        let files = try FileManager.default.subpathsOfDirectory(atPath: blobs.path)
            .map { blobs.appendingPathComponent($0) }
            .filter { (try? $0.resourceValues(forKeys: [.isRegularFileKey]).isRegularFile) == true }
        #expect(files.count == 1, "\(files)")
        return try #require(files.first)
    }

    /// Both devices go on: a later note of each reaches the other, and they list the same.
    func bothGoOn(_ a: URL, _ b: URL, image: Bool, _ outputs: @autoclosure () -> String) throws {
        #expect(try notes(a, "add", "third").status == 0)
        #expect(try notes(b, "add", "fourth").status == 0)
        #expect(eventually(within: 20) { holdsWhole(b, "third") && holdsWhole(a, "fourth") }, "\(outputs())")
        #expect(holdsWhole(b, "second", image: image))
        #expect(try notes(a, "ls").output == (try notes(b, "ls").output))
    }

    /// Device `a` with its watcher running and device `b` without one; `a` saves a note
    /// (with an image for a blob fault), its watcher publishes it, and the fault hits what it
    /// published before `b` reads it. Then `b`'s watcher starts; `b` must hold the whole note
    /// within ``healingTime``.
    @Test(arguments: Fault.allCases)
    func aFaultIsMendedWithinAMinuteWhileTheHoldersWatcherRuns(fault: Fault) throws {
        let (a, b, writer) = try twoDevicesInStep()
        defer { _ = writer.stop(SIGTERM) }
        let (deviceA, deviceB) = (try deviceID(a), try deviceID(b))
        try saveSecond(on: a, image: fault == .truncatedBlob)

        switch fault {
        case .truncatedLog:
            try cutInHalf(try #require(logs(of: deviceA).last))
        case .replayedLog:
            let all = logs(of: deviceA)
            let newest = try #require(all.last)
            try FileManager.default.removeItem(at: newest)
            try FileManager.default.copyItem(at: all[all.count - 2], to: newest)
        case .swappedLogFolders:
            let logsFolder = container.appendingPathComponent("logs")
            let (first, second) = (
                logsFolder.appendingPathComponent(deviceA), logsFolder.appendingPathComponent(deviceB)
            )
            let aside = logsFolder.appendingPathComponent("aside")
            try FileManager.default.moveItem(at: first, to: aside)
            try FileManager.default.moveItem(at: second, to: first)
            try FileManager.default.moveItem(at: aside, to: second)
        case .truncatedBlob:
            try cutInHalf(try blobFile())
        }

        let start = Date()
        let reader = try BackgroundNotes(["watch", "-v"], store: b, mergingErrors: true)
        defer { _ = reader.stop(SIGTERM) }
        let healed = eventually(within: Self.healingTime, pollingEvery: 0.2) {
            holdsWhole(b, "second", image: fault == .truncatedBlob)
        }
        #expect(healed, "b after \(Int(Date().timeIntervalSince(start))) s:\n\(reader.output)\na:\n\(writer.output)")
        try bothGoOn(a, b, image: fault == .truncatedBlob, "b:\n\(reader.output)\na:\n\(writer.output)")
    }

    /// A log or a blob that arrives damaged while the reader's watcher runs (stopped with
    /// SIGSTOP while the fault is made, so that its events wait in its inotify queue): the
    /// watcher that imports only the next logs finds it, says so at once, and is mended.
    @Test(arguments: [Fault.truncatedLog, .truncatedBlob])
    func aFaultThatArrivesWhileTheReaderWatchesIsMendedWithinAMinute(fault: Fault) throws {
        let (a, b, writer) = try twoDevicesInStep()
        defer { _ = writer.stop(SIGTERM) }
        let reader = try BackgroundNotes(["watch", "-v"], store: b, mergingErrors: true)
        defer { _ = reader.stop(SIGTERM) }
        #expect(eventually { reader.output.contains("watching '") }, "\(reader.output)")
        kill(reader.process.processIdentifier, SIGSTOP)
        try saveSecond(on: a, image: fault == .truncatedBlob)
        try cutInHalf(fault == .truncatedBlob ? try blobFile() : try #require(logs(of: try deviceID(a)).last))
        let start = Date()
        kill(reader.process.processIdentifier, SIGCONT)
        let healed = eventually(within: Self.healingTime, pollingEvery: 0.2) {
            holdsWhole(b, "second", image: fault == .truncatedBlob)
        }
        #expect(healed, "b after \(Int(Date().timeIntervalSince(start))) s:\n\(reader.output)\na:\n\(writer.output)")
        try bothGoOn(a, b, image: fault == .truncatedBlob, "b:\n\(reader.output)\na:\n\(writer.output)")
    }
}
