import Foundation
import NoteTestSupport
import Testing

/// A store folder restored from a backup, or copied, holds less of what its device published
/// than the container. A new copy of the folder (another database file) takes a new device id
/// and imports the old id's later logs like another device's; a restore that brings back the
/// same file (a virtual machine snapshot, files written back in place) takes back its device's
/// later logs before exporting. Nothing is lost either way (docs/sync-format.md, "Restored and
/// copied stores").
@Suite struct RestoredStoreTests {
    let folder = TemporaryFolder("notes-cli-restore")
    var cloud: URL { folder.appending("cloud") }
    var laptop: URL { folder.appending("laptop") }
    var desktop: URL { folder.appending("desktop") }

    func notes(_ store: URL, _ arguments: String...) throws -> NotesResult {
        try NotesCommand.run(arguments, store: store)
    }

    func names(_ store: URL) throws -> [String] {
        let items =
            try JSONSerialization.jsonObject(with: Data(try notes(store, "ls", "--json").output.utf8))
            as? [[String: Any]] ?? []
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

    /// Writes the files of `backup` back into `store` in place, as a snapshot restore does: the
    /// database file keeps its inode.
    func restoreInPlace(_ backup: URL, to store: URL) throws {
        let manager = FileManager.default
        let saved = Set(try manager.subpathsOfDirectory(atPath: backup.path))
        for path in try manager.subpathsOfDirectory(atPath: store.path) where !saved.contains(path) {
            try? manager.removeItem(at: store.appendingPathComponent(path))
        }
        for path in saved.sorted() {
            var isFolder: ObjCBool = false
            _ = manager.fileExists(atPath: backup.appendingPathComponent(path).path, isDirectory: &isFolder)
            let target = store.appendingPathComponent(path)
            if isFolder.boolValue {
                try manager.createDirectory(at: target, withIntermediateDirectories: true)
            } else {
                let bytes = try Data(contentsOf: backup.appendingPathComponent(path))
                if !manager.fileExists(atPath: target.path) {
                    _ = manager.createFile(atPath: target.path, contents: nil)
                }
                let handle = try FileHandle(forWritingTo: target)
                try handle.truncate(atOffset: 0)
                try handle.write(contentsOf: bytes)
                try handle.close()
            }
        }
    }

    /// Backs the laptop up, then adds `n2` there and publishes it (and, with `compacting`, has
    /// both devices compact until the laptop's logs are gone); returns the backup.
    func backUpThenPublishN2(compacting: Bool = false) throws -> URL {
        let backup = folder.appending("backup")
        try copy(laptop, to: backup)
        #expect(try notes(laptop, "add", "n2").status == 0)
        #expect(try notes(laptop, "sync", "now").status == 0)
        if compacting {
            #expect(try notes(desktop, "sync", "now").status == 0)
            #expect(try notes(desktop, "sync", "compact").status == 0)
            let compacted = try notes(laptop, "sync", "compact")
            #expect(compacted.output.contains("removed 2 logs"), "\(compacted)")
        }
        return backup
    }

    /// After a sync of the desktop, both stores hold n1, n2 and n3 and check ok.
    func expectBothHoldEveryNote() throws {
        #expect(try notes(desktop, "sync", "now").status == 0)
        for store in [laptop, desktop] {
            #expect(try names(store) == ["n1", "n2", "n3"], "\(store.lastPathComponent)")
            #expect(try notes(store, "check").output == "ok\n")
        }
    }

    func deviceID(_ store: URL) throws -> String {
        let status =
            try JSONSerialization.jsonObject(with: Data(try notes(store, "sync", "status", "--json").output.utf8))
            as? [String: Any]
        return (status?["device"] as? [String: Any])?["id"] as? String ?? ""
    }

    func inode(_ store: URL) throws -> Int {
        try FileManager.default.attributesOfItem(atPath: store.appendingPathComponent("store.sqlite").path)[
            .systemFileNumber] as? Int ?? 0
    }

    @Test func aStoreRestoredFromABackupTakesANewDeviceIDAndLosesNothing() throws {
        try enableBoth()
        let old = try deviceID(laptop)
        let backup = try backUpThenPublishN2()
        try copy(backup, to: laptop)
        #expect(try notes(laptop, "add", "n3").status == 0)
        let new = try deviceID(laptop)
        #expect(new != old && !new.isEmpty)
        let synced = try notes(laptop, "sync", "now")
        #expect(synced.status == 0)
        #expect(!synced.output.contains("took back"), "\(synced)")
        #expect(synced.output.hasPrefix("exported 1 log, imported 1 log"), "\(synced)")
        try expectBothHoldEveryNote()
        #expect(try notes(laptop, "sync", "now").output.hasPrefix("exported 0 logs, imported 0 logs"))
        let devices = try notes(desktop, "devices").output
        #expect(devices.contains(String(new.prefix(8))) && devices.contains(String(old.prefix(8))), "\(devices)")
        let status = try notes(laptop, "sync", "status").output
        #expect(!status.contains("waiting") && !status.contains("skipped"), "\(status)")
    }

    @Test func aStoreRestoredInPlaceTakesBackItsOwnLogs() throws {
        try enableBoth()
        let old = try deviceID(laptop)
        let backup = try backUpThenPublishN2()
        let file = try inode(laptop)
        try restoreInPlace(backup, to: laptop)
        #expect(try inode(laptop) == file)
        #expect(try notes(laptop, "add", "n3").status == 0)
        #expect(try deviceID(laptop) == old)
        let synced = try notes(laptop, "sync", "now")
        #expect(synced.status == 0)
        #expect(synced.output.contains("took back 1 log of its own"), "\(synced)")
        #expect(synced.output.contains("exported 1 log"), "\(synced)")
        try expectBothHoldEveryNote()
        #expect(try notes(laptop, "sync", "now").output.hasPrefix("exported 0 logs, imported 0 logs"))
    }

    @Test func aCopiedStoreFolderIsANewDeviceAndLosesNothing() throws {
        try enableBoth()
        let original = try deviceID(laptop)
        #expect(try notes(laptop, "add", "unexported").status == 0)
        let copied = folder.appending("copied")
        try copy(laptop, to: copied)
        #expect(try notes(laptop, "add", "from the original").status == 0)
        #expect(try notes(laptop, "sync", "now").status == 0)
        #expect(try notes(copied, "add", "from the copy").status == 0)
        let copy = try deviceID(copied)
        #expect(copy != original && !copy.isEmpty)
        #expect(try deviceID(laptop) == original)
        let synced = try notes(copied, "sync", "now")
        #expect(synced.status == 0 && !synced.output.contains("took back"), "\(synced)")
        #expect(try notes(laptop, "add", "from the original again").status == 0)
        #expect(try notes(laptop, "sync", "now").status == 0)
        for _ in 0..<2 {
            for store in [copied, laptop, desktop] { #expect(try notes(store, "sync", "now").status == 0) }
        }
        let all = ["from the copy", "from the original", "from the original again", "n1", "unexported"]
        for store in [laptop, copied, desktop] {
            #expect(try names(store) == all, "\(store.lastPathComponent)")
            #expect(try notes(store, "check").output == "ok\n")
        }
        // The copy's default name follows its folder; the devices tell apart.
        let devices = try notes(desktop, "devices", "--json").output
        #expect(devices.contains(copy) && devices.contains(original), "\(devices)")
    }

    /// The laptop is forgotten with an edit it never published, and a copy of its folder comes
    /// back after the desktop dropped old history: the copy, then the laptop itself, keep the
    /// edit as a note of their own, and every device ends the same.
    @Test func aCopyOfAForgottenStoreKeepsItsUnpublishedEditAsANoteWhenHistoryWasDropped() throws {
        // Registrations say what was applied at every sync here, not every ten minutes.
        func quick(_ store: URL, _ arguments: String...) throws -> NotesResult {
            try NotesCommand.run(arguments, store: store, environment: ["NOTES_ACKNOWLEDGE_SECONDS": "0"])
        }
        try enableBoth()
        let soup = try quick(laptop, "add", "Soup", "--body", "version 0").line
        for index in 1...3 { #expect(try quick(laptop, "edit", soup, "--body", "version \(index)").status == 0) }
        #expect(try quick(laptop, "sync", "now").status == 0)
        #expect(try quick(desktop, "sync", "now").status == 0)
        #expect(try quick(laptop, "edit", soup, "--body", "written on the laptop, never published").status == 0)
        let copied = folder.appending("copied")
        try copy(laptop, to: copied)
        #expect(try quick(laptop, "sync", "disable", "--forget").status == 0)
        for index in 4...6 { #expect(try quick(desktop, "edit", soup, "--body", "version \(index)").status == 0) }
        let compacted = try quick(desktop, "sync", "compact", "--keep-versions", "2", "--keep-days", "0")
        #expect(compacted.output.contains("dropped 5 old versions"), "\(compacted)")

        let back = try quick(copied, "sync", "now")
        #expect(back.status == 0, "\(back)")
        let again = try quick(laptop, "sync", "enable", "--cloud", cloud.path, "--device-name", "laptop")
        #expect(again.output.contains("kept its unpublished edits of 1 item as notes of their own"), "\(again)")
        let joiner = folder.appending("joiner")
        #expect(try quick(joiner, "sync", "enable", "--cloud", cloud.path).output.contains("started from the baseline"))
        for _ in 0..<2 {
            for store in [copied, laptop, desktop, joiner] { #expect(try quick(store, "sync", "now").status == 0) }
        }
        for store in [laptop, copied, desktop, joiner] {
            #expect(try quick(store, "cat", soup).line == "version 6", "\(store.lastPathComponent)")
            let all = try names(store)
            let kept = all.filter { $0.hasPrefix("Soup (kept, laptop, ") }
            #expect(kept.count == 2, "\(store.lastPathComponent): \(all)")
            let items =
                try JSONSerialization.jsonObject(with: Data(try quick(store, "ls", "--json").output.utf8))
                as? [[String: Any]] ?? []
            for item in items where (item["name"] as? String)?.hasPrefix("Soup (kept, ") == true {
                #expect(
                    try quick(store, "cat", item["id"] as? String ?? "").line
                        == "written on the laptop, never published")
            }
            #expect(try quick(store, "check").output == "ok\n")
        }
        #expect(Set(try [laptop, copied, desktop, joiner].map(names)).count == 1)
    }

    @Test func aRestoredStoreTakesBackCompactedLogsFromABaseline() throws {
        try enableBoth()
        let backup = try backUpThenPublishN2(compacting: true)
        try restoreInPlace(backup, to: laptop)
        #expect(try notes(laptop, "add", "n3").status == 0)
        let synced = try notes(laptop, "sync", "now")
        #expect(synced.output.contains("took back 1 log of its own"), "\(synced)")
        try expectBothHoldEveryNote()
    }

    @Test func aStoreRestoredAfterCompactionStartsAgainFromTheBaseline() throws {
        try enableBoth()
        let backup = try backUpThenPublishN2(compacting: true)
        try copy(backup, to: laptop)
        #expect(try notes(laptop, "add", "n3").status == 0)
        let synced = try notes(laptop, "sync", "now")
        #expect(synced.status == 0, "\(synced)")
        try expectBothHoldEveryNote()
    }
}
