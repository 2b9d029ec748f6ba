import Foundation
import NoteStore
@testable import NoteSync
import NoteTestSupport
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// A baseline that cannot be used costs a check once (docs/sync-format.md, "Verification"):
/// its size is compared with its manifest's before its database is read, and once found
/// unusable it is passed over, reported, until one of its files changes.
@Suite struct UnusableBaselineTests {
    /// A baseline of a device that never wrote a log, holding its logs 1 to 5: every sync of
    /// a device that has not applied them looks for a baseline that holds them.
    static func publishFake(
        in stack: SyncStack, database bytes: Data, declaring declared: Int64
    ) throws -> (name: CloudContainer.BaselineName, folder: URL) {
        let container = try stack.container()
        let writer = UUID()
        let name = CloudContainer.BaselineName(device: writer, sequence: 1)
        let local = stack.folder.appending("fake.sqlite")
        try bytes.write(to: local)
        let manifest = BaselineManifest(
            container: container.identity, device: writer, sequence: 1, modelVersion: Store.currentModelVersion,
            vector: [writer: 5], bytes: declared, sha256: String(repeating: "0", count: 64), items: 1)
        try container.publishBaseline(name, database: local, manifest: CloudJSON.encode(manifest))
        let folder = container.url.appendingPathComponent(name.databasePath).deletingLastPathComponent()
        return (name, folder)
    }

    @Test func aManifestDeclaringAHugeSizeIsPassedOverWithoutReadingTheDatabase() throws {
        let stack = try SyncStack(devices: 1)
        let (name, folder) = try Self.publishFake(in: stack, database: Data(count: 4096), declaring: 20 << 30)
        let opens = try FileEvents(path: folder.path, mask: IN_OPEN)
        for _ in 0..<2 {
            let report = try stack.engines[0].syncNow()
            let skipped = report.skipped.filter { $0.path == name.databasePath }
            #expect(
                skipped.map(\.reason.description) == [
                    "unreadable: it has 4096 bytes, not the 21474836480 of its manifest"
                ])
            #expect(try opens.count(of: name.databasePath.split(separator: "/").last.map(String.init) ?? "") == 0)
        }
        #expect(try stack.engines[0].status().skipped.contains { $0.path == name.databasePath })
        #expect(try SyncState(stack.stores[0]).unusableBaselines[name.databasePath] != nil)
    }

    @Test func aBaselineFoundUnusableIsNotCheckedAgainUntilItChanges() throws {
        let stack = try SyncStack(devices: 1)
        let (name, folder) = try Self.publishFake(in: stack, database: Data(count: 4096), declaring: 4096)
        let file = String(name.databasePath.split(separator: "/").last!)
        let opens = try FileEvents(path: folder.path, mask: IN_OPEN)

        var report = try stack.engines[0].syncNow()
        #expect(try opens.count(of: file) > 0, "checked the first time")
        #expect(report.skipped.contains { $0.path == name.databasePath && $0.reason.description.contains("SHA-256") })

        report = try stack.engines[0].syncNow()
        #expect(try opens.count(of: file) == 0, "not checked again")
        #expect(report.skipped.contains { $0.path == name.databasePath && $0.reason.description.contains("SHA-256") })
        #expect(try stack.engines[0].status().skipped.contains { $0.path == name.databasePath })

        // Another file under the same name (as a writer replacing it would leave): checked again.
        let published = folder.appendingPathComponent(file)
        try FileManager.default.removeItem(at: published)
        try Data(repeating: 1, count: 4096).write(to: published)
        _ = try opens.count(of: file)
        report = try stack.engines[0].syncNow()
        #expect(try opens.count(of: file) > 0, "checked again once changed")
        #expect(report.skipped.contains { $0.path == name.databasePath })

        // Gone: forgotten.
        try FileManager.default.removeItem(at: published)
        try FileManager.default.removeItem(
            at: folder.appendingPathComponent(name.manifestPath.split(separator: "/").last.map(String.init)!))
        _ = try stack.engines[0].syncNow()
        #expect(try SyncState(stack.stores[0]).unusableBaselines.isEmpty)
    }
}
