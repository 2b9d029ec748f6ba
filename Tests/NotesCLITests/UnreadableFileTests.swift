import Foundation
import NoteTestSupport
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// A file of the container that cannot be read holds up its own device only, and says why in
/// `sync status`; a failed export is an error there, with its cause, until one succeeds. Run
/// without root's capabilities, so that file modes bind `notes`.
@Suite struct UnreadableFileTests {
    let folder = TemporaryFolder("notes-cli-unreadable")
    var cloud: URL { folder.appending("cloud") }
    var laptop: URL { folder.appending("laptop") }
    var desktop: URL { folder.appending("desktop") }
    var phone: URL { folder.appending("phone") }

    func notes(_ store: URL, _ arguments: String...) throws -> NotesResult {
        try NotesCommand.run(arguments, store: store, unprivileged: true)
    }

    func names(_ store: URL) throws -> [String] {
        let items =
            try JSONSerialization.jsonObject(with: Data(try notes(store, "ls", "--json").output.utf8))
            as? [[String: Any]] ?? []
        return items.compactMap { $0["name"] as? String }.sorted()
    }

    func deviceID(_ store: URL) throws -> String {
        let status = try JSONSerialization.jsonObject(
            with: Data(try notes(store, "sync", "status", "--json").output.utf8))
        return ((status as? [String: Any])?["device"] as? [String: Any])?["id"] as? String ?? ""
    }

    /// Three devices; the desktop and the phone each write a note the laptop has not applied.
    func prepare() throws -> (desktopLogs: URL, phoneNote: String) {
        try FileManager.default.createDirectory(at: cloud, withIntermediateDirectories: true)
        for (store, name) in [(laptop, "laptop"), (desktop, "desktop"), (phone, "phone")] {
            #expect(try notes(store, "sync", "enable", "--cloud", cloud.path, "--device-name", name).status == 0)
        }
        #expect(try notes(desktop, "add", "from the desktop").status == 0)
        #expect(try notes(desktop, "sync", "now").status == 0)
        #expect(try notes(phone, "add", "from the phone").status == 0)
        #expect(try notes(phone, "sync", "now").status == 0)
        return (cloud.appendingPathComponent("NoteCollector/logs/\(try deviceID(desktop))"), "from the phone")
    }

    @Test func anUnreadableLogHoldsUpItsDeviceOnly() throws {
        let (desktopLogs, phoneNote) = try prepare()
        let log = desktopLogs.appendingPathComponent("000000000001.log")
        chmod(log.path, 0)
        defer { chmod(log.path, 0o600) }
        let synced = try notes(laptop, "sync", "now")
        #expect(synced.status == 0, "\(synced)")
        #expect(try names(laptop) == [phoneNote])
        let line = "logs/\(try deviceID(desktop))/000000000001.log: it cannot be read: permission denied"
        #expect(synced.output.contains("waiting: \(line)"), "\(synced)")
        #expect(try notes(laptop, "sync", "status").output.contains(line))
        chmod(log.path, 0o600)
        #expect(try notes(laptop, "sync", "now").status == 0)
        #expect(try names(laptop) == ["from the desktop", phoneNote])
        #expect(!(try notes(laptop, "sync", "status").output.contains("waiting:")))
    }

    @Test func aLogFolderThatCannotBeListedHoldsUpItsDeviceOnly() throws {
        let (desktopLogs, phoneNote) = try prepare()
        chmod(desktopLogs.path, 0)
        defer { chmod(desktopLogs.path, 0o700) }
        let synced = try notes(laptop, "sync", "now")
        #expect(synced.status == 0, "\(synced)")
        #expect(try names(laptop) == [phoneNote])
        #expect(synced.output.contains("the folder of its logs cannot be listed: permission denied"), "\(synced)")
        chmod(desktopLogs.path, 0o700)
        #expect(try notes(laptop, "sync", "now").status == 0)
        #expect(try names(laptop) == ["from the desktop", phoneNote])
    }

    @Test func aFailedExportIsAnErrorInStatusUntilOneSucceeds() throws {
        _ = try prepare()
        let own = cloud.appendingPathComponent("NoteCollector/logs/\(try deviceID(laptop))")
        try FileManager.default.createDirectory(at: own, withIntermediateDirectories: true)
        chmod(own.path, 0o500)
        defer { chmod(own.path, 0o700) }
        #expect(try notes(laptop, "add", "to export").status == 0)
        let failed = try notes(laptop, "sync", "now")
        #expect(failed.status == 1, "\(failed)")
        let status = try notes(laptop, "sync", "status").output
        #expect(status.contains("export:    failed at "), "\(status)")
        #expect(status.contains("permission denied"), "\(status)")
        let object =
            try JSONSerialization.jsonObject(with: Data(try notes(laptop, "sync", "status", "--json").output.utf8))
            as? [String: Any]
        #expect((object?["exportError"] as? [String: Any])?["reason"] is String)
        chmod(own.path, 0o700)
        #expect(try notes(laptop, "sync", "now").status == 0)
        #expect(!(try notes(laptop, "sync", "status").output.contains("export:")))
        #expect(try notes(phone, "sync", "now").status == 0)
        #expect(try names(phone).contains("to export"))
    }
}
