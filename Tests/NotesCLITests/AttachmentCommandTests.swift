import Foundation
import NoteTestSupport
import Testing

@Suite struct AttachmentCommandTests {
    let folder = TemporaryFolder("notes-cli-attach")
    var store: URL { folder.appending("store") }

    func notes(_ arguments: String...) throws -> NotesResult {
        try NotesCommand.run(arguments, store: store)
    }

    func expectFailure(_ result: NotesResult, status: Int32, containing text: String) {
        #expect(result.status == status, "\(result)")
        #expect(result.output.isEmpty)
        #expect(result.error.hasPrefix("notes: "))
        #expect(result.error.split(separator: "\n").count == 1)
        #expect(result.error.contains(text), "\(result.error)")
    }

    func blobs() -> [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: store.appendingPathComponent("blobs").path)) ?? [])
            .sorted()
    }

    func json(_ result: NotesResult) throws -> Any {
        try JSONSerialization.jsonObject(with: Data(result.output.utf8))
    }

    @Test func attachListShowSaveAndDetach() throws {
        try #require(try notes("add", "Trip", "--body", "photos").status == 0)
        let png = SampleFiles.image("plain.png").path
        let gif = SampleFiles.image("animated.gif").path
        let attached = try notes("attach", "Trip", png, gif, "--caption", "the view")
        #expect(attached.status == 0, "\(attached)")
        let ids = attached.output.split(separator: "\n").map(String.init)
        #expect(ids.count == 2 && ids.allSatisfy { UUID(uuidString: $0) != nil })

        let lines = try notes("attachments", "Trip").output.split(separator: "\n")
        #expect(lines.count == 2)
        #expect(lines[0].contains("PNG") && lines[0].contains("the view"))
        #expect(lines[1].contains("GIF"))

        let list = try #require(try json(notes("attachments", "Trip", "--json")) as? [[String: Any]])
        #expect(list.count == 2)
        let first = list[0]
        #expect(
            Set(first.keys) == ["id", "note", "format", "width", "height", "bytes", "caption", "sha256", "created"])
        #expect(first["format"] as? String == "png")
        #expect((first["width"] as? Int ?? 0) > 0 && (first["height"] as? Int ?? 0) > 0)
        #expect(first["bytes"] as? Int == (try Data(contentsOf: SampleFiles.image("plain.png"))).count)
        #expect((first["sha256"] as? String)?.count == 64)

        let shown = try #require(try json(notes("show", "Trip", "--json")) as? [String: Any])
        #expect((shown["attachments"] as? [[String: Any]])?.count == 2)
        #expect(try notes("show", "Trip").output.contains("attachments:"))

        let copy = folder.appending("copy.png")
        #expect(try notes("attachment-save", String(ids[0].prefix(8)), copy.path).status == 0)
        #expect(try Data(contentsOf: copy) == Data(contentsOf: SampleFiles.image("plain.png")))
        expectFailure(try notes("attachment-save", ids[0], copy.path), status: 64, containing: "--force")
        #expect(try notes("attachment-save", ids[1], copy.path, "--force").status == 0)
        #expect(try Data(contentsOf: copy) == Data(contentsOf: SampleFiles.image("animated.gif")))

        #expect(blobs().count == 2)
        #expect(try notes("detach", ids[0]).status == 0)
        #expect(blobs().count == 1)
        #expect(try notes("attachments", "Trip").output.split(separator: "\n").count == 1)
    }

    @Test func refusalsSayWhatAndWhereAndLeaveNothing() throws {
        try #require(try notes("add", "Groceries").status == 0)
        try #require(try notes("mkcol", "Work").status == 0)
        // Any file may be attached, but one that starts as an image must be a whole one.
        let cut = folder.appending("list.png")
        try Data(try Data(contentsOf: SampleFiles.image("plain.png")).prefix(40)).write(to: cut)
        expectFailure(
            try notes("attach", "Groceries", SampleFiles.image("plain.png").path, cut.path), status: 65,
            containing: "cannot attach '\(cut.path)' to note 'Groceries': truncated PNG image")
        expectFailure(
            try notes("attach", "Groceries", folder.appending("none.png").path), status: 65, containing: "none.png")
        expectFailure(try notes("attach", "Work", SampleFiles.image("plain.png").path), status: 65, containing: "Work")
        expectFailure(
            try notes("attach", "Nobody", SampleFiles.image("plain.png").path), status: 64, containing: "Nobody")
        expectFailure(try notes("detach", "0000"), status: 64, containing: "0000")
        #expect(blobs().isEmpty)
        #expect(try notes("attachments", "Groceries").output.isEmpty)
    }

    @Test func checkReportsMissingAndDamagedBlobs() throws {
        try #require(try notes("add", "n").status == 0)
        let id = try notes("attach", "n", SampleFiles.image("plain.png").path).line
        #expect(try notes("check").status == 0)
        let blob = store.appendingPathComponent("blobs").appendingPathComponent(try #require(blobs().first))

        var bytes = try Data(contentsOf: blob)
        bytes[10] ^= 0x01
        try bytes.write(to: blob)
        let damaged = try notes("check")
        #expect(damaged.status == 1)
        #expect(damaged.output.contains("damaged blob"))
        expectFailure(
            try notes("attachment-save", id, folder.appending("out.png").path), status: 1, containing: "damaged")
        #expect(!FileManager.default.fileExists(atPath: folder.appending("out.png").path))

        try FileManager.default.removeItem(at: blob)
        let missing = try notes("check")
        #expect(missing.status == 1)
        #expect(missing.output.contains("missing blob"))
    }
}

