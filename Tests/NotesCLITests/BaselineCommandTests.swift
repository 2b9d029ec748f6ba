import Foundation
import NoteTestSupport
import Testing

/// `notes sync compact` writes a baseline; a new store that runs `notes sync enable` starts from
/// it. Killed with SIGKILL while writing or joining, and run again: nothing lost or doubled,
/// `notes check` ok.
@Suite struct BaselineCommandTests {
    let folder = TemporaryFolder("notes-cli-baseline")
    var cloud: URL { folder.appending("cloud") }
    var writer: URL { folder.appending("writer") }

    /// The passphrase of the encrypted containers of these tests (never asked for a plain one),
    /// with scrypt at its lowest accepted cost, and the crash point when there is one.
    func notes(_ store: URL, _ arguments: [String], crashAt point: String? = nil) throws -> NotesResult {
        var environment = ["NOTES_PASSPHRASE": "crash test", "NOTES_SCRYPT_COST": "1024"]
        if let point { environment["NOTES_CRASH_AT"] = point }
        return try NotesCommand.run(arguments, store: store, environment: environment)
    }

    func listing(_ store: URL) throws -> String {
        try notes(store, ["ls", "--recursive", "--json"]).output
    }

    /// A writer with notes, a collection and an image, attached to the container, which it
    /// makes encrypted with `encrypted`.
    func prepareWriter(encrypted: Bool = false) throws {
        try FileManager.default.createDirectory(at: cloud, withIntermediateDirectories: true)
        #expect(try notes(writer, ["mkcol", "Work"]).status == 0)
        for index in 0..<5 {
            #expect(try notes(writer, ["add", "Note \(index)", "--in", "Work", "--body", "text \(index)"]).status == 0)
        }
        #expect(try notes(writer, ["attach", "Work/Note 1", SampleFiles.image("plain.png").path]).status == 0)
        let encrypt = encrypted ? ["--encrypt"] : []
        #expect(
            try notes(writer, ["sync", "enable", "--cloud", cloud.path, "--device-name", "writer"] + encrypt).status
                == 0)
    }

    func deviceID(_ store: URL) throws -> String {
        let status = try JSONSerialization.jsonObject(
            with: Data(try notes(store, ["sync", "status", "--json"]).output.utf8))
        return ((status as? [String: Any])?["device"] as? [String: Any])?["id"] as? String ?? ""
    }

    func baselineFiles() -> [String] {
        let root = cloud.appendingPathComponent("NoteCollector/baselines")
        return ((try? FileManager.default.subpathsOfDirectory(atPath: root.path)) ?? []).filter { $0.contains(".") }
            .sorted()
    }

    @Test func aNewStoreStartsFromTheBaselineThatCompactWrote() throws {
        try prepareWriter()
        let compact = try notes(writer, ["sync", "compact"])
        #expect(compact.status == 0)
        #expect(compact.output.contains("baseline 1 written: 6 items, 1 log, "), "\(compact)")
        #expect(try notes(writer, ["add", "After", "--body", "later"]).status == 0)
        #expect(try notes(writer, ["sync", "now"]).status == 0)
        let status = try notes(writer, ["sync", "status"]).output
        #expect(status.contains("baseline:  1 of writer ("), "\(status)")
        let object =
            try JSONSerialization.jsonObject(with: Data(try notes(writer, ["sync", "status", "--json"]).output.utf8))
            as? [String: Any]
        let baseline = object?["baseline"] as? [String: Any]
        #expect(baseline?["sequence"] as? Int == 1 && baseline?["items"] as? Int == 6, "\(String(describing: object))")
        let joiner = folder.appending("joiner")
        let joined = try notes(joiner, ["sync", "enable", "--cloud", cloud.path])
        #expect(joined.status == 0)
        #expect(joined.output.contains("started from the baseline baselines/"), "\(joined)")
        #expect(joined.output.contains("exported 0 logs, imported 1 log"), "\(joined)")
        #expect(try listing(joiner) == listing(writer))
        #expect(try notes(joiner, ["check"]).output == "ok\n")
        #expect(try notes(joiner, ["attachments", "Work/Note 1"]).output.contains("PNG"))
    }

    /// A blob that the baseline covers, damaged in the container: a new store joins with every
    /// note, shows the attachment waiting for its bytes, and gets them once the writer's next
    /// sync has put them back.
    @Test func aNewStoreJoinsWhileABlobIsDamagedAndGetsItsBytesLater() throws {
        try prepareWriter()
        #expect(try notes(writer, ["sync", "compact"]).status == 0)
        let blobs = cloud.appendingPathComponent("NoteCollector/blobs")
        let names = try FileManager.default.contentsOfDirectory(atPath: blobs.path).filter { !$0.hasPrefix(".") }
        #expect(names.count == 1)
        let blob = blobs.appendingPathComponent(try #require(names.first))
        var bytes = try Data(contentsOf: blob)
        bytes[bytes.count / 2] ^= 0x10
        try bytes.write(to: blob)

        let joiner = folder.appending("joiner")
        let joined = try notes(joiner, ["sync", "enable", "--cloud", cloud.path])
        #expect(joined.status == 0, "\(joined)")
        #expect(joined.output.contains("started from the baseline baselines/"), "\(joined)")
        #expect(try listing(joiner) == listing(writer))
        #expect(try notes(joiner, ["attachments", "Work/Note 1"]).output.contains("PNG"))
        #expect(try notes(joiner, ["attachments", "Work/Note 1"]).output.contains("(waiting for its bytes)"))
        #expect(try notes(joiner, ["show", "Work/Note 1"]).output.contains("(waiting for its bytes)"))
        let listed = try JSONSerialization.jsonObject(
            with: Data(try notes(joiner, ["attachments", "Work/Note 1", "--json"]).output.utf8))
        #expect((listed as? [[String: Any]])?.first?["waiting"] as? Bool == true, "\(listed)")
        let shown = try JSONSerialization.jsonObject(
            with: Data(try notes(joiner, ["show", "Work/Note 1", "--json"]).output.utf8))
        let attachments = (shown as? [String: Any])?["attachments"] as? [[String: Any]]
        #expect(attachments?.first?["waiting"] as? Bool == true, "\(shown)")
        let check = try notes(joiner, ["check"])
        #expect(check.status == 0 && check.output.hasPrefix("waiting: blobs/"), "\(check)")

        // The writer sees the new store wait for it at its next sync and puts the blob back.
        #expect(try notes(writer, ["sync", "now"]).status == 0)
        #expect(try notes(joiner, ["sync", "now"]).status == 0)
        let after = try notes(joiner, ["attachments", "Work/Note 1", "--json"]).output
        #expect(!after.contains("waiting"), "\(after)")
        let saved = folder.appending("saved.png")
        let id = try #require(
            ((try JSONSerialization.jsonObject(with: Data(after.utf8))) as? [[String: Any]])?.first?["id"] as? String)
        #expect(try notes(joiner, ["attachment-save", id, saved.path]).status == 0)
        #expect(try Data(contentsOf: saved) == Data(contentsOf: SampleFiles.image("plain.png")))
        #expect(try notes(joiner, ["check"]).output == "ok\n")
    }

    @Test func compactNeedsSyncToBeOn() throws {
        #expect(try notes(writer, ["add", "n"]).status == 0)
        let result = try notes(writer, ["sync", "compact"])
        #expect(result.status == 1)
        #expect(result.error.split(separator: "\n").count == 1, "\(result)")
        #expect(result.error.contains("sync is not enabled"), "\(result)")
    }

    @Test(arguments: [false, true])
    func compactKilledAnywhereLeavesAContainerThatStillWorks(encrypted: Bool) throws {
        try prepareWriter(encrypted: encrypted)
        for point in ["baseline.copy", "baseline.publish"] {
            let killed = try notes(writer, ["sync", "compact"], crashAt: point)
            #expect(killed.status == SIGKILL, "compact at \(point) should have been killed: \(killed)")
        }
        // Killed after copying: nothing published; after publishing: the baseline is whole.
        #expect(baselineFiles().count == 2, "\(baselineFiles())")
        // The baseline written after the kills holds what the one before did: that one goes.
        #expect(try notes(writer, ["sync", "compact"]).status == 0)
        #expect(
            baselineFiles() == [
                "\(try deviceID(writer))/000000000002.json", "\(try deviceID(writer))/000000000002.sqlite",
            ])
        let leftovers = try FileManager.default.contentsOfDirectory(atPath: writer.path).filter {
            $0.hasPrefix(".baseline")
        }
        #expect(leftovers == [])
        let joiner = folder.appending("joiner")
        #expect(try notes(joiner, ["sync", "enable", "--cloud", cloud.path]).output.contains("000000000002.sqlite"))
        #expect(try listing(joiner) == listing(writer))
        #expect(try notes(writer, ["check"]).output == "ok\n")
    }

    /// A note edited six times on the writer; another device applied them all and said so.
    func prepareEditedHistory() throws -> (other: URL, note: String) {
        try prepareWriter()
        let note = try notes(writer, ["add", "Soup", "--body", "version 0"]).output.trimmingCharacters(
            in: .whitespacesAndNewlines)
        for index in 1...6 { #expect(try notes(writer, ["edit", note, "--body", "version \(index)"]).status == 0) }
        #expect(try notes(writer, ["sync", "now"]).status == 0)
        let other = folder.appending("other")
        #expect(try notes(other, ["sync", "enable", "--cloud", cloud.path, "--device-name", "other"]).status == 0)
        return (other, note)
    }

    func bodyVersions(_ store: URL, _ note: String) throws -> Int {
        try notes(store, ["history", note]).output.split(separator: "\n").filter { $0.contains("body") }.count
    }

    @Test func compactDropsOldHistoryOnceEveryDeviceIsQuietAndSaysWhoHoldsItBack() throws {
        let (other, note) = try prepareEditedHistory()
        // The other device applied every edit and said so at its first sync: history goes.
        let dropped = try notes(writer, ["sync", "compact", "--keep-versions", "2", "--keep-days", "0"])
        #expect(dropped.status == 0)
        #expect(
            dropped.output.contains("dropped 5 old versions of history from the baseline (of 1 name or body)"),
            "\(dropped)")
        // The writer keeps all of it; a device that joins has the last two.
        #expect(try bodyVersions(writer, note) == 7)
        let joiner = folder.appending("joiner")
        #expect(
            try notes(joiner, ["sync", "enable", "--cloud", cloud.path]).output.contains("started from the baseline"))
        #expect(try bodyVersions(joiner, note) == 2)
        #expect(try notes(joiner, ["cat", note]).line == "version 6")
        #expect(try listing(joiner) == listing(writer))
        // A later edit that the other device has not applied holds history back, and the
        // command says which device does (the settings were kept).
        #expect(try notes(writer, ["edit", note, "--body", "version 7"]).status == 0)
        let held = try notes(writer, ["sync", "compact"])
        #expect(held.status == 0)
        // (The other device, or the joiner: neither has applied the edit.)
        #expect(held.output.contains("kept all old history in the baseline: device '"), "\(held)")
        #expect(held.output.contains("has not applied everything this baseline holds"), "\(held)")
        for store in [other, joiner] { #expect(try notes(store, ["sync", "now"]).status == 0) }
        for store in [writer, other, joiner] {
            #expect(try notes(store, ["cat", note]).line == "version 7")
            #expect(try notes(store, ["check"]).output == "ok\n")
        }
        // Settings are checked.
        let wrong = try notes(writer, ["sync", "compact", "--keep-versions", "0"])
        #expect(wrong.status == 64 && wrong.error.contains("--keep-versions must be at least 1"), "\(wrong)")
        let negative = try notes(writer, ["sync", "compact", "--keep-days=-1"])
        #expect(negative.status == 64 && negative.error.contains("--keep-days must be 0 or more"), "\(negative)")
    }

    @Test func compactKilledWhileWritingABaselineThatDropsHistoryLeavesAContainerThatStillWorks() throws {
        let (other, note) = try prepareEditedHistory()
        for point in ["baseline.copy", "baseline.publish"] {
            let killed = try notes(
                writer, ["sync", "compact", "--keep-versions", "2", "--keep-days", "0"], crashAt: point)
            #expect(killed.status == SIGKILL, "compact at \(point) should have been killed: \(killed)")
        }
        let again = try notes(writer, ["sync", "compact"])
        #expect(again.output.contains("dropped 5 old versions"), "\(again)")
        #expect(try bodyVersions(writer, note) == 7)
        let joiner = folder.appending("joiner")
        #expect(
            try notes(joiner, ["sync", "enable", "--cloud", cloud.path]).output.contains("started from the baseline"))
        #expect(try bodyVersions(joiner, note) == 2)
        #expect(try listing(joiner) == listing(writer))
        #expect(try notes(joiner, ["edit", note, "--body", "from the joiner"]).status == 0)
        for store in [joiner, writer, other, joiner] { #expect(try notes(store, ["sync", "now"]).status == 0) }
        for store in [writer, other, joiner] {
            #expect(try notes(store, ["cat", note]).line == "from the joiner")
            #expect(try notes(store, ["check"]).output == "ok\n")
        }
    }

    @Test func compactionKilledWhileRemovingLogsLeavesAContainerThatStillWorks() throws {
        try prepareWriter()
        for index in 0..<3 {
            #expect(try notes(writer, ["add", "Later \(index)"]).status == 0)
            #expect(try notes(writer, ["sync", "now"]).status == 0)
        }
        let logs = cloud.appendingPathComponent("NoteCollector/logs/\(try deviceID(writer))")
        #expect(try FileManager.default.contentsOfDirectory(atPath: logs.path).count == 4)
        let killed = try notes(writer, ["sync", "compact"], crashAt: "compact.remove")
        #expect(killed.status == SIGKILL)
        #expect(
            try FileManager.default.contentsOfDirectory(atPath: logs.path).sorted() == [
                "000000000002.log", "000000000003.log", "000000000004.log",
            ])
        // A device that joins now starts from the baseline; the one after a finished compaction too.
        let first = folder.appending("first")
        #expect(
            try notes(first, ["sync", "enable", "--cloud", cloud.path]).output.contains("started from the baseline"))
        #expect(try listing(first) == listing(writer))
        let again = try notes(writer, ["sync", "compact"])
        #expect(again.status == 0 && again.output.contains("removed 3 logs"), "\(again)")
        let second = folder.appending("second")
        #expect(
            try notes(second, ["sync", "enable", "--cloud", cloud.path]).output.contains("started from the baseline"))
        #expect(try listing(second) == listing(writer))
        for store in [writer, first, second] { #expect(try notes(store, ["check"]).output == "ok\n") }
    }

    /// Killed once the store is made, before it records where it came from: enabling again
    /// merges the baseline into it (nothing doubled) and goes on.
    @Test(arguments: [false, true])
    func joiningKilledAfterTheStoreIsMadeCanRunAgain(encrypted: Bool) throws {
        try prepareWriter(encrypted: encrypted)
        #expect(try notes(writer, ["sync", "compact"]).status == 0)
        let joiner = folder.appending("joiner")
        let killed = try notes(joiner, ["sync", "enable", "--cloud", cloud.path], crashAt: "join.link")
        #expect(killed.status == SIGKILL)
        #expect(try listing(joiner) == listing(writer), "the store holds the baseline's notes already")
        let joined = try notes(joiner, ["sync", "enable", "--cloud", cloud.path])
        #expect(joined.status == 0, "\(joined)")
        #expect(try notes(writer, ["sync", "now"]).status == 0)
        #expect(try listing(joiner) == listing(writer))
        #expect(try notes(joiner, ["check"]).output == "ok\n")
        #expect(try notes(writer, ["check"]).output == "ok\n")
    }

    @Test(arguments: [false, true])
    func joiningKilledBeforeTheStoreIsMadeLeavesNothingAndCanRunAgain(encrypted: Bool) throws {
        try prepareWriter(encrypted: encrypted)
        #expect(try notes(writer, ["sync", "compact"]).status == 0)
        let joiner = folder.appending("joiner")
        let killed = try notes(joiner, ["sync", "enable", "--cloud", cloud.path], crashAt: "join.verify")
        #expect(killed.status == SIGKILL)
        #expect(!FileManager.default.fileExists(atPath: joiner.appendingPathComponent("store.sqlite").path))
        let joined = try notes(joiner, ["sync", "enable", "--cloud", cloud.path])
        #expect(joined.status == 0 && joined.output.contains("started from the baseline"), "\(joined)")
        #expect(try listing(joiner) == listing(writer))
        #expect(try notes(joiner, ["check"]).output == "ok\n")
        let leftovers = try FileManager.default.contentsOfDirectory(atPath: joiner.path).filter {
            $0.hasPrefix(".baseline")
        }
        #expect(leftovers == [])
        // Its next saves reach the writer, once.
        #expect(try notes(joiner, ["add", "From the joiner"]).status == 0)
        #expect(try notes(joiner, ["sync", "now"]).status == 0)
        #expect(try notes(writer, ["sync", "now"]).status == 0)
        #expect(try listing(joiner) == listing(writer))
    }
}
