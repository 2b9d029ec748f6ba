import Foundation
import NoteTestSupport
import Testing

/// Two `notes` processes with separate stores, syncing through one folder.
@Suite struct SyncCommandTests {
    let folder = TemporaryFolder("notes-cli-sync")
    var cloud: URL { folder.appending("cloud") }
    var laptop: URL { folder.appending("laptop") }
    var desktop: URL { folder.appending("desktop") }

    init() throws {
        try FileManager.default.createDirectory(at: folder.appending("cloud"), withIntermediateDirectories: true)
    }

    func notes(_ store: URL, _ arguments: String...) throws -> NotesResult {
        try NotesCommand.run(arguments, store: store)
    }

    func names(_ store: URL) throws -> [String] {
        let result = try notes(store, "ls", "--recursive", "--json")
        let items = try JSONSerialization.jsonObject(with: Data(result.output.utf8)) as? [[String: Any]] ?? []
        return items.compactMap { $0["name"] as? String }.sorted()
    }

    func enable(_ store: URL, _ name: String) throws {
        let result = try notes(store, "sync", "enable", "--cloud", cloud.path, "--device-name", name)
        #expect(result.status == 0, "\(result)")
        #expect(result.output.hasPrefix("sync on: device '\(name)'"))
    }

    /// `sync now` with several logs to apply draws a progress line on standard error when it is
    /// a terminal (run here under script(1)'s pseudo-terminal), and nothing otherwise.
    @Test func severalLogsToApplyShowAProgressLineOnATerminalOnly() throws {
        try enable(laptop, "laptop")
        try enable(desktop, "desktop")
        for round in 0..<3 {
            #expect(try notes(laptop, "add", "note \(round)", "--body", "x").status == 0)
            #expect(try notes(laptop, "sync", "now").status == 0)
        }
        let plain = try notes(desktop, "sync", "now")
        #expect(plain.status == 0 && plain.error.isEmpty, "\(plain)")
        #expect(plain.output.hasPrefix("exported 0 logs, imported 3 logs"))
        for round in 3..<6 {
            #expect(try notes(laptop, "add", "note \(round)", "--body", "x").status == 0)
            #expect(try notes(laptop, "sync", "now").status == 0)
        }
        let command = [NotesCommand.binary.path, "--store", desktop.path, "sync", "now"].map { "'\($0)'" }.joined(
            separator: " ")
        let script = Process()
        script.executableURL = URL(fileURLWithPath: "/usr/bin/script")
        script.arguments = ["-qec", command, "/dev/null"]
        let output = Pipe()
        script.standardOutput = output
        script.standardInput = FileHandle.nullDevice
        try script.run()
        let data = output.fileHandleForReading.readDataToEndOfFile()
        script.waitUntilExit()
        let terminal = String(decoding: data, as: UTF8.self)
        #expect(script.terminationStatus == 0, "\(terminal)")
        #expect(terminal.contains("importing ["), "\(terminal)")
        #expect(terminal.contains("3/3 logs"), "\(terminal)")
        #expect(terminal.contains("\r\u{1B}[K"), "the line is cleared")
        #expect(terminal.contains("imported 3 logs"), "\(terminal)")
    }

