import Foundation
import NoteStore
@testable import NoteSync
import NoteSyncTestSupport
import NoteTestSupport
import Testing

/// Bad files in the container are skipped and reported, by path and reason, and never stop
/// the logs of other devices (docs/sync-format.md, "Reading a log").
@Suite struct BadFileTests {
    /// A kind of bad file, put into the container behind the devices' backs.
    enum BadFile: String, CaseIterable, CustomTestStringConvertible {
        case truncatedLog, corruptLog, oversizedLog, unknownFormat, badlyNamedLog, linkedLog
        case fileInLogs, garbageRegistration

        var testDescription: String { rawValue }
    }

    /// Where a bad file went, and what the reader must say about it.
    struct Placed {
        let path: String
        let reason: SkippedFile.Reason
        /// Whether an import lists it (a registration is listed by `status` only).
        var inImportReport = true
        /// A bad log is the next log of its device: that device's later logs wait behind it.
        var blocksItsDevice = false
    }

    /// A log of one note, as another device would write it.
    static func log(
        container: UUID, device: UUID, sequence: Int64 = 1, modelVersion: Int = Store.currentModelVersion,
        dependencies: [UUID: Int64] = [:], note name: String
    ) -> Data {
        HandMadeLog.encode(
            [HandMadeLog.noteInsert(named: name, clock: HybridClock.tick(after: 0))], container: container,
            device: device,
            sequence: sequence, modelVersion: modelVersion, dependencies: dependencies)
    }

