import Foundation
import NoteTestSupport
import Testing

/// `notes export` and `notes import` through the binary: the round trip, the summary lines,
/// and one line with a non-zero status for each bad input.
@Suite struct InterchangeCommandTests {
    let folder = TemporaryFolder("notes-cli-interchange")
    var source: URL { folder.appending("source") }
    var target: URL { folder.appending("target") }
    var out: URL { folder.appending("out") }

    func notes(_ store: URL, _ arguments: String...) throws -> NotesResult {
        try NotesCommand.run(arguments, store: store)
    }

    /// `ls --recursive --json` with each collection as its path, without its id and dates, as
    /// a Markdown export keeps a collection that needs no `.collection.md`.
    func collectionsByPath(_ store: URL) throws -> [String] {
        let items =
            try JSONSerialization.jsonObject(with: Data(notes(store, "ls", "--recursive", "--json").output.utf8))
            as? [[String: Any]] ?? []
        let paths = Dictionary(
            items.map { ($0["id"] as? String ?? "", $0["path"] as? String ?? "") },
            uniquingKeysWith: { first, _ in first })
        return try items.map { item in
            var item = item
            if item["kind"] as? String == "collection" {
                item["id"] = nil; item["created"] = nil; item["modified"] = nil
            }
            if let parent = item["parent"] as? String { item["parent"] = paths[parent] }
            return String(
                decoding: try JSONSerialization.data(withJSONObject: item, options: [.sortedKeys]), as: UTF8.self)
        }
    }

    @Test func exportThenImportGivesTheSameNotes() throws {
        let id = try notes(source, "mkcol", "Work").line
        #expect(try notes(source, "add", "Plan", "--in", id, "--body", "step one\n").status == 0)
        #expect(try notes(source, "add", "Soup / ideas", "--body", "leeks").status == 0)
        let exported = try notes(source, "export", out.path)
        #expect(exported.output == "exported 2 notes, 1 collection, 0 images\n", "\(exported)")
        let imported = try notes(target, "import", out.path)
        #expect(imported.output == "created 3, updated 0, unchanged 0, images 0, skipped 0\n", "\(imported)")
        #expect(try collectionsByPath(target) == collectionsByPath(source))
        #expect(try notes(target, "cat", "Work/Plan").output == "step one\n")
        let again = try notes(target, "import", out.path, "--dry-run")
        #expect(again.output == "would create 0, updated 0, unchanged 3, images 0, skipped 0\n", "\(again)")
    }

