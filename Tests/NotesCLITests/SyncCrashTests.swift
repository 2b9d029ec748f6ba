import Foundation
import NoteTestSupport
import Testing

/// `notes sync now` killed with SIGKILL at many points of export and import, then run again:
/// nothing is lost, nothing is applied twice, and both stores pass `notes check`.
@Suite struct SyncCrashTests {
    let folder = TemporaryFolder("notes-cli-crash")
    var cloud: URL { folder.appending("cloud") }
    var writer: URL { folder.appending("writer") }
    var reader: URL { folder.appending("reader") }

    /// The passphrase of the encrypted containers of these tests (never asked for a plain one),
    /// with scrypt at its lowest accepted cost, and the crash point when there is one.
    func notes(_ store: URL, _ arguments: [String], crashAt point: String? = nil) throws -> NotesResult {
        var environment = ["NOTES_PASSPHRASE": "crash test", "NOTES_SCRYPT_COST": "1024"]
        if let point { environment["NOTES_CRASH_AT"] = point }
        return try NotesCommand.run(arguments, store: store, environment: environment)
    }

    func listing(_ store: URL) throws -> [String] {
        let result = try notes(store, ["ls", "--recursive", "--trash", "--json"])
        let live = try JSONSerialization.jsonObject(
            with: Data(try notes(store, ["ls", "--recursive", "--json"]).output.utf8))
        let trash = try JSONSerialization.jsonObject(with: Data(result.output.utf8))
        return ((live as? [[String: Any]] ?? []) + (trash as? [[String: Any]] ?? []))
            .map { "\($0["id"] ?? "") \($0["name"] ?? "") \($0["parent"] ?? "nil") \($0["trashed"] ?? "")" }.sorted()
    }

    /// Makes a few saves on the writer: notes, a collection, an edit, a trashed note, an image.
    func makeChanges(_ round: Int) throws {
        #expect(try notes(writer, ["mkcol", "Round \(round)"]).status == 0)
        for index in 0..<3 {
            #expect(
                try notes(
                    writer, ["add", "Note \(round).\(index)", "--in", "Round \(round)", "--body", "text \(index)"]
                ).status == 0)
        }
        #expect(try notes(writer, ["edit", "Round \(round)/Note \(round).0", "--body", "edited"]).status == 0)
        #expect(try notes(writer, ["rm", "Round \(round)/Note \(round).1"]).status == 0)
        #expect(
            try notes(writer, ["attach", "Round \(round)/Note \(round).2", SampleFiles.image("plain.png").path]).status
                == 0)
    }

    /// On a plain container, and on an encrypted one.
    @Test(arguments: [false, true])
    func syncKilledAnywhereLosesNothingAndAppliesNothingTwice(encrypted: Bool) throws {
        try FileManager.default.createDirectory(at: cloud, withIntermediateDirectories: true)
        let encrypt = encrypted ? ["--encrypt"] : []
        #expect(
            try notes(writer, ["sync", "enable", "--cloud", cloud.path, "--device-name", "writer"] + encrypt).status
                == 0)
        #expect(try notes(reader, ["sync", "enable", "--cloud", cloud.path, "--device-name", "reader"]).status == 0)
        let points = [
            ("export.blob", writer), ("export.log", writer), ("export.commit", writer),
            ("import.read", reader), ("import.apply#3", reader), ("import.apply#6", reader), ("import.commit", reader),
        ]
        for (round, (point, store)) in points.enumerated() {
            try makeChanges(round)
            if store == reader {
                #expect(try notes(writer, ["sync", "now"]).status == 0)
            }
            let killed = try notes(store, ["sync", "now"], crashAt: point)
            #expect(killed.status == SIGKILL, "sync now at \(point) should have been killed: \(killed)")
            #expect(try notes(store, ["sync", "now"]).status == 0, "sync after a kill at \(point)")
            #expect(try notes(writer, ["sync", "now"]).status == 0)
            #expect(try notes(reader, ["sync", "now"]).status == 0)
            #expect(try listing(reader) == listing(writer), "after a kill at \(point)")
        }
        #expect(try listing(reader).count == points.count * 4)
        for store in [writer, reader] {
            let check = try notes(store, ["check"])
            #expect(check.status == 0 && check.output == "ok\n", "\(check)")
            #expect(try notes(store, ["sync", "now"]).output.hasPrefix("exported 0 logs, imported 0 logs"))
        }
    }
}
