import Foundation
import NoteTestSupport
import Testing

@Suite struct ObservationTests {
    /// The listings a `ls --json --watch` printed so far, one JSON array a line.
    private func listings(_ watcher: BackgroundNotes) throws -> [[[String: Any]]] {
        try watcher.output.split(separator: "\n").map { try JSONChecks.array(String($0)) }
    }

    @Test func watchShowsANoteAddedByAnotherProcess() throws {
        let fixture = CommandLineFixture()
        try fixture.add("Existing")
        let watcher = try BackgroundNotes(["ls", "--json", "--watch"], store: fixture.store)
        let first = eventually(within: 10) { watcher.output.contains("\n") }
        try #require(first, "no first listing: \(watcher.output)")
        #expect(try listings(watcher).map(JSONChecks.names) == [["Existing"]])
        let id = try fixture.add("Watched note")
        let seen = eventually(within: 10) { watcher.output.contains("Watched note") }
        #expect(seen, "the new note never showed: \(watcher.output)")
        #expect(watcher.stop(SIGTERM) == 0)
        let last = try #require(try listings(watcher).last)
        #expect(JSONChecks.names(last) == ["Existing", "Watched note"])
        #expect(last.compactMap { $0["id"] as? String }.contains(id))
    }

    @Test func watchFollowsRenamesAndTrashing() throws {
        let fixture = CommandLineFixture()
        let id = try fixture.add("Before")
        try fixture.add("Other")
        let watcher = try BackgroundNotes(["ls", "--json", "--watch"], store: fixture.store)
        try #require(eventually(within: 10) { watcher.output.contains("\n") }, "no first listing")
        try fixture.succeed(["edit", id, "--name", "After"])
        let renamed = eventually(within: 10) {
            (try? listings(watcher).last.map(JSONChecks.names)) == ["After", "Other"]
        }
        #expect(renamed, "the rename never showed: \(watcher.output)")
        try fixture.succeed(["rm", "Other"])
        let trashed = eventually(within: 10) {
            (try? listings(watcher).last.map(JSONChecks.names)) == ["After"]
        }
        #expect(trashed, "the trashing never showed: \(watcher.output)")
        #expect(watcher.stop(SIGTERM) == 0)
    }

    @Test func watchStopsCleanlyOnInterrupt() throws {
        let fixture = CommandLineFixture()
        try fixture.add("Existing")
        let watcher = try BackgroundNotes(["ls", "--watch"], store: fixture.store)
        try #require(eventually(within: 10) { watcher.output.contains("Existing") }, "no first listing")
        try fixture.add("Seen")
        let seen = eventually(within: 10) { watcher.output.contains("Seen") }
        #expect(seen, "the note never showed: \(watcher.output)")
        #expect(watcher.stop(SIGINT) == 0)
    }
}
