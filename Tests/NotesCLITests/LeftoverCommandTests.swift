import Foundation
import NoteTestSupport
import Testing

/// `notes check` tells leftovers of interrupted work from damage, and `notes check --repair`
/// removes them; a store opened for writing removes the temporary files of stopped processes.
@Suite struct LeftoverCommandTests {
    let folder = TemporaryFolder("notes-cli-leftovers")
    var store: URL { folder.appending("store") }
    var blobs: URL { store.appendingPathComponent("blobs") }

    func notes(_ arguments: String...) throws -> NotesResult {
        try NotesCommand.run(arguments, store: store)
    }

    func names() throws -> Set<String> {
        Set(try FileManager.default.contentsOfDirectory(atPath: blobs.path))
    }

    /// The pid of a process that has stopped.
    static func stoppedProcess() throws -> Int32 {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/true")
        try process.run()
        process.waitUntilExit()
        return process.processIdentifier
    }

    @Test func leftoversAreReportedAsSuchAndRepairedWithoutTouchingNotesBlobs() throws {
        try #require(try notes("add", "Trip", "--body", "photos").status == 0)
        try #require(try notes("attach", "Trip", SampleFiles.image("plain.png").path).status == 0)
        let kept = try names()
        try #require(kept.count == 1)
        // What a killed join and a killed import leave: a temporary file of a process that
        // stopped, and blobs no row references; and a blob this (live) process is writing.
        let stopped = ".tmp-p\(try Self.stoppedProcess())-\(UUID().uuidString.lowercased())"
        let live = ".tmp-p\(getpid())-\(UUID().uuidString.lowercased())"
        let orphans = (0..<40).map { String(format: "%064x", $0 + 1) }
        for name in [stopped, live] + orphans { try Data("x".utf8).write(to: blobs.appendingPathComponent(name)) }

        let checked = try notes("check")
        #expect(checked.status == 0, "\(checked)")
        let lines = checked.output.split(separator: "\n").map(String.init)
        #expect(lines.filter { $0.hasPrefix("leftover: blobs/") }.count == 41, "\(checked)")
        #expect(lines.last == "ok: no damage; 41 leftovers of interrupted work: 'notes check --repair' removes them")
        #expect(!checked.output.contains("damaged") && !checked.output.contains("missing"))
        #expect(try !names().contains(stopped), "removed when the store opened for writing")
        #expect(try names().contains(live))

        let repaired = try notes("check", "--repair")
        #expect(repaired.status == 0, "\(repaired)")
        #expect(repaired.output.hasPrefix("removed 40 leftovers\n"), "\(repaired)")
        #expect(try names() == kept.union([live]), "the note's blob and the live write stay")
        #expect(try notes("cat", "Trip").status == 0)

        try FileManager.default.removeItem(at: blobs.appendingPathComponent(live))
        #expect(try notes("check").output == "ok\n")
    }

    @Test func damageStillFailsTheCheck() throws {
        try #require(try notes("add", "Trip", "--body", "photos").status == 0)
        try #require(try notes("attach", "Trip", SampleFiles.image("plain.png").path).status == 0)
        let blob = try #require(try names().first)
        try FileManager.default.removeItem(at: blobs.appendingPathComponent(blob))
        try Data("x".utf8).write(to: blobs.appendingPathComponent(String(repeating: "e", count: 64)))
        let checked = try notes("check", "--repair")
        #expect(checked.status != 0)
        #expect(
            checked.output.hasPrefix("removed 1 leftover\nmissing blob: blobs/\(blob) of attachment "), "\(checked)")
        #expect(checked.output.split(separator: "\n").count == 2)
        #expect(checked.error == "notes: the store has 1 problem\n", "\(checked)")
    }
}