/// Files of any kind through the command line: attached, listed, shown, saved under their
/// own name, and opened (only with a display).
@Suite struct FileAttachmentCommandTests {
    let folder = TemporaryFolder("notes-cli-files")
    var store: URL { folder.appending("store") }

    func notes(_ arguments: String..., environment: [String: String] = [:]) throws -> NotesResult {
        try NotesCommand.run(arguments, store: store, environment: environment)
    }

    func file(_ name: String, _ text: String) throws -> URL {
        let url = folder.appending(name)
        try Data(text.utf8).write(to: url)
        return url
    }

    @Test func attachListShowSaveAndOpen() throws {
        try #require(try notes("add", "Trip").status == 0)
        let pdf = try file("plan.pdf", "%PDF-1.4\nthe plan\n")
        let svg = try file("map.svg", #"<svg xmlns="http://www.w3.org/2000/svg" width="30" height="20"/>"#)
        let attached = try notes("attach", "Trip", pdf.path, svg.path, "--caption", "for the trip")
        #expect(attached.status == 0, "\(attached)")
        let ids = attached.output.split(separator: "\n").map(String.init)
        #expect(ids.count == 2)

        let lines = try notes("attachments", "Trip").output.split(separator: "\n")
        #expect(lines.count == 2)
        #expect(
            lines[0].contains("application/pdf") && lines[0].contains("plan.pdf") && lines[0].contains("for the trip"))
        #expect(lines[1].contains("image/svg+xml") && lines[1].contains("map.svg") && lines[1].contains("30×20"))
        let list = try #require(
            try JSONSerialization.jsonObject(with: Data(notes("attachments", "Trip", "--json").output.utf8))
                as? [[String: Any]])
        #expect(
            Set(list[0].keys) == [
                "id", "note", "kind", "mediaType", "fileName", "bytes", "caption", "sha256", "created",
            ])
        #expect(list[0]["kind"] as? String == "file" && list[0]["mediaType"] as? String == "application/pdf")
        #expect(list[1]["width"] as? Int == 30 && list[1]["height"] as? Int == 20)
        #expect(try notes("show", "Trip").output.contains("plan.pdf"))

        let explicit = folder.appending("copy.pdf")
        #expect(try notes("attachment-save", String(ids[0].prefix(8)), explicit.path).status == 0)
        #expect(try Data(contentsOf: explicit) == Data(contentsOf: pdf))

        let noDisplay = try notes("open", ids[0], environment: ["DISPLAY": "", "WAYLAND_DISPLAY": ""])
        #expect(noDisplay.status == 1 && noDisplay.output.isEmpty)
        #expect(noDisplay.error.split(separator: "\n").count == 1)
        #expect(noDisplay.error.contains("no display"), "\(noDisplay.error)")

        // With a display, the copy goes to whatever xdg-open is first on the PATH: here one
        // that records what it was given.
        let bin = folder.appending("bin")
        try FileManager.default.createDirectory(at: bin, withIntermediateDirectories: true)
        let record = folder.appending("opened")
        let opener = bin.appendingPathComponent("xdg-open")
        try Data("#!/bin/sh\nprintf '%s' \"$1\" > '\(record.path)'\n".utf8).write(to: opener)
        try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: opener.path)
        let opened = try notes("open", ids[1], environment: ["DISPLAY": ":0", "PATH": bin.path + ":/usr/bin:/bin"])
        #expect(opened.status == 0, "\(opened)")
        let path = try String(contentsOf: record, encoding: .utf8)
        #expect(path.hasSuffix("/map.svg") && path.hasPrefix(store.path))
        #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == Data(contentsOf: svg))

        // Copies are removed a day after they were made, by a later `notes open`.
        let copies = store.appendingPathComponent("open")
        let old = copies.appendingPathComponent(ids[0].lowercased())
        try FileManager.default.createDirectory(at: old, withIntermediateDirectories: true)
        try FileManager.default.setAttributes(
            [.modificationDate: Date(timeIntervalSinceNow: -25 * 60 * 60)], ofItemAtPath: old.path)
        let recent = copies.appendingPathComponent("00000000-0000-4000-8000-000000000001")
        try FileManager.default.createDirectory(at: recent, withIntermediateDirectories: true)
        #expect(
            try notes("open", ids[1], environment: ["DISPLAY": ":0", "PATH": bin.path + ":/usr/bin:/bin"]).status == 0)
        #expect(!FileManager.default.fileExists(atPath: old.path))
        #expect(FileManager.default.fileExists(atPath: recent.path))
        #expect(FileManager.default.fileExists(atPath: path))
    }

    @Test func aFileOverTheLimitIsRefusedOnOneLine() throws {
        try #require(try notes("add", "Trip").status == 0)
        let big = try file("big.txt", String(repeating: "x", count: 5000))
        let refused = try notes("attach", "Trip", big.path, "--limit", "4K")
        #expect(refused.status == 65 && refused.output.isEmpty)
        #expect(
            refused.error
                == "notes: cannot attach '\(big.path)' to note 'Trip': "
                + "it has 5000 bytes, more than the limit of 4 KiB\n"
        )
        #expect(try notes("attach", "Trip", big.path, "--limit", "5000").status == 0)
        let bad = try notes("attach", "Trip", big.path, "--limit", "lots")
        #expect(bad.status == 64 && bad.error.contains("is not a size"))
    }
}
