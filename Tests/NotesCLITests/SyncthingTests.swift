import Foundation
import NoteTestSupport
import SyncthingLoopback
import Testing

/// Sync between two hosts through a real file-sync engine: two Syncthing instances on loopback,
/// each host's device on its own copy of the shared folder, with `notes watch` running.
@Suite(.enabled(if: SyncthingPair.isAvailable, "needs Debian's syncthing"), .serialized)
struct SyncthingTests {
    let folder = TemporaryFolder("notes-syncthing")
    var laptop: URL { folder.appending("laptop") }
    var desktop: URL { folder.appending("desktop") }

    func notes(_ store: URL, _ arguments: String...) throws -> NotesResult {
        try NotesCommand.run(arguments, store: store)
    }

    func names(_ store: URL) -> [String] {
        guard let output = try? notes(store, "ls", "--json").output,
            let items = try? JSONSerialization.jsonObject(with: Data(output.utf8)) as? [[String: Any]]
        else { return [] }
        return items.compactMap { $0["name"] as? String }.sorted()
    }

    func state(_ store: URL) -> String? {
        guard let output = try? notes(store, "sync", "status", "--json").output,
            let object = try? JSONSerialization.jsonObject(with: Data(output.utf8)) as? [String: Any]
        else { return nil }
        return object["state"] as? String
    }