    @Test func badInputsAreOneLineAndANonZeroStatus() throws {
        #expect(try notes(source, "add", "kept").status == 0)
        let missing = try notes(source, "import", folder.appending("nowhere").path)
        #expect(
            missing.status != 0 && missing.error.hasPrefix("notes: cannot use ")
                && missing.error.hasSuffix("no such file or directory\n"), "\(missing)")
        try FileManager.default.createDirectory(at: out, withIntermediateDirectories: true)
        try Data("x".utf8).write(to: out.appendingPathComponent("other.txt"))
        let full = try notes(source, "export", out.path)
        #expect(full.status == 64 && full.error.contains("it is not empty (give --force"), "\(full)")
        let text = folder.appending("notes.txt")
        try Data("x".utf8).write(to: text)
        let notMarkdown = try notes(source, "import", text.path)
        #expect(notMarkdown.status == 65 && notMarkdown.error.split(separator: "\n").count == 1, "\(notMarkdown)")
        let unknown = try notes(source, "export", folder.appending("x").path, "nosuchnote")
        #expect(unknown.status == 64, "\(unknown)")
        let latin = folder.appending("latin1.md")
        try Data([0xFF, 0x0A]).write(to: latin)
        let skipped = try notes(source, "import", latin.path)
        #expect(skipped.status == 65 && skipped.error == "notes: latin1.md: not UTF-8, skipped\n", "\(skipped)")
        #expect(try notes(source, "ls").output.contains("kept"))
        #expect(try notes(source, "check").output == "ok\n")
    }

    /// Export with --force into a folder holding links to a file and a folder outside: one line
    /// naming the link, a non-zero status, nothing outside written. Import of a folder whose
    /// links lead out of it: each reported on one line, nothing of theirs attached, status 65.
    @Test func symbolicLinksLeadingOutAreRefused() throws {
        let outside = folder.appending("outside")
        try FileManager.default.createDirectory(at: outside, withIntermediateDirectories: true)
        try Data("mine\n".utf8).write(to: outside.appendingPathComponent("diary.md"))
        try FileManager.default.createDirectory(at: out, withIntermediateDirectories: true)
        try FileManager.default.createSymbolicLink(
            atPath: out.appendingPathComponent("Home.md").path, withDestinationPath: "../outside/diary.md")
        try FileManager.default.createSymbolicLink(
            atPath: out.appendingPathComponent("Work").path, withDestinationPath: "../outside")
        #expect(try notes(source, "add", "Home", "--body", "water the plants\n").status == 0)
        let onFile = try notes(source, "export", out.path, "--force")
        #expect(
            onFile.status == 1
                && onFile.error == "notes: cannot export to '\(out.path)/Home.md': it is a symbolic link\n", "\(onFile)"
        )
        #expect(try String(contentsOf: outside.appendingPathComponent("diary.md"), encoding: .utf8) == "mine\n")
        try FileManager.default.removeItem(at: out.appendingPathComponent("Home.md"))
        let work = try notes(source, "mkcol", "Work").line
        #expect(try notes(source, "add", "Plan", "--in", work, "--body", "step one\n").status == 0)
        let onFolder = try notes(source, "export", out.path, "--force")
        #expect(
            onFolder.status == 1
                && onFolder.error == "notes: cannot export to '\(out.path)/Work': it is a symbolic link\n",
            "\(onFolder)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: outside.path) == ["diary.md"])

        let image = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent(
            "../../Samples/images/baseline.jpg"
        ).standardizedFileURL
        try FileManager.default.copyItem(at: image, to: outside.appendingPathComponent("photo.jpg"))
        let vault = folder.appending("vault")
        try FileManager.default.createDirectory(at: vault, withIntermediateDirectories: true)
        try FileManager.default.createSymbolicLink(
            atPath: vault.appendingPathComponent("pic.jpg").path, withDestinationPath: "../outside/photo.jpg")
        try FileManager.default.createSymbolicLink(
            atPath: vault.appendingPathComponent("assets").path, withDestinationPath: "../outside")
        try Data("![a](pic.jpg)\n![b](assets/photo.jpg)\n".utf8).write(to: vault.appendingPathComponent("note.md"))
        let imported = try notes(target, "import", vault.path)
        #expect(imported.status == 65, "\(imported)")
        #expect(
            imported.error == """
                notes: assets: a symbolic link to outside what is imported, skipped
                notes: note.md: image pic.jpg is a symbolic link to outside what is imported, not attached
                notes: note.md: image assets/photo.jpg is a symbolic link to outside what is imported, not attached

                """, "\(imported)")
        #expect(imported.output == "created 1, updated 0, unchanged 0, images 0, skipped 3\n", "\(imported)")
        #expect(try notes(target, "attachments", "note").output == "")
    }

    /// The sample store (Samples/fill-store.sh), with tags and an image, exported in each
    /// format and imported into an empty store: the same listing, bodies, tags and images.
    @Test(arguments: ["md", "json"]) func theSampleStoreRoundTrips(format: String) throws {
        let script = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent(
            "../../Samples/fill-store.sh"
        ).standardizedFileURL
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/bash")
        process.arguments = [script.path, "--store", source.path]
        process.environment = ["NOTES": NotesCommand.binary.path, "PATH": "/usr/bin:/bin"]
        process.standardOutput = FileHandle.nullDevice
        try process.run()
        process.waitUntilExit()
        #expect(process.terminationStatus == 0)
        let items =
            try JSONSerialization.jsonObject(with: Data(notes(source, "ls", "--recursive", "--json").output.utf8))
            as? [[String: Any]] ?? []
        let noteIDs = items.filter { $0["kind"] as? String == "note" }.compactMap { $0["id"] as? String }
        #expect(noteIDs.count > 5)
        #expect(try notes(source, "tag", noteIDs[0], "work", "#urgent").status == 0)
        #expect(try notes(source, "tag", noteIDs[1], "work").status == 0)
        let image = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent(
            "../../Samples/images/baseline.jpg"
        ).standardizedFileURL
        #expect(try notes(source, "attach", noteIDs[1], image.path, "--caption", "the plan").status == 0)
        let exported = try notes(source, "export", out.path, "--format", format)
        #expect(exported.status == 0 && exported.output.hasPrefix("exported \(noteIDs.count) notes, "), "\(exported)")
        let imported = try notes(target, "import", out.path)
        #expect(imported.status == 0 && imported.output.contains(", images 1, skipped 0"), "\(imported)")
        // A Markdown export keeps a collection by its name and place (docs/interchange.md).
        let listing: [[String]] = format == "json" ? [["ls", "--recursive", "--json"]] : []
        #expect(try collectionsByPath(target) == collectionsByPath(source))
        for arguments in listing + [["tags"], ["show", noteIDs[0], "--json"]] {
            #expect(
                try NotesCommand.run(arguments, store: target).output
                    == NotesCommand.run(arguments, store: source).output, "\(arguments)")
        }
        // Attachments come in as new attachments of the same bytes, format, size and caption.
        func images(_ store: URL) throws -> [String] {
            let list =
                try JSONSerialization.jsonObject(
                    with: Data(notes(store, "attachments", noteIDs[1], "--json").output.utf8)) as? [[String: Any]] ?? []
            return list.map {
                "\($0["sha256"]!) \($0["format"]!) \($0["width"]!)x\($0["height"]!) \($0["bytes"]!) \($0["caption"]!)"
            }
        }
        #expect(try images(target) == images(source) && images(source).count == 1)
        for id in noteIDs { #expect(try notes(target, "cat", id).output == notes(source, "cat", id).output) }
        let again = try notes(target, "import", out.path)
        #expect(again.output.hasPrefix("created 0, updated 0, unchanged \(items.count),"), "\(again)")
    }

    /// On a terminal, an export and an import of more than a few hundred notes draw a
    /// progress line on standard error; through a pipe, they do not.
    @Test func largeExportsAndImportsShowProgressOnATerminal() throws {
        let lines = (0..<450).map {
            "{\"id\":\"\(UUID().uuidString.lowercased())\",\"kind\":\"note\",\"name\":\"n\($0)\","
                + "\"parent\":null,\"body\":\"b\"}"
        }
        let file = folder.appending("many.jsonl")
        try Data(([#"{"format":"note-collector-export","formatVersion":1}"#] + lines).joined(separator: "\n").utf8)
            .write(to: file)
        let imported = try NotesCommand.runOnTerminal(["import", file.path], store: source)
        #expect(
            imported.status == 0 && imported.output.contains("importing") && imported.output.contains("created 450"),
            "\(imported.output)")
        let exported = try NotesCommand.runOnTerminal(["export", out.path], store: source)
        #expect(
            exported.status == 0 && exported.output.contains("exporting")
                && exported.output.contains("exported 450 notes"), "\(exported.output)")
        let piped = try notes(target, "import", out.path)
        #expect(
            piped.status == 0 && piped.error.isEmpty
                && piped.output == "created 450, updated 0, unchanged 0, images 0, skipped 0\n", "\(piped)")
    }
}
