import Foundation
import NoteTestSupport
import Testing

/// `notes watch` as real background processes over one cloud folder, with real inotify.
@Suite struct WatchCommandTests {
    let folder = TemporaryFolder("notes-cli-watch")
    var cloud: URL { folder.appending("cloud") }

    func store(_ name: String) -> URL { folder.appending(name) }

    func notes(_ store: URL, _ arguments: String...) throws -> NotesResult {
        try NotesCommand.run(arguments, store: store)
    }

    func names(_ store: URL) throws -> [String] {
        let result = try notes(store, "ls", "--json")
        let items = try JSONSerialization.jsonObject(with: Data(result.output.utf8)) as? [[String: Any]] ?? []
        return items.compactMap { $0["name"] as? String }.sorted()
    }

    func enabled(_ devices: [String]) throws -> [URL] {
        try FileManager.default.createDirectory(at: cloud, withIntermediateDirectories: true)
        var stores: [URL] = []
        for name in devices {
            let url = store(name)
            #expect(try notes(url, "sync", "enable", "--cloud", cloud.path, "--device-name", name).status == 0)
            stores.append(url)
        }
        return stores
    }

    func watchers(_ stores: [URL]) throws -> [BackgroundNotes] {
        let started = try stores.map { try BackgroundNotes(["watch"], store: $0) }
        for store in stores {
            #expect(eventually { (try? notes(store, "sync", "status").output.contains("watcher:   running")) == true })
        }
        return started
    }

    @Test func aNoteAddedOnOneDeviceAppearsOnTheOthers() throws {
        let stores = try enabled(["a", "b", "c"])
        let running = try watchers(stores)
        #expect(try notes(stores[0], "add", "from a", "--body", "hello").status == 0)
        #expect(try notes(stores[2], "add", "from c").status == 0)
        for store in stores {
            #expect(
                eventually(within: 10) { (try? names(store)) == ["from a", "from c"] }, "\(store.lastPathComponent)")
        }
        for watcher in running { #expect(watcher.stop(SIGTERM) == 0) }
    }

    /// A save made by another process reaches the watchers through the store's commit signal:
    /// with the fallback checks an hour apart, each save is still exported and imported.
    @Test func aSaveIsExportedOnItsCommitSignal() throws {
        let stores = try enabled(["a", "b"])
        let hourly = ["NOTES_COMMIT_CHECK_SECONDS": "3600"]
        let running = try stores.map { try BackgroundNotes(["watch"], store: $0, environment: hourly) }
        for store in stores {
            #expect(eventually { (try? notes(store, "sync", "status").output.contains("watcher:   running")) == true })
        }
        for round in 1...3 {
            #expect(try notes(stores[0], "add", "signalled \(round)").status == 0)
            let expected = (1...round).map { "signalled \($0)" }
            #expect(eventually(within: 20) { (try? names(stores[1])) == expected }, "round \(round)")
        }
        for watcher in running { #expect(watcher.stop(SIGTERM) == 0) }
    }

    /// Once the logs after the newest baseline pass 16 MiB (two notes of 9.9 MB), the watcher
    /// writes a baseline in the background, and a new device starts from it.
    @Test func aWatcherWritesABaselineWhenTheLogsAfterTheLastOnePassTheThreshold() throws {
        let stores = try enabled(["a"])
        let watcher = try BackgroundNotes(["watch", "-v"], store: stores[0], mergingErrors: true)
        #expect(eventually { watcher.output.contains("watching '") }, "\(watcher.output)")
        let big = folder.appending("big.txt")
        try String(repeating: "a line of a long note\n", count: 450_000).write(
            to: big, atomically: true, encoding: .utf8)
        let baselines = cloud.appendingPathComponent("NoteCollector/baselines")
        func manifests() -> [String] {
            ((try? FileManager.default.subpathsOfDirectory(atPath: baselines.path)) ?? []).filter {
                $0.hasSuffix(".json")
            }
        }
        for index in 0..<2 {
            #expect(manifests().isEmpty, "no baseline before the threshold")
            #expect(try notes(stores[0], "add", "long \(index)", "--body-file", big.path).status == 0)
        }
        #expect(eventually(within: 20) { manifests().count == 1 }, "\(watcher.output)")
        #expect(eventually { watcher.output.contains("wrote baseline 1") }, "\(watcher.output)")
        #expect(watcher.stop(SIGINT) == 0)
        let joiner = store("joiner")
        #expect(try notes(joiner, "sync", "enable", "--cloud", cloud.path).output.contains("started from the baseline"))
        #expect(try names(joiner) == ["long 0", "long 1"])
    }

    /// A watcher says in its registration what it has applied once things are quiet, even when
    /// the last logs came within the interval of its last word (1 s here instead of 10
    /// minutes), and then a baseline drops old history.
    @Test func aWatcherSaysWhatItHasAppliedOnceQuietSoThatHistoryCanGo() throws {
        let stores = try enabled(["a", "b"])
        let watcher = try BackgroundNotes(["watch"], store: stores[1], environment: ["NOTES_ACKNOWLEDGE_SECONDS": "1"])
        #expect(eventually { (try? notes(stores[1], "sync", "status").output.contains("watcher:   running")) == true })
        let note = try notes(stores[0], "add", "Soup", "--body", "0").line
        for index in 1...5 {
            #expect(try notes(stores[0], "edit", note, "--body", "\(index)").status == 0)
            #expect(try notes(stores[0], "sync", "now").status == 0)
        }
        let status =
            try JSONSerialization.jsonObject(with: Data(try notes(stores[0], "sync", "status", "--json").output.utf8))
            as? [String: Any]
        let a = ((status?["device"] as? [String: Any])?["id"] as? String) ?? ""
        let published = ((status?["device"] as? [String: Any])?["available"] as? Int) ?? -1
        let b =
            (try JSONSerialization.jsonObject(with: Data(try notes(stores[1], "sync", "status", "--json").output.utf8))
            as? [String: Any])
            .flatMap { ($0["device"] as? [String: Any])?["id"] as? String } ?? ""
        let registration = cloud.appendingPathComponent("NoteCollector/devices/\(b).json")
        func clean() -> Int? {
            guard let data = try? Data(contentsOf: registration),
                let object = try? JSONSerialization.jsonObject(with: data) as? [String: Any]
            else { return nil }
            return (object["clean"] as? [String: Any])?[a] as? Int
        }
        #expect(published > 0, "\(String(describing: status))")
        #expect(
            eventually(within: 10) { clean() == published },
            "clean: \(String(describing: clean())), published: \(published)")
        let compact = try notes(stores[0], "sync", "compact", "--keep-versions", "2", "--keep-days", "0")
        #expect(compact.output.contains("dropped 4 old versions"), "\(compact)")
        #expect(watcher.stop(SIGTERM) == 0)
    }

