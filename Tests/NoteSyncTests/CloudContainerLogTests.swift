import Foundation
import NoteSync
import NoteTestSupport
import Testing

#if canImport(Glibc)
    import Glibc
#endif

@Suite struct CloudContainerLogTests {
    @Test func writtenLogsAreListedInOrderAndReadBack() throws {
        let fixture = try ContainerFixture()
        let container = fixture.container
        let device = UUID()
        #expect(try container.logSequences(of: device).sequences.isEmpty)
        for sequence: Int64 in [2, 1, 10, 999_999_999_999] {
            try container.writeLog(device: device, sequence: sequence, data: Data("log \(sequence)\n".utf8))
        }
        let listing = try container.logSequences(of: device)
        #expect(listing.sequences == [1, 2, 10, 999_999_999_999])
        #expect(listing.skipped.isEmpty)
        #expect(try container.readLog(device: device, sequence: 10) == Data("log 10\n".utf8))
        #expect(FileManager.default.fileExists(atPath: fixture.url("logs/\(device.lowercased)/000000000010.log").path))
        #expect(try container.logDevices().devices == [device])
        #expect(!fixture.allPaths().contains { $0.contains(".tmp-") })
    }

    /// A file-sync engine's conflict copies of the sentinel, and anything else in the container
    /// folder beside its five entries, are reported and never read.
    @Test func strayEntriesOfTheContainerFolderAreReported() throws {
        let fixture = try ContainerFixture()
        try fixture.container.writeLog(device: UUID(), sequence: 1, data: Data("log\n".utf8))
        try fixture.makeFolder("baselines")
        try fixture.write("{}", at: "container.sync-conflict-20261123-110000-SY4CGWC.json")
        try fixture.write("{}", at: "container (conflicted copy 2026-11-23).json")
        try fixture.write("hidden", at: ".stignore")
        try fixture.makeFolder("old logs")
        try fixture.link("notes.txt", to: fixture.outside("secret.txt"))
        #expect(
            try fixture.container.strayEntries().sorted { $0.path < $1.path } == [
                SkippedFile(path: "container (conflicted copy 2026-11-23).json", reason: .badlyNamed),
                SkippedFile(path: "container.sync-conflict-20261123-110000-SY4CGWC.json", reason: .badlyNamed),
                SkippedFile(path: "notes.txt", reason: .badlyNamed),
                SkippedFile(path: "old logs", reason: .badlyNamed),
            ])
    }

    @Test func logNamesMustBeExactlyTwelveDigits() throws {
        let fixture = try ContainerFixture()
        let device = UUID()
        let folder = "logs/\(device.lowercased)"
        for name in [
            "000000000001.log", "000000000002.log", "000000000010.log", "00000000003.log", "0000000000004.log",
            "000000000000.log", "x.log", "-00000000001.log", "+00000000001.log", "000000000007.LOG",
            "000000000008.log.bak", "٠٠٠٠٠٠٠٠٠٠٠٩.log",
        ] {
            try fixture.write("bytes", at: "\(folder)/\(name)")
        }
        try fixture.write("partial", at: "\(folder)/.tmp-x")
        try fixture.makeFolder("\(folder)/000000000005.log")
        try Data("secret".utf8).write(to: fixture.outside("secret.txt"))
        try fixture.link("\(folder)/000000000006.log", to: fixture.outside("secret.txt"))
        #expect(mkfifo(fixture.url("\(folder)/000000000011.log").path, 0o644) == 0)

        let (sequences, skipped) = try fixture.container.logSequences(of: device)
        #expect(sequences == [1, 2, 10])
        let expected: [SkippedFile] = [
            SkippedFile(path: "\(folder)/+00000000001.log", reason: .badlyNamed),
            SkippedFile(path: "\(folder)/-00000000001.log", reason: .badlyNamed),
            SkippedFile(path: "\(folder)/00000000003.log", reason: .badlyNamed),
            SkippedFile(path: "\(folder)/000000000000.log", reason: .badlyNamed),
            SkippedFile(path: "\(folder)/0000000000004.log", reason: .badlyNamed),
            SkippedFile(path: "\(folder)/000000000005.log", reason: .notAFile),
            SkippedFile(path: "\(folder)/000000000006.log", reason: .symbolicLink),
            SkippedFile(path: "\(folder)/000000000007.LOG", reason: .badlyNamed),
            SkippedFile(path: "\(folder)/000000000008.log.bak", reason: .badlyNamed),
            SkippedFile(path: "\(folder)/000000000011.log", reason: .notAFile),
            SkippedFile(path: "\(folder)/x.log", reason: .badlyNamed),
            SkippedFile(path: "\(folder)/٠٠٠٠٠٠٠٠٠٠٠٩.log", reason: .badlyNamed),
        ]
        #expect(skipped.sorted { $0.path < $1.path } == expected.sorted { $0.path < $1.path })

        // Neither the link nor the FIFO is ever read (the FIFO would block).
        #expect(throws: SyncError.self) { try fixture.container.readLog(device: device, sequence: 6) }
        #expect(throws: SyncError.self) { try fixture.container.readLog(device: device, sequence: 11) }
        do {
            _ = try fixture.container.readLog(device: device, sequence: 6)
        } catch {
            #expect(error.description.contains("symbolic link"))
        }
    }

    @Test func logDevicesSkipsLinksFilesAndBadNames() throws {
        let fixture = try ContainerFixture()
        let real = UUID()
        try fixture.container.writeLog(device: real, sequence: 1, data: Data("one".utf8))
        let linked = UUID()
        try FileManager.default.createDirectory(at: fixture.outside("elsewhere"), withIntermediateDirectories: true)
        try Data("outside".utf8).write(to: fixture.outside("elsewhere/000000000001.log"))
        try fixture.link("logs/\(linked.lowercased)", to: fixture.outside("elsewhere"))
        let file = UUID()
        try fixture.write("x", at: "logs/\(file.lowercased)")
        let upper = UUID()
        try fixture.makeFolder("logs/\(upper.uuidString)")
        try fixture.makeFolder("logs/old-logs")
        try fixture.makeFolder("logs/.tmp-folder")

        let (devices, skipped) = try fixture.container.logDevices()
        #expect(devices == [real])
        let expected: [SkippedFile] = [
            SkippedFile(path: "logs/\(linked.lowercased)", reason: .symbolicLink),
            SkippedFile(path: "logs/\(file.lowercased)", reason: .notAFolder),
            SkippedFile(path: "logs/\(upper.uuidString)", reason: .badlyNamed),
            SkippedFile(path: "logs/old-logs", reason: .badlyNamed),
        ]
        #expect(skipped.sorted { $0.path < $1.path } == expected.sorted { $0.path < $1.path })

        // The linked device folder is never entered, whoever asks.
        #expect(throws: SyncError.self) { try fixture.container.logSequences(of: linked) }
        #expect(throws: SyncError.self) { try fixture.container.readLog(device: linked, sequence: 1) }
        #expect(fixture.container.logPresence(device: linked, sequence: 1).unreadableReason != nil)
    }

    @Test func aPublishedLogIsNeverReplaced() throws {
        let fixture = try ContainerFixture()
        let device = UUID()
        try fixture.container.writeLog(device: device, sequence: 1, data: Data("first".utf8))
        let path = fixture.url("logs/\(device.lowercased)/000000000001.log").path
        #expect(throws: SyncError.exists(path: path)) {
            try fixture.container.writeLog(device: device, sequence: 1, data: Data("second".utf8))
        }
        #expect(try fixture.container.readLog(device: device, sequence: 1) == Data("first".utf8))
        #expect(!fixture.allPaths().contains { $0.contains(".tmp-") })
    }

    @Test func writeLogRefusesSequencesOutsideTheNames() throws {
        let fixture = try ContainerFixture()
        for sequence: Int64 in [0, -1, 1_000_000_000_000] {
            #expect(throws: SyncError.self) {
                try fixture.container.writeLog(device: UUID(), sequence: sequence, data: Data())
            }
        }
        #expect(try fixture.container.logDevices().devices.isEmpty)
    }

    @Test func readLogRefusesALogOverTheLimitWithoutReadingIt() throws {
        let fixture = try ContainerFixture()
        let device = UUID()
        try fixture.container.writeLog(device: device, sequence: 1, data: Data(repeating: 7, count: 1000))
        #expect(try fixture.container.readLog(device: device, sequence: 1, limit: 1000).count == 1000)
        let path = fixture.url("logs/\(device.lowercased)/000000000001.log").path
        #expect(throws: SyncError.tooLarge(path: path, limit: 999)) {
            try fixture.container.readLog(device: device, sequence: 1, limit: 999)
        }
        #expect(throws: SyncError.missing(path: fixture.url("logs/\(device.lowercased)/000000000002.log").path)) {
            try fixture.container.readLog(device: device, sequence: 2)
        }
    }

    @Test func logPresenceTellsSizeAbsenceAndFailure() throws {
        let fixture = try ContainerFixture()
        let device = UUID()
        #expect(fixture.container.logPresence(device: device, sequence: 1) == .absent)
        try fixture.container.writeLog(device: device, sequence: 1, data: Data("12345".utf8))
        #expect(fixture.container.logPresence(device: device, sequence: 1) == .present(5))
        #expect(fixture.container.logPresence(device: device, sequence: 2) == .absent)
        let relative = "logs/\(device.lowercased)/000000000001.log"
        fixture.faulty.fail([.inspect], at: fixture.cloudPath(relative), with: EIO)
        #expect(
            fixture.container.logPresence(device: device, sequence: 1).unreadableReason?.contains("input/output error")
                == true)
    }

    @Test func listingErrorsAreThrownNotTakenForEmptyFolders() throws {
        let fixture = try ContainerFixture()
        let device = UUID()
        try fixture.container.writeLog(device: device, sequence: 1, data: Data("x".utf8))
        fixture.faulty.fail([.list], at: fixture.cloudPath("logs/\(device.lowercased)"), with: EIO)
        fixture.faulty.fail([.list], at: fixture.cloudPath("logs"), with: EACCES)
        #expect(throws: SyncError.self) { try fixture.container.logSequences(of: device) }
        #expect(throws: SyncError.self) { try fixture.container.logDevices() }
        fixture.faulty.fail([.read], at: fixture.cloudPath("logs/\(device.lowercased)/000000000001.log"), with: EIO)
        #expect(throws: SyncError.self) { try fixture.container.readLog(device: device, sequence: 1) }
    }
}