    @Test func enablingWithAMissingCloudFolderIsAUsageErrorThatCreatesNothing() throws {
        for cloud in [folder.appending("missing").path, "/missing/cloud"] {
            let result = try notes(laptop, "sync", "enable", "--cloud", cloud)
            #expect(result.status == 64, "\(result)")
            #expect(
                result.error.hasPrefix("notes: cannot use '\(cloud)' as the cloud folder: it does not exist"),
                "\(result)")
            #expect(result.error.hasSuffix("(see 'notes sync enable --help')\n"), "\(result)")
            #expect(!FileManager.default.fileExists(atPath: laptop.path), "the store folder was made")
        }
        let file = folder.appending("a-file")
        try Data().write(to: file)
        let notAFolder = try notes(laptop, "sync", "enable", "--cloud", file.path)
        #expect(notAFolder.status == 64 && notAFolder.error.contains("it is not a folder"), "\(notAFolder)")
        #expect(!FileManager.default.fileExists(atPath: laptop.path))
    }

    /// Every file and folder a device writes into the cloud folder, at enable and at later
    /// exports, is private (0600, 0700), or readable by the group when asked.
    @Test(arguments: [(false, mode_t(0o600), mode_t(0o700)), (true, mode_t(0o640), mode_t(0o750))])
    func whatADeviceWritesIntoTheCloudIsPrivateUnlessGroupAccessIsAsked(
        _ group: Bool, _ fileMode: mode_t, _ folderMode: mode_t
    ) throws {
        let previous = umask(0o022)
        defer { umask(previous) }
        let image = SampleFiles.image("plain.png").path
        #expect(try notes(laptop, "add", "before", "--body", "x").status == 0)
        let enable = try NotesCommand.run(
            ["sync", "enable", "--cloud", cloud.path, "--device-name", "laptop"] + (group ? ["--group-access"] : []),
            store: laptop)
        #expect(enable.status == 0, "\(enable)")
        let note = try notes(laptop, "add", "after", "--body", "y").line
        #expect(try notes(laptop, "attach", note, image).status == 0)
        #expect(try notes(laptop, "sync", "now").status == 0)
        let container = cloud.appendingPathComponent("NoteCollector")
        let walker = FileManager.default.enumerator(at: container, includingPropertiesForKeys: nil)
        var checked = 0
        while let url = walker?.nextObject() as? URL {
            let attributes = try FileManager.default.attributesOfItem(atPath: url.path)
            let mode = mode_t((attributes[.posixPermissions] as? NSNumber)?.uint16Value ?? 0)
            let isFolder = attributes[.type] as? FileAttributeType == .typeDirectory
            #expect(mode == (isFolder ? folderMode : fileMode), "\(url.path): \(String(mode, radix: 8))")
            checked += 1
        }
        #expect(
            checked >= 9, "container, devices, logs, blobs, a log folder, logs, a blob, a registration, the sentinel")
    }

    @Test func enablingAgainWithoutTheCloudFolderReattachesWhereTheStoreWas() throws {
        try enable(laptop, "laptop")
        #expect(try notes(laptop, "sync", "disable").status == 0)
        let again = try notes(laptop, "sync", "enable")
        #expect(again.status == 0, "\(again)")
        #expect(
            again.output.hasPrefix(
                "sync on: device 'laptop' in '\(cloud.appendingPathComponent("NoteCollector").path)'"), "\(again)")
        // Switched off by the sentinel going: enabling again brings the container back there.
        try FileManager.default.removeItem(at: cloud.appendingPathComponent("NoteCollector"))
        #expect(try notes(laptop, "sync", "now").status == 1)
        #expect(try notes(laptop, "sync", "enable").status == 0)
        #expect(
            FileManager.default.fileExists(atPath: cloud.appendingPathComponent("NoteCollector/container.json").path))
        #expect(try notes(laptop, "sync", "status").output.contains("state:     on"))
    }

    @Test func enablingWithoutACloudFolderWhenNeverAttachedIsAUsageErrorThatCreatesNothing() throws {
        let result = try notes(laptop, "sync", "enable")
        #expect(result.status == 64 && result.error.contains("give --cloud DIR"), "\(result)")
        #expect(!FileManager.default.fileExists(atPath: laptop.path))
    }

    @Test func attachingToAnotherFolderWhileSyncIsOnNeedsMove() throws {
        try enable(laptop, "laptop")
        let other = folder.appending("other-cloud")
        try FileManager.default.createDirectory(at: other, withIntermediateDirectories: true)
        let refused = try notes(laptop, "sync", "enable", "--cloud", other.path)
        #expect(refused.status == 64 && refused.error.contains("give --move"), "\(refused)")
        #expect(try notes(laptop, "sync", "status").output.contains(cloud.path))
        let moved = try notes(laptop, "sync", "enable", "--cloud", other.path, "--move")
        #expect(
            moved.status == 0 && moved.output.contains("device 'laptop' in '\(other.path)/NoteCollector'"), "\(moved)")
        // The same folder again needs no --move.
        #expect(try notes(laptop, "sync", "enable", "--cloud", other.path).status == 0)
    }

    @Test func logsOfAnEarlierContainerAreOneSummaryLine() throws {
        try enable(laptop, "laptop")
        try enable(desktop, "desktop")
        for index in 1...3 {
            #expect(try notes(desktop, "add", "note \(index)").status == 0)
            #expect(try notes(desktop, "sync", "now").status == 0)
        }
        // The container is wiped but for its logs: enabling makes a new one under the same name.
        try FileManager.default.removeItem(at: cloud.appendingPathComponent("NoteCollector/container.json"))
        let again = try notes(laptop, "sync", "enable")
        #expect(again.status == 0, "\(again)")
        let skipped = again.output.split(separator: "\n").filter { $0.hasPrefix("skipped:") }
        #expect(skipped.count == 1, "\(again.output)")
        #expect(skipped.first?.contains("logs of 1 device belong to an earlier container") == true, "\(again.output)")
    }

    @Test func anUnreadableSentinelIsNamedOnce() throws {
        try enable(laptop, "laptop")
        let sentinel = cloud.appendingPathComponent("NoteCollector/container.json")
        chmod(sentinel.path, 0)
        defer { chmod(sentinel.path, 0o644) }
        let result = try NotesCommand.run(["sync", "now"], store: laptop, unprivileged: true)
        #expect(result.status == 1, "\(result)")
        #expect(result.error.components(separatedBy: sentinel.path).count == 2, "the path once: \(result)")
        #expect(result.error.contains("permission denied"), "\(result)")
    }

    @Test func twoStoresSyncThroughTheFolder() throws {
        #expect(try notes(laptop, "add", "Written before sync", "--body", "old").status == 0)
        try enable(laptop, "laptop")
        try enable(desktop, "desktop")
        #expect(try names(desktop) == ["Written before sync"])

        #expect(try notes(desktop, "mkcol", "Work").status == 0)
        #expect(try notes(desktop, "add", "Plan", "--in", "Work", "--body", "ship").status == 0)
        let exported = try notes(desktop, "sync", "now")
        #expect(exported.output.hasPrefix("exported 1 log, imported 0 logs"), "\(exported)")
        let imported = try notes(laptop, "sync", "now")
        #expect(imported.output.hasPrefix("exported 0 logs, imported 1 log (2 changes)"), "\(imported)")
        #expect(try names(laptop) == ["Plan", "Work", "Written before sync"])

        #expect(try notes(laptop, "edit", "Work/Plan", "--body", "ship in May").status == 0)
        #expect(try notes(laptop, "sync", "now").status == 0)
        #expect(try notes(desktop, "sync", "now").status == 0)
        #expect(try notes(desktop, "show", "Work/Plan").output.hasSuffix("ship in May\n"))
    }

    /// Without --device-name, a device is named after the host and its store folder: two stores
    /// of one machine tell apart.
    @Test func devicesWithoutANameAreNamedAfterTheHostAndTheStoreFolder() throws {
        let host = ProcessInfo.processInfo.hostName
        for store in [laptop, desktop] {
            let result = try notes(store, "sync", "enable", "--cloud", cloud.path)
            #expect(result.output.hasPrefix("sync on: device '\(host):\(store.lastPathComponent)'"), "\(result)")
        }
        let listed = try notes(laptop, "devices", "--json")
        let all = try JSONSerialization.jsonObject(with: Data(listed.output.utf8)) as? [[String: Any]] ?? []
        #expect(Set(all.compactMap { $0["name"] as? String }) == ["\(host):laptop", "\(host):desktop"])
        // Enabled again, a device keeps the name it had.
        #expect(try notes(laptop, "sync", "disable").status == 0)
        #expect(try notes(laptop, "sync", "enable").output.hasPrefix("sync on: device '\(host):laptop'"))
    }

    /// A store that has never synced records no changes to export: status says what enabling
    /// sends instead of a count, and counts again once sync is on.
    @Test func statusOfAStoreThatNeverSyncedSaysEnablingSendsEverything() throws {
        #expect(try notes(laptop, "add", "Before", "--body", "saved before sync").status == 0)
        let before = try notes(laptop, "sync", "status")
        #expect(
            before.output.contains("pending:   never synced: 'notes sync enable' sends everything this store holds"),
            "\(before)")
        let json = try notes(laptop, "sync", "status", "--json")
        let object = try #require(try JSONSerialization.jsonObject(with: Data(json.output.utf8)) as? [String: Any])
        #expect(object["recordsChanges"] as? Bool == false && object["pendingExports"] as? Int == 0)
        try enable(laptop, "laptop")
        #expect(try notes(laptop, "add", "After", "--body", "saved with sync on").status == 0)
        #expect(try notes(laptop, "sync", "status").output.contains("pending:   1 change to export"))
        let on = try notes(laptop, "sync", "status", "--json")
        #expect(
            (try JSONSerialization.jsonObject(with: Data(on.output.utf8)) as? [String: Any])?["recordsChanges"] as? Bool
                == true)
        #expect(try notes(laptop, "sync", "now").status == 0)
        try enable(desktop, "desktop")
        #expect(try names(desktop) == ["After", "Before"])
    }

    @Test func statusAndDevicesDescribeTheContainer() throws {
        try enable(laptop, "laptop")
        try enable(desktop, "desktop")
        let status = try notes(laptop, "sync", "status", "--json")
        let object = try #require(try JSONSerialization.jsonObject(with: Data(status.output.utf8)) as? [String: Any])
        #expect(object["state"] as? String == "on")
        #expect(object["containerName"] as? String == "NoteCollector")
        #expect((object["device"] as? [String: Any])?["name"] as? String == "laptop")
        let devices = object["devices"] as? [[String: Any]] ?? []
        #expect(devices.map { $0["name"] as? String } == ["desktop"])
        #expect(try notes(laptop, "sync", "status").output.hasPrefix("state:     on"))
        let listed = try notes(laptop, "devices", "--json")
        let all = try JSONSerialization.jsonObject(with: Data(listed.output.utf8)) as? [[String: Any]] ?? []
        #expect(Set(all.compactMap { $0["name"] as? String }) == ["laptop", "desktop"])
        #expect(object["catchUp"] is NSNull)
        // A catch-up of a live process (this one stands for it), as an importing one writes it.
        let catchUp =
            #"{"changesApplied":12000,"logsApplied":3,"logsToApply":26,"#
            + #""process":\#(getpid()),"started":"2026-11-23T07:00:00.000Z"}"#
        try catchUp.write(to: laptop.appendingPathComponent("catch-up.json"), atomically: true, encoding: .utf8)
        #expect(
            try notes(laptop, "sync", "status").output.contains(
                "catch-up:  3 of 26 logs applied, 12000 changes (process \(getpid()), since 2026-11-23T07:00:00.000Z)"))
        let during =
            try JSONSerialization.jsonObject(with: Data(try notes(laptop, "sync", "status", "--json").output.utf8))
            as? [String: Any]
        let shown = try #require(during?["catchUp"] as? [String: Any])
        #expect(shown["logsToApply"] as? Int == 26 && shown["pid"] as? Int == Int(getpid()))
    }

    @Test func removingTheSentinelIsReportedAndKeepsEveryNote() throws {
        try enable(laptop, "laptop")
        #expect(try notes(laptop, "add", "precious").status == 0)
        try FileManager.default.removeItem(at: cloud.appendingPathComponent("NoteCollector/container.json"))
        let now = try notes(laptop, "sync", "now")
        #expect(now.status == 1)
        #expect(
            now.error
                == "notes: sync is off: the container's sentinel container.json is gone: "
                + "sync was switched off or the container was wiped\n"
        )
        #expect(try notes(laptop, "sync", "status").output.hasPrefix("state:     off: the container's sentinel"))
        #expect(try names(laptop) == ["precious"])
        try enable(laptop, "laptop")
        #expect(try notes(laptop, "sync", "status").output.hasPrefix("state:     on"))
    }

    @Test func errorsAreOneLine() throws {
        let notEnabled = try notes(laptop, "sync", "now")
        #expect(notEnabled.status == 1)
        #expect(notEnabled.error == "notes: sync is not enabled for this store: run 'notes sync enable --cloud DIR'\n")
        let missing = try notes(laptop, "sync", "enable", "--cloud", folder.appending("nowhere").path)
        #expect(missing.status == 64)
        #expect(missing.error.hasPrefix("notes: ") && missing.error.contains("nowhere"))
        #expect(missing.error.split(separator: "\n").count == 1)
        let badName = try notes(laptop, "sync", "enable", "--cloud", cloud.path, "--container", "../x")
        #expect(badName.status == 64, "\(badName)")
        #expect(try notes(laptop, "sync", "enable").status == 64)
    }

    /// The newest logs of the laptop removed from the container after the desktop applied them:
    /// a third store waits for them; the laptop's next `sync now` covers them with a baseline,
    /// and the third store's next `sync now` catches up through it.
    @Test func aWriterCoversItsRemovedLogsWhenANewDeviceWaitsForThem() throws {
        try enable(laptop, "laptop")
        try enable(desktop, "desktop")
        for name in ["one", "two", "three"] {
            #expect(try notes(laptop, "add", name, "--body", name).status == 0)
            #expect(try notes(laptop, "sync", "now").status == 0)
        }
        #expect(try notes(desktop, "sync", "now").status == 0)
        #expect(try notes(desktop, "add", "four").status == 0)
        #expect(try notes(desktop, "sync", "now").status == 0)
        let logs = cloud.appendingPathComponent("NoteCollector/logs")
        let laptopLogs = try #require(
            try FileManager.default.contentsOfDirectory(atPath: logs.path).first { folder in
                try FileManager.default.contentsOfDirectory(atPath: logs.appendingPathComponent(folder).path).count > 1
            })
        let folder = logs.appendingPathComponent(laptopLogs)
        let sequences = try FileManager.default.contentsOfDirectory(atPath: folder.path).filter { !$0.hasPrefix(".") }
            .sorted()
        for name in sequences.suffix(2) { try FileManager.default.removeItem(at: folder.appendingPathComponent(name)) }

        let tablet = self.folder.appending("tablet")
        try enable(tablet, "tablet")
        let waiting = try notes(tablet, "sync", "now")
        #expect(waiting.output.contains("waiting: "), "\(waiting)")
        #expect(try names(tablet) != names(desktop))
        #expect(try notes(laptop, "sync", "now").status == 0)
        let caughtUp = try notes(tablet, "sync", "now")
        #expect(caughtUp.status == 0 && !caughtUp.output.contains("waiting: "), "\(caughtUp)")
        #expect(try names(tablet) == ["four", "one", "three", "two"])
        #expect(try names(tablet) == names(desktop))
    }
}