    @Test func anIdleWatcherEndsOnSIGINTAndSaysSoUnderVerbose() throws {
        let stores = try enabled(["a"])
        let watcher = try BackgroundNotes(["watch", "-v"], store: stores[0], mergingErrors: true)
        #expect(eventually { watcher.output.contains("watching '") }, "\(watcher.output)")
        #expect(watcher.stop(SIGINT) == 0)
        #expect(watcher.output.hasSuffix("notes watch: stopped\n"), "\(watcher.output)")
        let quiet = try BackgroundNotes(["watch"], store: stores[0], mergingErrors: true)
        #expect(eventually { (try? notes(stores[0], "sync", "status").output.contains("watcher:   running")) == true })
        #expect(quiet.stop(SIGINT) == 0)
        #expect(!quiet.output.contains("stopped"), "\(quiet.output)")
    }

    @Test func theWatcherNamesADeviceWhoseClockRunsAhead() throws {
        let stores = try enabled(["here", "ahead"])
        let watcher = try BackgroundNotes(["watch"], store: stores[0], mergingErrors: true)
        #expect(eventually { (try? notes(stores[0], "sync", "status").output.contains("watcher:   running")) == true })
        let offset = "+365d"
        #expect(try NotesCommand.run(["add", "from next year"], store: stores[1], clockOffset: offset).status == 0)
        #expect(try NotesCommand.run(["sync", "now"], store: stores[1], clockOffset: offset).status == 0)
        #expect(eventually(within: 10) { watcher.output.contains("days ahead of this one's") }, "\(watcher.output)")
        #expect(watcher.output.contains("the clock of device "))
        #expect(try names(stores[0]) == ["from next year"])
        #expect(watcher.stop(SIGTERM) == 0)
    }

