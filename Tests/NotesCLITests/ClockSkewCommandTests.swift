import Foundation
import NoteTestSupport
import Testing

/// Devices whose wall clock is far ahead (run under Debian's `faketime`) keep every device
/// syncing, and are named by `sync status`, `sync now` and `devices`.
@Suite struct ClockSkewCommandTests {
    let folder = TemporaryFolder("notes-cli-clock")
    var cloud: URL { folder.appending("cloud") }
    var here: URL { folder.appending("here") }
    var ahead: URL { folder.appending("ahead") }

    init() throws {
        try FileManager.default.createDirectory(at: cloud, withIntermediateDirectories: true)
    }

    @discardableResult
    func notes(_ store: URL, clockOffset: String? = nil, _ arguments: String...) throws -> NotesResult {
        let result = try NotesCommand.run(arguments, store: store, clockOffset: clockOffset)
        #expect(result.status == 0, "notes \(arguments.joined(separator: " ")): \(result)")
        return result
    }

    func names(_ store: URL) throws -> [String] {
        let output = try notes(store, "ls", "--json").output
        let items = try JSONSerialization.jsonObject(with: Data(output.utf8)) as? [[String: Any]] ?? []
        return items.compactMap { $0["name"] as? String }.sorted()
    }

    /// 4,500 years: past the year 6429, beyond which clocks used to overflow what readers accept.
    @Test func aDeviceThousandsOfYearsAheadKeepsEveryDeviceSyncing() throws {
        let offset = "+1643625d"
        try notes(here, "sync", "enable", "--cloud", cloud.path, "--device-name", "here")
        try notes(ahead, clockOffset: offset, "sync", "enable", "--cloud", cloud.path, "--device-name", "ahead")
        try notes(ahead, clockOffset: offset, "add", "first from the future")
        try notes(ahead, clockOffset: offset, "sync", "now")
        let imported = try notes(here, "sync", "now").output
        #expect(imported.contains("imported 1 log"), "\(imported)")
        #expect(imported.contains("years ahead of this one"), "\(imported)")
        try notes(here, "add", "from now")
        try notes(here, "sync", "now")
        try notes(ahead, clockOffset: offset, "add", "second from the future")
        try notes(ahead, clockOffset: offset, "sync", "now")
        let status = try notes(here, "sync", "now").output
        #expect(!status.contains("waiting"), "\(status)")
        #expect(try names(here) == ["first from the future", "from now", "second from the future"])
        #expect(try names(ahead) == ["first from the future", "from now", "second from the future"])
        let described = try notes(here, "sync", "status").output
        #expect(described.contains("clocks:\n  ahead ("), "\(described)")
        #expect(described.contains("years ahead of this device"), "\(described)")
        // The device that is on time is not named by the one ahead, nor by itself.
        #expect(!(try notes(ahead, clockOffset: offset, "sync", "status").output.contains("clocks:")))
    }

    @Test func aDeviceAYearAheadIsNamedWithHowFar() throws {
        try notes(here, "sync", "enable", "--cloud", cloud.path, "--device-name", "here")
        try notes(ahead, clockOffset: "+365d", "sync", "enable", "--cloud", cloud.path, "--device-name", "ahead")
        try notes(ahead, clockOffset: "+365d", "add", "a note")
        try notes(ahead, clockOffset: "+365d", "sync", "now")
        try notes(here, "sync", "now")
        let devices = try notes(here, "devices").output
        #expect(
            devices.contains("ahead  applied 1 of 1 log, clock 364 days ahead")
                || devices.contains("clock 365 days ahead"), "\(devices)")
        let json = try notes(here, "devices", "--json").output
        let objects = try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [[String: Any]] ?? []
        let seconds = try #require(objects.first { $0["name"] as? String == "ahead" }?["clockAheadSeconds"] as? Int)
        #expect(abs(seconds - 365 * 86400) < 3600)
        #expect(
            objects.allSatisfy { Set($0.keys) == ["id", "name", "this", "applied", "available", "clockAheadSeconds"] })
    }

    /// The issue's scenario: B's clock is a year ahead; B edits a note, then A edits the same
    /// line a moment later, before they sync. B's stamp wins the line, but A's text is not held
    /// hostage: a conflict copy keeps it on both devices, and both versions are in history.
    @Test func aClockAYearAheadHoldsNoTextHostage() throws {
        let soup = try notes(here, "add", "Soup", "--body", "leeks\nsalt\n").line
        try notes(here, "sync", "enable", "--cloud", cloud.path, "--device-name", "here")
        try notes(ahead, clockOffset: "+365d", "sync", "enable", "--cloud", cloud.path, "--device-name", "ahead")
        try notes(ahead, clockOffset: "+365d", "edit", soup, "--body", "leeks\nsea salt\n")
        try notes(here, "edit", soup, "--body", "leeks\nno salt\n")
        try notes(ahead, clockOffset: "+365d", "sync", "now")
        try notes(here, "sync", "now")
        try notes(ahead, clockOffset: "+365d", "sync", "now")
        for (store, offset) in [(here, nil), (ahead, "+365d")] as [(URL, String?)] {
            #expect(try notes(store, clockOffset: offset, "cat", soup).output == "leeks\nsea salt\n")
            let conflicts =
                try JSONSerialization.jsonObject(
                    with: Data(notes(store, clockOffset: offset, "conflicts", "--days", "1000", "--json").output.utf8))
                as? [[String: Any]] ?? []
            let copy = try #require(conflicts.first?["copy"] as? String, "\(conflicts)")
            #expect(try notes(store, clockOffset: offset, "cat", copy).output == "leeks\nno salt\n")
        }
        #expect(try notes(here, "sync", "status").output.contains("ahead"), "the device ahead is named")
    }
}
