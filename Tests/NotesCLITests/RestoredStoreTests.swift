import Foundation
import NoteTestSupport
import Testing

/// A store folder restored from a backup, or copied, holds less of what its device published
/// than the container: before exporting, it takes back its device's later logs, and nothing is
/// lost (docs/sync-format.md, "Restored and copied stores").
@Suite struct RestoredStoreTests {
    let folder = TemporaryFolder("notes-cli-restore")
    var cloud: URL { folder.appending("cloud") }
    var laptop: URL { folder.appending("laptop") }
    var desktop: URL { folder.appending("desktop") }

    func notes(_ store: URL, _ arguments: String...) throws -> NotesResult {
        try NotesCommand.run(arguments, store: store)
    }

    func names(_ store: URL) throws -> [String] {
        let items = try JSONSerialization.jsonObject(with: Data(try notes(store, "ls", "--json").output.utf8)) as? [[String: Any]] ?? []
        return items.compactMap { $0["name"] as? String }.sorted()
    }

    func enableBoth() throws {
        try FileManager.default.createDirectory(at: cloud, withIntermediateDirectories: true)
        #expect(try notes(laptop, "add", "n1").status == 0)
        #expect(try notes(laptop, "sync", "enable", "--cloud", cloud.path, "--device-name", "laptop").status == 0)
        #expect(try notes(desktop, "sync", "enable", "--cloud", cloud.path, "--device-name", "desktop").status == 0)
    }

    func copy(_ source: URL, to destination: URL) throws {
        try? FileManager.default.removeItem(at: destination)
        try FileManager.default.copyItem(at: source, to: destination)
    }

    @Test func aStoreRestoredFromABackupLosesNothing() throws {
        try enableBoth()
        let backup = folder.appending("backup")
        try copy(laptop, to: backup)
        #expect(try notes(laptop, "add", "n2").status == 0)
        #expect(try notes(laptop, "sync", "now").status == 0)
        try copy(backup, to: laptop)
        #expect(try notes(laptop, "add", "n3").status == 0)
        let synced = try notes(laptop, "sync", "now")
        #expect(synced.status == 0)
        #expect(synced.output.contains("took back 1 log of its own"), "\(synced)")
        #expect(synced.output.contains("exported 1 log"), "\(synced)")
        #expect(try notes(desktop, "sync", "now").status == 0)
        #expect(try notes(laptop, "sync", "now").output.hasPrefix("exported 0 logs, imported 0 logs"))
        for store in [laptop, desktop] {
            #expect(try names(store) == ["n1", "n2", "n3"], "\(store.lastPathComponent)")
            #expect(try notes(store, "check").output == "ok\n")
        }
    }

    @Test func aCopiedStoreFolderLosesNothing() throws {
        try enableBoth()
        let copied = folder.appending("copied")
        try copy(laptop, to: copied)
        #expect(try notes(laptop, "add", "from the original").status == 0)
        #expect(try notes(laptop, "sync", "now").status == 0)
        #expect(try notes(copied, "add", "from the copy").status == 0)
        #expect(try notes(copied, "sync", "now").output.contains("took back 1 log of its own"))
        #expect(try notes(laptop, "add", "from the original again").status == 0)
        #expect(try notes(laptop, "sync", "now").status == 0)
        for _ in 0..<2 {
            for store in [copied, laptop, desktop] { #expect(try notes(store, "sync", "now").status == 0) }
        }
        let all = ["from the copy", "from the original", "from the original again", "n1"]
        for store in [laptop, copied, desktop] {
            #expect(try names(store) == all, "\(store.lastPathComponent)")
            #expect(try notes(store, "check").output == "ok\n")
        }
    }

    @Test func aRestoredStoreTakesBackCompactedLogsFromABaseline() throws {
        try enableBoth()
        let backup = folder.appending("backup")
        try copy(laptop, to: backup)
        #expect(try notes(laptop, "add", "n2").status == 0)
        #expect(try notes(laptop, "sync", "now").status == 0)
        #expect(try notes(desktop, "sync", "now").status == 0)
        #expect(try notes(desktop, "sync", "compact").status == 0)
        let compacted = try notes(laptop, "sync", "compact")
        #expect(compacted.output.contains("removed 2 logs"), "\(compacted)")
        try copy(backup, to: laptop)
        #expect(try notes(laptop, "add", "n3").status == 0)
        let synced = try notes(laptop, "sync", "now")
        #expect(synced.output.contains("took back 1 log of its own"), "\(synced)")
        #expect(try notes(desktop, "sync", "now").status == 0)
        for store in [laptop, desktop] {
            #expect(try names(store) == ["n1", "n2", "n3"], "\(store.lastPathComponent)")
            #expect(try notes(store, "check").output == "ok\n")
        }
    }
}
