import Foundation
import NoteStore
@testable import NoteSync
import NoteTestSupport
import Testing

/// Temporary files that killed writers left in the container are removed by the device that
/// wrote them, once they are stale; other devices' temporary files are never touched.
@Suite struct TemporaryFileTests {
    @Test func temporaryNamesCarryTheWriter() {
        let device = UUID()
        let name = LocalCloudFileSystem.temporaryName(writer: device)
        #expect(name.hasPrefix(".tmp-\(device.storeString)-"))
        let random = name.dropFirst(".tmp-\(device.storeString)-".count)
        #expect((1...16).contains(random.count) && random.allSatisfy(\.isHexDigit))
        #expect(LocalCloudFileSystem.temporaryName(writer: nil).hasPrefix(".tmp-"))
    }

    @Test func aFullSyncRemovesThisDevicesStaleTemporaryFilesOnly() throws {
        let stack = try SyncStack(devices: 2)
        let (this, other) = (stack.stores[0].deviceID.storeString, stack.stores[1].deviceID.storeString)
        let container = stack.cloud.appendingPathComponent(SyncEngine.defaultContainerName)
        let hourAndMore = Date().addingTimeInterval(-CloudContainer.staleTemporaryAge - 60)
        func place(_ relative: String, modified: Date) throws -> URL {
            let url = container.appendingPathComponent(relative)
            try FileManager.default.createDirectory(
                at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
            try Data("partial".utf8).write(to: url)
            try FileManager.default.setAttributes([.modificationDate: modified], ofItemAtPath: url.path)
            return url
        }
        let removed = [
            try place("blobs/.tmp-\(this)-a1", modified: hourAndMore),
            try place("devices/.tmp-\(this)-b2", modified: hourAndMore),
            try place(".tmp-\(this)-c3", modified: hourAndMore),
            try place("logs/\(this)/.tmp-d4", modified: hourAndMore),
        ]
        let kept = [
            try place("blobs/.tmp-\(other)-e5", modified: hourAndMore),
            try place("blobs/.tmp-\(this)-f6", modified: Date()),
            try place("logs/\(other)/.tmp-a7", modified: hourAndMore),
            try place("blobs/.tmp-b8", modified: hourAndMore),
        ]
        // Enabling synced once already: the clean-up is due again.
        try stack.stores[0].recordSync { try $0.update { $0.temporaryCleanup = nil } }
        try stack.engines[0].syncNow()
        for url in removed { #expect(!FileManager.default.fileExists(atPath: url.path), "\(url.path)") }
        for url in kept { #expect(FileManager.default.fileExists(atPath: url.path), "\(url.path)") }
        // At most once an hour: a file that turns stale now waits for the next round.
        let later = try place("blobs/.tmp-\(this)-c9", modified: hourAndMore)
        try stack.engines[0].syncNow()
        #expect(FileManager.default.fileExists(atPath: later.path))
        try stack.syncUntilQuiet()
        let dumps = try stack.dumps()
        #expect(dumps[0] == dumps[1])
    }
}

/// `sync status` lists as waiting only the logs that still wait.
@Suite struct WaitingReportTests {
    @Test func aLogImportedByALookUpOfTheNextLogsNoLongerWaits() throws {
        let stack = try SyncStack(devices: 2)
        for index in 1...2 {
            _ = try stack.stores[1].addNote(named: "note \(index)", body: "", in: nil)
            try stack.engines[1].syncNow()
        }
        let logs = stack.cloud.appendingPathComponent(SyncEngine.defaultContainerName)
        let first = logs.appendingPathComponent(CloudContainer.logPath(device: stack.stores[1].deviceID, sequence: 1))
        let aside = stack.folder.appending("first.log")
        try FileManager.default.moveItem(at: first, to: aside)
        try stack.engines[0].syncNow()
        let waiting = try stack.engines[0].status().waiting
        #expect(waiting.map(\.path) == [CloudContainer.logPath(device: stack.stores[1].deviceID, sequence: 2)])
        try FileManager.default.moveItem(at: aside, to: first)
        // What a watcher does when a log arrives: it looks up the next logs only.
        let report = try stack.engines[0].syncNow(importing: .nextLogs)
        #expect(report.importedLogs == 2)
        #expect(try stack.engines[0].status().waiting.isEmpty)
    }
}