    /// The laptop enables on host A; once the engine has carried its container to host B, the
    /// desktop enables there; then both watch.
    func attached(_ pair: SyncthingPair) throws -> [BackgroundNotes] {
        #expect(
            try notes(laptop, "sync", "enable", "--cloud", pair.clouds[0].path, "--device-name", "laptop").status == 0)
        let sentinel = pair.clouds[1].appendingPathComponent("NoteCollector/container.json")
        #expect(eventually(within: 20) { FileManager.default.fileExists(atPath: sentinel.path) })
        #expect(
            try notes(desktop, "sync", "enable", "--cloud", pair.clouds[1].path, "--device-name", "desktop").status == 0
        )
        return try [laptop, desktop].map { store in
            let watcher = try BackgroundNotes(["watch"], store: store)
            #expect(eventually { (try? notes(store, "sync", "status").output.contains("watcher:   running")) == true })
            return watcher
        }
    }

    @Test func notesWrittenOnBothHostsConverge() throws {
        let pair = try SyncthingPair(in: folder.appending("engine"))
        defer { pair.stop() }
        let watchers = try attached(pair)
        var expected: [String] = []
        for index in 0..<10 {
            #expect(try notes(laptop, "add", "laptop \(index)").status == 0)
            #expect(try notes(desktop, "add", "desktop \(index)").status == 0)
            expected += ["laptop \(index)", "desktop \(index)"]
        }
        expected.sort()
        for store in [laptop, desktop] {
            #expect(
                eventually(within: 30, pollingEvery: 0.1) { names(store) == expected },
                "\(store.lastPathComponent): \(names(store))")
        }
        for watcher in watchers { #expect(watcher.stop(SIGINT) == 0) }
        for store in [laptop, desktop] {
            #expect(try notes(store, "check").output == "ok\n")
            let status = try notes(store, "sync", "status").output
            #expect(!status.contains("skipped:") && !status.contains("waiting:"), "\(status)")
        }
    }

    /// An encrypted container made on host A is joined on host B once the engine has carried
    /// its sentinel and key file; notes cross both ways, and host B's copy holds none of them
    /// in the clear.
    @Test func anEncryptedContainerSyncsThroughTheEngine() throws {
        let pair = try SyncthingPair(in: folder.appending("engine"))
        defer { pair.stop() }
        let environment = ["NOTES_PASSPHRASE": "over the wire", "NOTES_SCRYPT_COST": "1024"]
        let made = try NotesCommand.run(
            ["sync", "enable", "--cloud", pair.clouds[0].path, "--device-name", "laptop", "--encrypt"], store: laptop,
            environment: environment)
        #expect(made.status == 0, "\(made)")
        let copy = pair.clouds[1].appendingPathComponent("NoteCollector")
        #expect(
            eventually(within: 20) {
                ["container.json", "key.json"].allSatisfy {
                    FileManager.default.fileExists(atPath: copy.appendingPathComponent($0).path)
                }
            })
        let joined = try NotesCommand.run(
            ["sync", "enable", "--cloud", pair.clouds[1].path, "--device-name", "desktop"], store: desktop,
            environment: environment)
        #expect(joined.status == 0, "\(joined)")
        let watchers = try [laptop, desktop].map { store in
            let watcher = try BackgroundNotes(["watch"], store: store)
            #expect(eventually { (try? notes(store, "sync", "status").output.contains("watcher:   running")) == true })
            return watcher
        }
        #expect(try notes(laptop, "add", "Quetzal from the laptop", "--body", "xylophone").status == 0)
        #expect(try notes(desktop, "add", "Wombat from the desktop").status == 0)
        let expected = ["Quetzal from the laptop", "Wombat from the desktop"]
        for store in [laptop, desktop] {
            #expect(
                eventually(within: 30, pollingEvery: 0.1) { names(store) == expected },
                "\(store.lastPathComponent): \(names(store))")
        }
        for watcher in watchers { #expect(watcher.stop(SIGINT) == 0) }
        let files = FileManager.default.enumerator(atPath: copy.path)?.compactMap { $0 as? String } ?? []
        for name in files {
            let data = (try? Data(contentsOf: copy.appendingPathComponent(name))) ?? Data()
            for secret in ["Quetzal", "xylophone", "Wombat", "laptop", "desktop"] {
                #expect(data.range(of: Data(secret.utf8)) == nil, "\(secret) is in \(name)")
            }
        }
    }

    @Test func concurrentEditsOfOneNoteMergeAsOnOneDisk() throws {
        let pair = try SyncthingPair(in: folder.appending("engine"))
        defer { pair.stop() }
        let watchers = try attached(pair)
        #expect(try notes(laptop, "add", "Plan", "--body", "one\ntwo\nthree\n").status == 0)
        #expect(eventually(within: 30, pollingEvery: 0.1) { names(desktop) == ["Plan"] })
        // Both edit before the engine carries either edit.
        #expect(try notes(laptop, "edit", "Plan", "--body", "ONE\ntwo\nthree\n").status == 0)
        #expect(try notes(desktop, "edit", "Plan", "--body", "one\ntwo\nTHREE\n").status == 0)
        for store in [laptop, desktop] {
            #expect(
                eventually(within: 30, pollingEvery: 0.1) {
                    (try? notes(store, "cat", "Plan").output) == "ONE\ntwo\nTHREE\n"
                }, "\(store.lastPathComponent)")
        }
        for watcher in watchers { #expect(watcher.stop(SIGINT) == 0) }
    }

    @Test func removingTheSentinelOnOneHostSwitchesBothOff() throws {
        let pair = try SyncthingPair(in: folder.appending("engine"))
        defer { pair.stop() }
        let watchers = try attached(pair)
        #expect(try notes(laptop, "add", "kept").status == 0)
        #expect(eventually(within: 30, pollingEvery: 0.1) { names(desktop) == ["kept"] })
        try FileManager.default.removeItem(at: pair.clouds[0].appendingPathComponent("NoteCollector/container.json"))
        for store in [laptop, desktop] {
            #expect(eventually(within: 30, pollingEvery: 0.1) { state(store) == "off" }, "\(store.lastPathComponent)")
            #expect(names(store) == ["kept"])
        }
        for watcher in watchers { #expect(watcher.stop(SIGINT) == 0) }
    }

    /// The engine's temporary files are never read as logs; its conflict copies are reported,
    /// never applied, never fatal.
    @Test func theEnginesOwnFilesAreNeverTakenForLogs() throws {
        let pair = try SyncthingPair(in: folder.appending("engine"))
        defer { pair.stop() }
        let watchers = try attached(pair)
        for watcher in watchers { #expect(watcher.stop(SIGINT) == 0) }
        #expect(try notes(laptop, "add", "first").status == 0)
        #expect(try notes(laptop, "sync", "now").status == 0)
        let status =
            try JSONSerialization.jsonObject(with: Data(try notes(laptop, "sync", "status", "--json").output.utf8))
            as? [String: Any]
        let device = (status?["device"] as? [String: Any])?["id"] as? String ?? ""
        let logs = pair.clouds[1].appendingPathComponent("NoteCollector/logs/\(device)")
        #expect(
            eventually(within: 30, pollingEvery: 0.1) {
                FileManager.default.fileExists(atPath: logs.appendingPathComponent("000000000001.log").path)
            })
        try Data("half a log".utf8).write(to: logs.appendingPathComponent(".syncthing.000000000002.log.tmp"))
        let conflict = "000000000001.sync-conflict-20261123-110000-SY4CGWC.log"
        try FileManager.default.copyItem(
            at: logs.appendingPathComponent("000000000001.log"), to: logs.appendingPathComponent(conflict))
        let synced = try notes(desktop, "sync", "now")
        #expect(synced.status == 0, "\(synced)")
        #expect(names(desktop) == ["first"])
        #expect(!synced.output.contains(".syncthing"), "\(synced)")
        #expect(synced.output.contains("skipped: logs/\(device)/\(conflict): badly named"), "\(synced)")
        #expect(try notes(desktop, "sync", "status").output.contains(conflict))
    }

    /// Both hosts enable at once, before the engine carries either container: the engine keeps
    /// one sentinel, and both devices end in that container with every note.
    @Test func containersCreatedAtOnceOnTwoHostsBecomeOne() throws {
        let pair = try SyncthingPair(in: folder.appending("engine"))
        defer { pair.stop() }
        #expect(try notes(laptop, "add", "from the laptop").status == 0)
        #expect(try notes(desktop, "add", "from the desktop").status == 0)
        #expect(
            try notes(laptop, "sync", "enable", "--cloud", pair.clouds[0].path, "--device-name", "laptop").status == 0)
        #expect(
            try notes(desktop, "sync", "enable", "--cloud", pair.clouds[1].path, "--device-name", "desktop").status == 0
        )
        let watchers = try [laptop, desktop].map { try BackgroundNotes(["watch"], store: $0) }
        let expected = ["from the desktop", "from the laptop"]
        for store in [laptop, desktop] {
            #expect(
                eventually(within: 40, pollingEvery: 0.2) { names(store) == expected && state(store) == "on" },
                "\(store.lastPathComponent): \(names(store)) \(state(store) ?? "-")")
        }
        for watcher in watchers { #expect(watcher.stop(SIGINT) == 0) }
        // The engine kept the other sentinel as a conflict copy beside the kept one (it carries
        // the copy to the other host too): reported, never read.
        for (store, cloud) in zip([laptop, desktop], pair.clouds) {
            let folder = cloud.appendingPathComponent("NoteCollector").path
            #expect(
                eventually(within: 10) {
                    ((try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []).contains {
                        $0.hasPrefix("container.sync-conflict-")
                    }
                },
                """
                \(store.lastPathComponent): \
                \((try? FileManager.default.subpathsOfDirectory(atPath: cloud.path)) ?? [])
                """
            )
            let copies = try FileManager.default.contentsOfDirectory(atPath: folder).filter {
                $0.contains(".sync-conflict-")
            }
            let synced = try notes(store, "sync", "now")
            #expect(synced.status == 0, "\(synced)")
            for copy in copies { #expect(synced.output.contains("skipped: \(copy): badly named"), "\(synced)") }
        }
    }
}