    /// Saves one after another on one device, as fast as `notes add` runs, while every
    /// device's watcher imports (the benchmark's `sustained` scenario keeps it up for longer).
    @Test func aBurstOfSavesConverges() throws {
        let saves = 250
        let stores = try enabled(["a", "b", "c"])
        let running = try watchers(stores)
        for index in 0..<saves {
            #expect(try notes(stores[0], "add", "note \(index)", "--body", "burst").status == 0)
        }
        for store in stores.dropFirst() {
            #expect(eventually(within: 60) { (try? names(store).count) == saves }, "\(store.lastPathComponent)")
        }
        for watcher in running { #expect(watcher.stop(SIGTERM) == 0) }
        for store in stores { #expect(try notes(store, "check").output == "ok\n") }
    }

    @Test func aWatcherKilledInTheMiddleOfAnImportCatchesUpWhenRestarted() throws {
        let stores = try enabled(["a", "b"])
        for index in 0..<5 {
            #expect(try notes(stores[0], "add", "note \(index)").status == 0)
        }
        #expect(try notes(stores[0], "sync", "now").status == 0)
        let doomed = try BackgroundNotes(["watch"], store: stores[1], environment: ["NOTES_CRASH_AT": "import.apply#3"])
        doomed.process.waitUntilExit()
        #expect(doomed.process.terminationStatus == SIGKILL)
        #expect(try names(stores[1]).isEmpty, "the import in progress was rolled back whole")
        let running = try watchers([stores[1]])
        #expect(eventually { (try? names(stores[1]).count) == 5 })
        #expect(running[0].stop(SIGTERM) == 0)
        #expect(try notes(stores[1], "check").output == "ok\n")
        #expect(try notes(stores[1], "sync", "now").output.hasPrefix("exported 0 logs, imported 0 logs"))
    }

    @Test func aWatcherStartedLaterCatchesUp() throws {
        let stores = try enabled(["a", "b"])
        #expect(try notes(stores[0], "add", "while nobody watched").status == 0)
        #expect(try notes(stores[0], "sync", "now").status == 0)
        let running = try watchers([stores[1]])
        #expect(eventually { (try? names(stores[1])) == ["while nobody watched"] })
        #expect(running[0].stop(SIGTERM) == 0)
    }

    @Test func removingTheSentinelIsNoticedWithinASecond() throws {
        let stores = try enabled(["a"])
        let running = try watchers(stores)
        try FileManager.default.removeItem(at: cloud.appendingPathComponent("NoteCollector/container.json"))
        let removed = Date()
        #expect(
            eventually(within: 1) {
                (try? notes(stores[0], "sync", "status").output.hasPrefix("state:     off")) == true
            })
        #expect(Date().timeIntervalSince(removed) < 1)
        #expect(try names(stores[0]).isEmpty)
        #expect(running[0].stop(SIGTERM) == 0)
    }

    @Test func oneWatcherPerStoreAndSignalsEndItCleanly() throws {
        let stores = try enabled(["a"])
        let running = try watchers(stores)
        let second = try notes(stores[0], "watch")
        #expect(second.status == 1)
        #expect(second.error.contains("process \(running[0].process.processIdentifier) holds it"), "\(second.error)")
        let stopping = Date()
        #expect(running[0].stop(SIGINT) == 0)
        #expect(Date().timeIntervalSince(stopping) < 1)
        #expect(try notes(stores[0], "sync", "status").output.contains("watcher:   not running"))
    }

    /// A new device joins a baseline of more items than the link and trigram indexes are built
    /// for at once (5,000): it joins without them and without the listing index, finds text of
    /// any script and lists its notes all the same by reading the notes, and its watcher builds
    /// the three in the background.
    @Test func aWatcherBuildsTheIndexesOfADeviceThatJoinedABigBaseline() throws {
        let vault = folder.appending("vault")
        try FileManager.default.createDirectory(at: vault, withIntermediateDirectories: true)
        for index in 0..<5_010 {
            let body =
                index == 4_321
                ? "今日は東京に行きました。\n" : index % 1_000 == 7 ? "see [[note 4321]]\n" : "note number \(index)\n"
            try body.write(to: vault.appendingPathComponent("note \(index).md"), atomically: false, encoding: .utf8)
        }
        let first = store("a")
        #expect(try notes(first, "import", vault.path).status == 0)
        _ = try enabled(["a"])
        #expect(try notes(first, "sync", "compact").output.contains("baseline 1 written"))

        let joiner = store("joiner")
        let joined = try notes(joiner, "sync", "enable", "--cloud", cloud.path)
        #expect(joined.output.contains("started from the baseline"), "\(joined.output)")
        #expect(joined.output.contains("the link index is built by 'notes watch'"), "\(joined.output)")
        #expect(joined.output.contains("the index of parts of words is built by 'notes watch'"))
        #expect(joined.output.contains("the listing index is made by 'notes watch'"))
        #expect(try notes(joiner, "search", "東京").output.contains("note 4321"))
        let listing = try notes(joiner, "ls").output
        #expect(listing.split(separator: "\n").count == 5_010)
        // `notes check`, which lists the links that reach nothing, would finish the link index.

        let watcher = try BackgroundNotes(["watch", "-v"], store: joiner, mergingErrors: true)
        #expect(
            eventually(within: 60) { watcher.output.contains("built the index of parts of words") }, "\(watcher.output)"
        )
        #expect(watcher.output.contains("built the link index"), "\(watcher.output)")
        #expect(watcher.output.contains("built the listing index"), "\(watcher.output)")
        #expect(watcher.stop(SIGINT) == 0)
        #expect(try notes(joiner, "ls").output == listing)
        let backlinks = try notes(joiner, "backlinks", "note 4321").output
        #expect(backlinks.split(separator: "\n").count == 6, "\(backlinks)")
        #expect(backlinks.contains("note 3007:1"), "\(backlinks)")
        #expect(try notes(joiner, "search", "東京").output.contains("note 4321"))
        #expect(try notes(joiner, "check").status == 0)
        #expect(try notes(joiner, "sync", "enable", "--cloud", cloud.path).status == 0)
    }
}
