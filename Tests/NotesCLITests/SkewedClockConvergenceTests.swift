import Foundation
import NoteStore
import NoteTestSupport
import Testing

/// Devices whose wall clocks are years off (run under Debian's `faketime`) move, trash and
/// restore notes after seeing each other's changes: every change a device makes after seeing
/// another is stamped above it, so every device, and a device that joins afterwards, ends
/// with the same notes in the same places.
@Suite struct SkewedClockConvergenceTests {
    let folder = TemporaryFolder("notes-cli-skew")
    var cloud: URL { folder.appending("cloud") }
    var here: URL { folder.appending("here") }
    var skewed: URL { folder.appending("skewed") }
    var fresh: URL { folder.appending("fresh") }

    static let fiveYears = "1826d"

    init() throws {
        try FileManager.default.createDirectory(at: cloud, withIntermediateDirectories: true)
    }

    @discardableResult
    func notes(_ store: URL, _ offset: String? = nil, _ arguments: String...) throws -> NotesResult {
        let result = try NotesCommand.run(arguments, store: store, clockOffset: offset)
        #expect(result.status == 0, "notes \(arguments.joined(separator: " ")): \(result)")
        return result
    }

    /// What a person sees on a device: the live items with their paths, the trash, and the
    /// canonical dump of the store (every synced property and version).
    func state(_ store: URL, _ offset: String? = nil) throws -> String {
        let live = try notes(store, offset, "ls", "-r", "--json").output
        let trash = try notes(store, offset, "ls", "--trash", "--json").output
        let dump = try CanonicalDump.of(Store(folder: store, access: .readOnly))
        return live + trash + dump
    }

    /// Where `note` is shown on `store`: its path, or `trash` when it is in the trash.
    func place(of note: String, on store: URL, _ offset: String? = nil) throws -> String {
        let shown =
            try JSONSerialization.jsonObject(with: Data(notes(store, offset, "show", note, "--json").output.utf8))
            as? [String: Any]
        if shown?["trashed"] as? Bool == true { return "trash" }
        return shown?["path"] as? String ?? "?"
    }

    /// Both devices and a device that joins now hold the same state, with `note` at `expected`.
    func expectConverged(_ note: String, at expected: String, skew: String) throws {
        try notes(skewed, skew, "sync", "now")
        try notes(here, nil, "sync", "now")
        try notes(skewed, skew, "sync", "now")
        try notes(fresh, nil, "sync", "enable", "--cloud", cloud.path, "--device-name", "fresh")
        #expect(try place(of: note, on: here) == expected, "on the device on time")
        #expect(try place(of: note, on: skewed, skew) == expected, "on the skewed device")
        #expect(try place(of: note, on: fresh) == expected, "on the device that joined")
        let states = [try state(here), try state(skewed, skew), try state(fresh)]
        #expect(states[1] == states[0], "the skewed device differs from the one on time")
        #expect(states[2] == states[0], "the device that joined differs")
    }

    /// A note and a collection made on the device on time, which both devices sync.
    func start(skew: String) throws -> String {
        try notes(here, nil, "mkcol", "X")
        let note = try notes(here, nil, "add", "n", "--body", "soup").line
        try notes(here, nil, "sync", "enable", "--cloud", cloud.path, "--device-name", "here")
        try notes(skewed, skew, "sync", "enable", "--cloud", cloud.path, "--device-name", "skewed")
        return note
    }

    @Test func aMoveOnADeviceFiveYearsBehindReachesEveryDevice() throws {
        let behind = "-" + Self.fiveYears
        let note = try start(skew: behind)
        try notes(skewed, behind, "mv", note, "--to", "X")
        try notes(skewed, behind, "edit", note, "--name", "renamed")
        try expectConverged(note, at: "X/renamed", skew: behind)
    }

    @Test func aMoveBackAfterAMoveFiveYearsAheadReachesEveryDevice() throws {
        let ahead = "+" + Self.fiveYears
        let note = try start(skew: ahead)
        try notes(skewed, ahead, "mv", note, "--to", "X")
        try notes(skewed, ahead, "sync", "now")
        try notes(here, nil, "sync", "now")
        #expect(try place(of: note, on: here) == "X/n")
        try notes(here, nil, "mv", note, "--top")
        try notes(here, nil, "edit", note, "--name", "back")
        try expectConverged(note, at: "back", skew: ahead)
    }

    /// The skewed device's clock runs two years ahead, then jumps back three years (one year
    /// behind): trash and restore on both devices, each after seeing the other's change.
    @Test func trashAndRestoreAcrossAClockThatJumpsBackConverge() throws {
        let ahead = "+730d"
        let behind = "-365d"
        let note = try start(skew: ahead)
        try notes(skewed, ahead, "rm", note)
        try notes(skewed, ahead, "sync", "now")
        try notes(here, nil, "sync", "now")
        #expect(try place(of: note, on: here) == "trash")
        try notes(here, nil, "restore", note)
        try notes(here, nil, "sync", "now")
        try notes(skewed, behind, "sync", "now")
        #expect(try place(of: note, on: skewed, behind) == "n")
        try notes(skewed, behind, "rm", note)
        try notes(skewed, behind, "sync", "now")
        try notes(here, nil, "sync", "now")
        #expect(try place(of: note, on: here) == "trash")
        try notes(here, nil, "restore", note)
        try expectConverged(note, at: "n", skew: behind)
    }
}
