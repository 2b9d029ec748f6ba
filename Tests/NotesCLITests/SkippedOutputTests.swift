import Foundation
import NoteTestSupport
import Testing

/// Junk in the container is reported by count and a few names, not a line for each file; the
/// full list is in `notes sync status --json`.
@Suite struct SkippedOutputTests {
    let folder = TemporaryFolder("notes-cli-skipped")
    var cloud: URL { folder.appending("cloud") }
    var store: URL { folder.appending("store") }

    func notes(_ arguments: String...) throws -> NotesResult {
        try NotesCommand.run(arguments, store: store)
    }

    @Test func manyJunkFilesInLogsPrintABoundedReport() throws {
        try FileManager.default.createDirectory(at: cloud, withIntermediateDirectories: true)
        try #require(try notes("sync", "enable", "--cloud", cloud.path, "--device-name", "laptop").status == 0)
        let logs = cloud.appendingPathComponent("NoteCollector/logs")
        let junk = (0..<300).map { String(format: "junk-%03d.txt", $0) }
        for name in junk { try Data("x".utf8).write(to: logs.appendingPathComponent(name)) }

        let synced = try notes("sync", "now")
        #expect(synced.status == 0, "\(synced)")
        let lines = synced.output.split(separator: "\n")
        #expect(lines.count <= 10, "\(synced.output)")
        #expect(lines.contains("skipped: 300 files (300 badly named)"), "\(synced.output)")
        #expect(lines.filter { $0.hasPrefix("skipped: logs/junk-") }.count == 5)
        #expect(lines.contains("skipped: and 295 more: 'notes sync status --json' lists them all"), "\(synced.output)")

        let status = try notes("sync", "status")
        #expect(status.output.split(separator: "\n").count < 30, "\(status.output)")
        #expect(status.output.contains("  and 295 more: 'notes sync status --json' lists them all"), "\(status.output)")

        let json = try notes("sync", "status", "--json")
        let object = try #require(try JSONSerialization.jsonObject(with: Data(json.output.utf8)) as? [String: Any])
        let skipped = try #require(object["skipped"] as? [[String: Any]])
        #expect(Set(skipped.compactMap { $0["path"] as? String }) == Set(junk.map { "logs/" + $0 }))
    }
}
