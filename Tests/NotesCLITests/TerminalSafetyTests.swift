import Foundation
import GRDB
import NoteStore
import NoteSync
import NoteSyncTestSupport
import NoteTestSupport
import Testing

/// Text that could drive a terminal (ESC, BEL, C1 controls, U+202E) never reaches it raw:
/// names refuse it, and every printing command shows what a store or the cloud holds escaped.
@Suite struct TerminalSafetyTests {
    /// Names that would colour the screen, set the window title, use an 8-bit CSI or reverse text.
    static let hostileNames = [
        "\u{1B}[31mRED\u{1B}[0m", "title\u{1B}]0;pwned\u{07}", "c1\u{9B}31m", "evil\u{202E}txt.exe", "tab\there",
        "\u{01}x",
    ]

    /// The characters that must not appear raw in anything printed (a body keeps its line
    /// feeds and tabs).
    static func rawControls(in text: String) -> [Unicode.Scalar] {
        text.unicodeScalars.filter { scalar in
            (scalar.value < 0x20 && scalar != "\n" && scalar != "\t") || (0x7F...0x9F).contains(scalar.value)
                || [0x202E, 0x2066, 0x200F].contains(scalar.value)
        }
    }

    func expectSafe(_ result: NotesResult, _ what: String, sourceLocation: SourceLocation = #_sourceLocation) {
        #expect(
            Self.rawControls(in: result.output).isEmpty, "\(what) printed raw controls: \(result)",
            sourceLocation: sourceLocation)
        #expect(
            Self.rawControls(in: result.error).isEmpty, "\(what) printed raw controls: \(result)",
            sourceLocation: sourceLocation)
    }

    @Test(arguments: hostileNames)
    func namesWithControlCharactersAreRefusedEverywhere(_ name: String) throws {
        let fixture = CommandLineFixture()
        let note = try fixture.add("Plain")
        try fixture.makeCollection("Box")
        let before = try fixture.snapshot()
        for arguments in [["add", name], ["mkcol", name, "--in", "Box"], ["edit", note, "--name", name]] {
            let result = try fixture.run(arguments)
            fixture.expectFailure(result, status: 65, mentioning: ["character U+"])
            expectSafe(result, arguments[0])
            #expect(!result.error.contains("\t"), "a tab is shown escaped in an error: \(result)")
        }
        // A reference that holds such characters is looked up, and the error shows it escaped.
        let lookup = try fixture.run(["add", "x", "--in", name])
        fixture.expectFailure(lookup, status: 64, mentioning: ["no item"])
        expectSafe(lookup, "add --in")
        #expect(try fixture.snapshot() == before)
    }

    @Test func aDeviceNameWithControlCharactersIsAUsageError() throws {
        let fixture = CommandLineFixture()
        let cloud = fixture.file("cloud")
        try FileManager.default.createDirectory(at: cloud, withIntermediateDirectories: true)
        let result = try fixture.run([
            "sync", "enable", "--cloud", cloud.path, "--device-name", "lap\u{1B}]0;x\u{07}top",
        ])
        fixture.expectFailure(result, status: 64, mentioning: ["--device-name", "U+001B"])
        expectSafe(result, "sync enable")
    }

    /// A store that already holds hostile text (written by an earlier build, or a body, which
    /// may hold any character): every command that prints it shows it escaped.
    @Test func everyPrintingCommandEscapesWhatTheStoreHolds() throws {
        let fixture = CommandLineFixture()
        let box = try fixture.makeCollection("Box")
        let note = try fixture.add(
            "Plain", in: box, body: "line one\n\u{1B}[2J\u{1B}]0;pwned\u{07} quetzal \u{202E}reversed\n\ttabbed")
        let image = SampleFiles.image("plain.png").path
        try fixture.succeed(["attach", note, image, "--caption", "cap\u{1B}[5mtion"])
        let trashed = try fixture.add("Gone", body: "x")
        try fixture.succeed(["rm", trashed])
        try rename(
            [note: "\u{1B}[31mRED\u{1B}[0m", box: "Bo\u{9B}x\u{202E}", trashed: "Gone\u{07}"], in: fixture.store)

        // A PNG cut short: refused as an image (other files are attached as they are).
        let notImage = try fixture.write(
            Data([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]) + Data("cut short".utf8), to: "text.png"
        ).path
        let commands: [[String]] = [
            ["ls"], ["ls", "--recursive"], ["ls", "--trash"], ["ls", box], ["ls", "--json", "--recursive"],
            ["show", note], ["show", note, "--json"], ["show", box], ["search", "quetzal"],
            ["search", "quetzal", "--json"],
            ["attachments", note], ["attachments", note, "--json"],
            ["attach", note, notImage],
            ["mv", box, "--to", note],
        ]
        for arguments in commands {
            let result = try fixture.run(arguments)
            expectSafe(result, arguments.joined(separator: " "))
            #expect(!result.output.isEmpty || !result.error.isEmpty, "\(arguments): \(result)")
        }
        let listing = try fixture.succeed(["ls", "--recursive"]).output
        #expect(listing.contains("\\e[31mRED\\e[0m"))
        #expect(listing.contains("Bo\\u{9b}x\\u{202e}/"))
        let shown = try fixture.succeed(["show", note]).output
        #expect(
            shown.contains("line one\n\\e[2J\\e]0;pwned\\u{7} quetzal \\u{202e}reversed\n\ttabbed"),
            "layout is kept: \(shown)")
        #expect(try fixture.succeed(["attachments", note]).output.contains("cap\\e[5mtion"))
        // JSON holds the same strings, escaped the JSON way, and still decodes to them.
        let json = try fixture.succeed(["show", note, "--json"]).output
        #expect(json.contains("\\u001b[31mRED"))
        #expect(json.contains("\\u202e"))
        #expect(try fixture.show(note)["name"] as? String == "\u{1B}[31mRED\u{1B}[0m")
        for arguments in [["ls", "--recursive"], ["ls", "--recursive", "--tag", "none"], ["ls", "--orphans"]] {
            let listed = try JSONChecks.array(try fixture.succeed(arguments + ["--json"]).output)
            #expect(
                arguments.contains("none") || JSONChecks.names(listed).contains("\u{1B}[31mRED\u{1B}[0m"),
                "\(arguments)")
        }
        let listed = try JSONChecks.array(try fixture.succeed(["ls", "--recursive", "--json"]).output)
        #expect(JSONChecks.names(listed).contains("Bo\u{9B}x\u{202E}"))
        let failure = try fixture.run(["attach", note, notImage])
        fixture.expectFailure(failure, status: 65, mentioning: ["\\e[31mRED\\e[0m"])
    }

    /// Another device's log (hand-made, valid) creates notes with hostile names and renames a
    /// shared note to one: `sync now` leaves those changes out, applies the rest, and prints
    /// nothing raw.
    @Test func namesWithControlCharactersFromAnotherDeviceAreLeftOutOnImport() throws {
        let fixture = CommandLineFixture()
        let cloud = fixture.file("cloud")
        try FileManager.default.createDirectory(at: cloud, withIntermediateDirectories: true)
        try fixture.succeed(["sync", "enable", "--cloud", cloud.path, "--device-name", "here"])
        let shared = try fixture.add("Shared")
        try fixture.succeed(["sync", "now"])
        let container = cloud.appendingPathComponent("NoteCollector")
        let sentinel =
            try JSONSerialization.jsonObject(with: Data(contentsOf: container.appendingPathComponent("container.json")))
            as? [String: Any]
        let identityText = try #require(sentinel?["container"] as? String)
        let identity = try #require(UUID(uuidString: identityText))
        let other = UUID()
        let clock = HybridClock.tick(after: 0)
        func insert(_ name: String) -> LogChange { HandMadeLog.noteInsert(named: name, clock: clock) }
        var rename = OutboxChanges()
        rename.set("name", .text("Shared\u{1B}]0;pwned\u{07}"))
        let changes =
            Self.hostileNames.map(insert) + [
                insert("A plain note"),
                LogChange(
                    entity: .note, object: UUID(uuidString: shared)!, operation: .update, clock: clock + 1,
                    values: rename),
            ]
        let file = container.appendingPathComponent(CloudContainer.logPath(device: other, sequence: 1))
        try FileManager.default.createDirectory(at: file.deletingLastPathComponent(), withIntermediateDirectories: true)
        try HandMadeLog.encode(changes, container: identity, device: other).write(to: file)
        let result = try fixture.succeed(["sync", "now"])
        expectSafe(result, "sync now")
        #expect(
            result.output.contains("left out \(Self.hostileNames.count + 1) changes that break the model's rules"),
            "\(result)")
        #expect(JSONChecks.names(try fixture.list()) == ["A plain note", "Shared"])
        for arguments in [["ls"], ["sync", "status"], ["devices"]] {
            expectSafe(try fixture.succeed(arguments), arguments[0])
        }
    }

    @Test func deviceNamesFromTheCloudAreEscaped() throws {
        let fixture = CommandLineFixture()
        let cloud = fixture.file("cloud")
        try FileManager.default.createDirectory(at: cloud, withIntermediateDirectories: true)
        try fixture.succeed(["sync", "enable", "--cloud", cloud.path, "--device-name", "laptop"])
        let container = cloud.appendingPathComponent("NoteCollector")
        let sentinel =
            try JSONSerialization.jsonObject(with: Data(contentsOf: container.appendingPathComponent("container.json")))
            as? [String: Any]
        let identity = try #require(sentinel?["container"] as? String)
        let other = UUID().uuidString.lowercased()
        let registration: [String: Any] = [
            "container": identity, "device": other, "format": "note-collector-device", "formatVersion": 1,
            "modelVersion": 3, "name": "evil\u{1B}]0;pwned\u{07}\u{202E}", "registered": "2026-11-20T18:04:51.377Z",
        ]
        try JSONSerialization.data(withJSONObject: registration)
            .write(to: container.appendingPathComponent("devices").appendingPathComponent("\(other).json"))
        for arguments in [["devices"], ["devices", "--json"], ["sync", "status"], ["sync", "status", "--json"]] {
            let result = try fixture.succeed(arguments)
            expectSafe(result, arguments.joined(separator: " "))
            #expect(result.output.contains("evil"), "\(arguments): \(result)")
        }
        #expect(try fixture.succeed(["devices"]).output.contains("evil\\e]0;pwned\\u{7}\\u{202e}"))
    }

    /// Sets names straight in the database, as a store written before names refused these
    /// characters may hold them.
    func rename(_ names: [String: String], in store: URL) throws {
        let queue = try DatabaseQueue(path: store.appendingPathComponent("store.sqlite").path)
        try queue.write { db in
            for (id, name) in names {
                try db.execute(sql: "UPDATE item SET name = ? WHERE id = ?", arguments: [name, id])
            }
        }
    }
}
