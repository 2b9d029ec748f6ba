import Foundation
import NoteTestSupport
import Testing

/// A one-line edit of a large note, made and synced by separate `notes` processes, publishes a
/// log the size of the edit, and the other device shows the edited note.
@Suite struct DeltaSyncCommandTests {
    let folder = TemporaryFolder("notes-cli-delta")
    var cloud: URL { folder.appending("cloud") }
    var laptop: URL { folder.appending("laptop") }
    var desktop: URL { folder.appending("desktop") }

    func notes(_ store: URL, _ arguments: String...) throws -> NotesResult {
        let result = try NotesCommand.run(arguments, store: store)
        #expect(result.status == 0, "\(arguments): \(result)")
        return result
    }

    /// The sizes of the logs in the container, newest last (their paths sort by sequence).
    func logSizes() throws -> [String: Int] {
        var sizes: [String: Int] = [:]
        let logs = cloud.appendingPathComponent("NoteCollector/logs")
        for device in try FileManager.default.contentsOfDirectory(atPath: logs.path) {
            for name in try FileManager.default.contentsOfDirectory(atPath: logs.appendingPathComponent(device).path) {
                let path = "\(device)/\(name)"
                sizes[path] =
                    try FileManager.default.attributesOfItem(atPath: logs.appendingPathComponent(path).path)[.size]
                    as? Int
            }
        }
        return sizes
    }

    @Test func aOneLineEditOfALargeNoteSyncsAsASmallLog() throws {
        try FileManager.default.createDirectory(at: cloud, withIntermediateDirectories: true)
        _ = try notes(laptop, "sync", "enable", "--cloud", cloud.path, "--device-name", "laptop")
        _ = try notes(desktop, "sync", "enable", "--cloud", cloud.path, "--device-name", "desktop")
        var lines = (1...20_000).map { "line \($0) of a note of about a megabyte, as it was written" }
        let file = folder.appending("body.txt")
        try Data((lines.joined(separator: "\n") + "\n").utf8).write(to: file)
        _ = try notes(laptop, "add", "Large", "--body-file", file.path)
        _ = try notes(laptop, "sync", "now")
        _ = try notes(desktop, "sync", "now")

        let before = try logSizes()
        lines[9_999] = "line 10000, edited"
        try Data((lines.joined(separator: "\n") + "\n").utf8).write(to: file)
        _ = try notes(laptop, "edit", "Large", "--body-file", file.path)
        _ = try notes(laptop, "sync", "now")
        let added = try logSizes().filter { before[$0.key] == nil }
        #expect(added.count == 1 && added.values.allSatisfy { $0 < 2_000 }, "\(added)")

        let synced = try notes(desktop, "sync", "now")
        #expect(synced.output.contains("imported 1 log"), "\(synced.output)")
        let body = try notes(desktop, "cat", "Large").output
        #expect(body == lines.joined(separator: "\n") + "\n")

        // And back: an edit on the desktop reaches the laptop the same way.
        lines[0] = "line 1, edited on the desktop"
        try Data((lines.joined(separator: "\n") + "\n").utf8).write(to: file)
        _ = try notes(desktop, "edit", "Large", "--body-file", file.path)
        _ = try notes(desktop, "sync", "now")
        _ = try notes(laptop, "sync", "now")
        #expect(try notes(laptop, "cat", "Large").output == lines.joined(separator: "\n") + "\n")
    }
}