    /// Puts a bad file of `kind` into the container of `stack`.
    static func place(_ kind: BadFile, in stack: SyncStack, identity: UUID) throws -> Placed {
        let container = stack.cloud.appendingPathComponent(SyncEngine.defaultContainerName)
        let stranger = UUID()
        let strangerLog = "logs/\(stranger.storeString)/000000000001.log"
        let good = log(container: identity, device: stranger, note: "from a bad file")
        func write(_ data: Data, _ relative: String) throws {
            let url = container.appendingPathComponent(relative)
            try FileManager.default.createDirectory(
                at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
            try data.write(to: url)
        }
        switch kind {
        case .truncatedLog:
            try write(good.prefix(good.count - 30), strangerLog)
            return Placed(path: strangerLog, reason: .unreadable("truncated"), blocksItsDevice: true)
        case .corruptLog:
            var data = good
            let index = data.firstRange(of: Data("from a bad file".utf8))!.lowerBound
            data[index] ^= 0x01
            try write(data, strangerLog)
            return Placed(
                path: strangerLog, reason: .unreadable(LogProblem.checksumMismatch.description), blocksItsDevice: true)
        case .oversizedLog:
            try write(Data(), strangerLog)
            let handle = try FileHandle(forWritingTo: container.appendingPathComponent(strangerLog))
            try handle.truncate(atOffset: UInt64(LogCodec.maximumSize) + 1)
            try handle.close()
            return Placed(path: strangerLog, reason: .tooLarge, blocksItsDevice: true)
        case .unknownFormat:
            var data = Data("SOME-OTHER-LOG 1".utf8)
            data.append(good.drop { $0 != UInt8(ascii: "\n") })
            try write(data, strangerLog)
            return Placed(
                path: strangerLog, reason: .unreadable("unknown format: the first line is not '\(LogCodec.magic)'"),
                blocksItsDevice: true)
        case .badlyNamedLog:
            // In the folder of the device whose notes must still arrive.
            let path = "logs/\(stack.stores[1].deviceID.storeString)/notes.txt"
            try write(good, path)
            return Placed(path: path, reason: .badlyNamed)
        case .linkedLog:
            let outside = stack.folder.appending("elsewhere.log")
            try good.write(to: outside)
            try FileManager.default.createDirectory(
                at: container.appendingPathComponent(strangerLog).deletingLastPathComponent(),
                withIntermediateDirectories: true)
            try FileManager.default.createSymbolicLink(
                at: container.appendingPathComponent(strangerLog), withDestinationURL: outside)
            return Placed(path: strangerLog, reason: .symbolicLink)
        case .fileInLogs:
            let path = "logs/\(stranger.storeString)"
            try write(good, path)
            return Placed(path: path, reason: .notAFolder)
        case .garbageRegistration:
            let path = "devices/\(stranger.storeString).json"
            try write(Data("{\"format\": garbage".utf8), path)
            return Placed(path: path, reason: .unreadable(""), inImportReport: false)
        }
    }

    /// Whether `file` is the placed file, skipped for the expected reason (for an unreadable
    /// registration, for any reason of that kind).
    static func matches(_ file: SkippedFile, _ placed: Placed) -> Bool {
        guard file.path == placed.path else { return false }
        if case .unreadable("") = placed.reason, case .unreadable = file.reason { return true }
        return file.reason == placed.reason
    }

    @Test(arguments: BadFile.allCases)
    func aBadFileIsSkippedAndReportedAndBlocksNoOtherDevice(_ kind: BadFile) throws {
        let stack = try SyncStack(devices: 2)
        let identity = try CloudContainer.create(in: stack.cloud).identity
        let placed = try Self.place(kind, in: stack, identity: identity)
        _ = try stack.stores[1].addNote(named: "good", body: "", in: nil)
        try stack.engines[1].syncNow()

        let report = try stack.engines[0].syncNow()
        #expect(report.importedLogs == 1)
        #expect(try stack.stores[0].fetch(ItemRequest()).map(\.name) == ["good"])
        if placed.inImportReport {
            #expect(report.skipped.contains { Self.matches($0, placed) }, "\(report.skipped)")
        }
        let status = try stack.engines[0].status()
        #expect(status.state == .on)
        #expect(status.skipped.contains { Self.matches($0, placed) }, "\(status.skipped)")
        if placed.blocksItsDevice {
            #expect(report.waiting.map(\.path) == [placed.path])
        } else {
            #expect(report.waiting.isEmpty)
        }

        // Still there, still reported, and the good device goes on syncing.
        _ = try stack.stores[1].addNote(named: "later", body: "", in: nil)
        try stack.engines[1].syncNow()
        let again = try stack.engines[0].syncNow()
        #expect(again.importedLogs == 1)
        if placed.inImportReport {
            #expect(again.skipped.contains { Self.matches($0, placed) })
        }
        #expect(try stack.stores[0].fetch(ItemRequest()).map(\.name) == ["good", "later"])
        #expect(try stack.stores[0].check() == [])
    }

    /// A log of another container under the same name (one whose sentinel was replaced) can
    /// never belong to this one: it is reported and passed over, and its device's next log
    /// applies.
    @Test func aLogOfAnotherContainerIsReportedAndPassedOver() throws {
        let stack = try SyncStack(devices: 2)
        let identity = try CloudContainer.create(in: stack.cloud).identity
        let container = try CloudContainer(cloud: stack.cloud, identity: identity)
        let stranger = UUID()
        try container.writeLog(
            device: stranger, sequence: 1, data: Self.log(container: UUID(), device: stranger, note: "foreign"))
        try container.writeLog(
            device: stranger, sequence: 2,
            data: Self.log(container: identity, device: stranger, sequence: 2, note: "after it"))
        _ = try stack.stores[1].addNote(named: "good", body: "", in: nil)
        try stack.engines[1].syncNow()

        let report = try stack.engines[0].syncNow()
        let foreign = SkippedFile(
            path: CloudContainer.logPath(device: stranger, sequence: 1), reason: .foreignContainer)
        #expect(report.skipped == [foreign])
        #expect(try stack.engines[0].status().skipped == [foreign])
        #expect(report.waiting.isEmpty)
        #expect(report.importedLogs == 2)
        #expect(try stack.stores[0].fetch(ItemRequest()).map(\.name) == ["after it", "good"])
        let device = try #require(try stack.engines[0].status().devices.first { $0.id == stranger })
        #expect(device.applied == 2 && device.available == 2)
        #expect(try stack.engines[0].syncNow().importedLogs == 0)
    }

    @Test func aLogOfANewerModelIsKeptAndWaitsWithWhatFollowsIt() throws {
        let stack = try SyncStack(devices: 2)
        let identity = try CloudContainer.create(in: stack.cloud).identity
        let container = try CloudContainer(cloud: stack.cloud, identity: identity)
        let newer = UUID()
        let follower = UUID()
        try container.writeLog(
            device: newer, sequence: 1,
            data: Self.log(
                container: identity, device: newer, modelVersion: LogCodec.readableModelVersion + 1,
                note: "from a newer build"))
        try container.writeLog(
            device: newer, sequence: 2,
            data: Self.log(container: identity, device: newer, sequence: 2, note: "after it"))
        try container.writeLog(
            device: follower, sequence: 1,
            data: Self.log(container: identity, device: follower, dependencies: [newer: 1], note: "depends on it"))
        _ = try stack.stores[1].addNote(named: "good", body: "", in: nil)
        try stack.engines[1].syncNow()

        let report = try stack.engines[0].syncNow()
        #expect(try stack.stores[0].fetch(ItemRequest()).map(\.name) == ["good"])
        #expect(report.skipped.isEmpty, "a newer log is kept, not skipped")
        let first = CloudContainer.logPath(device: newer, sequence: 1)
        let waiting = try #require(report.waiting.first { $0.path == first })
        #expect(waiting.reason.contains("model version \(LogCodec.readableModelVersion + 1)"), "\(waiting.reason)")
        let dependent = try #require(
            report.waiting.first { $0.path == CloudContainer.logPath(device: follower, sequence: 1) })
        #expect(dependent.reason.contains(newer.storeString))
        #expect(report.waiting.count == 2)

        let status = try stack.engines[0].status()
        #expect(status.waiting.map(\.path).contains(first))
        let device = try #require(status.devices.first { $0.id == newer })
        #expect(device.applied == 0 && device.available == 2)
        #expect(container.logPresence(device: newer, sequence: 1) != .absent, "the log is kept")
        #expect(try stack.engines[0].syncNow().importedLogs == 0)
    }
}
