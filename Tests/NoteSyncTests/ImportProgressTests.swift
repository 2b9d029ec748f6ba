import Foundation
import NoteStore
@testable import NoteSync
import NoteTestSupport
import Testing

/// What an import of several logs tells while it runs: to the engine's caller, and to
/// `notes sync status` of other processes through the store folder's `catch-up.json`.
@Suite struct ImportProgressTests {
    @Test func anImportOfSeveralLogsReportsEachStepAndItsCatchUp() throws {
        let stack = try SyncStack(devices: 2)
        for round in 0..<3 {
            for index in 0..<4 { _ = try stack.stores[0].addNote(named: "n\(round)-\(index)", body: "x", in: nil) }
            try stack.engines[0].syncNow()
        }
        var seen: [ImportProgress] = []
        var catchUps: [CatchUp] = []
        let folder = stack.stores[1].folder
        stack.engines[1].importProgress = { progress in
            seen.append(progress)
            if let catchUp = CatchUp.current(in: folder) { catchUps.append(catchUp) }
        }
        let report = try stack.engines[1].syncNow()
        #expect(report.importedLogs == 3)
        let last = try #require(seen.last)
        #expect(last.logsToApply == 3 && last.logsApplied == 3)
        #expect(last.changesApplied == report.importedChanges)
        #expect(last.fraction == 1)
        #expect(
            zip(seen, seen.dropFirst()).allSatisfy {
                $0.logsApplied <= $1.logsApplied && $0.changesApplied <= $1.changesApplied
            })
        #expect(zip(seen, seen.dropFirst()).allSatisfy { $0.fraction <= $1.fraction })
        // While it ran, the store folder said so; once done, it no longer does.
        #expect(!catchUps.isEmpty)
        #expect(catchUps.allSatisfy { $0.process == getpid() && $0.logsToApply == 3 })
        #expect(CatchUp.current(in: folder) == nil)
        #expect(try stack.engines[1].status().catchUp == nil)
    }

    @Test func aCatchUpWhoseProcessIsGoneIsNone() throws {
        let folder = TemporaryFolder("notes-catch-up")
        try FileManager.default.createDirectory(at: folder.url, withIntermediateDirectories: true)
        let gone = Process()
        gone.executableURL = URL(fileURLWithPath: "/bin/true")
        try gone.run()
        gone.waitUntilExit()
        let progress = ImportProgress(
            logsApplied: 1, logsToApply: 4, changesApplied: 10, changesInLog: (0, 0), started: Date())
        CatchUp.record(progress, in: folder.url)
        #expect(CatchUp.current(in: folder.url)?.logsToApply == 4, "this process is alive")
        let file = folder.url.appendingPathComponent(CatchUp.fileName)
        var text = try String(contentsOf: file, encoding: .utf8)
        text = text.replacingOccurrences(of: "\"process\":\(getpid())", with: "\"process\":\(gone.processIdentifier)")
        try text.write(to: file, atomically: true, encoding: .utf8)
        #expect(CatchUp.current(in: folder.url) == nil)
        try "not json".write(to: file, atomically: true, encoding: .utf8)
        #expect(CatchUp.current(in: folder.url) == nil)
    }
}
