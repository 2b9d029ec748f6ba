import Foundation
import NoteStore
@testable import NoteSync
import NoteTestSupport
import Testing

/// A blob that a baseline covers, damaged or removed in the container: a new device still
/// joins with every note, its attachment waiting for its bytes, and says so in its
/// registration; a device that holds the bytes puts them back at its next sync, and the new
/// device fetches them at its own.
@Suite struct AwaitedBlobTests {
    enum Fault: CaseIterable {
        case damaged, removed
    }

    /// Two devices with an image covered by a baseline of device 0 (its logs compacted away),
    /// then the blob hit by `fault`; returns the stack, the attachment and the blob's file.
    static func baselineWithBrokenBlob(_ fault: Fault, passphrase: String? = nil) throws -> (
        SyncStack, NoteStore.Attachment, URL
    ) {
        let stack = try SyncStack(devices: 2, passphrase: passphrase)
        let note = try stack.stores[0].addNote(named: "photo", body: "a picture", in: nil)
        try stack.stores[0].addNote(named: "plain", body: "no picture", in: nil)
        let attachment = try stack.stores[0].attachImages([SampleFiles.image("plain.png")], to: note.id)[0]
        try stack.syncUntilQuiet()
        // Device 1 says what it applied as it compacts, so that device 0 removes its logs.
        _ = try stack.engines[1].compact()
        let compacted = try stack.engines[0].compact()
        #expect(compacted.removedLogs > 0, "the baseline covers the log that lists the blob")
        let container = try stack.container()
        let blob = container.url.appendingPathComponent(container.blobPath(attachment.sha256))
        switch fault {
        case .damaged:
            var data = try Data(contentsOf: blob)
            data[data.count / 2] ^= 0x10
            try data.write(to: blob)
        case .removed:
            try FileManager.default.removeItem(at: blob)
        }
        return (stack, attachment, blob)
    }

    func registration(of store: Store, in stack: SyncStack) throws -> DeviceRegistration? {
        guard case let .present(registration) = try stack.container().registration(of: store.deviceID) else {
            return nil
        }
        return registration
    }

    @Test(arguments: Fault.allCases, [nil, "a passphrase"])
    func aNewDeviceJoinsWhileABlobIsBrokenAndGetsItsBytesOnceAHolderPutsThemBack(fault: Fault, passphrase: String?)
        throws
    {
        let (stack, attachment, _) = try Self.baselineWithBrokenBlob(fault, passphrase: passphrase)
        let joined = try stack.join()
        #expect(joined.baseline != nil, "\(joined)")
        let newcomer = stack.stores[2]
        #expect(try newcomer.fetch(ItemRequest()).map { $0.name }.sorted() == ["photo", "plain"])
        let waiting = try #require(try newcomer.attachment(attachment.id))
        #expect(!newcomer.hasBytes(of: waiting))
        #expect(try newcomer.blobsWithoutBytes() == [attachment.sha256])
        // Waiting is not damage.
        #expect(try newcomer.check() == [])
        #expect(try newcomer.inspect().waiting.count == 1)
        #expect(try registration(of: newcomer, in: stack)?.waiting?.blobs == [attachment.sha256])

        // Device 1, which holds the bytes but wrote neither the blob nor the baseline, puts them
        // back at its next sync, without waiting for its hourly check.
        try stack.engines[1].syncNow()
        #expect(try stack.container().readBlob(attachment.sha256) == Data(contentsOf: SampleFiles.image("plain.png")))
        try stack.engines[2].syncNow()
        #expect(newcomer.hasBytes(of: waiting))
        #expect(try newcomer.data(of: waiting) == Data(contentsOf: SampleFiles.image("plain.png")))
        #expect(try newcomer.blobsWithoutBytes().isEmpty)
        #expect(try registration(of: newcomer, in: stack)?.waiting == nil)
        #expect(try newcomer.check() == [])
        #expect(Set(try stack.dumps()).count == 1)
    }

    /// Without anyone waiting, the hourly check of a holder puts back a blob that its store's
    /// attachments use and that a baseline alone lists.
    @Test func theHourlyCheckPutsBackABlobThatOnlyABaselineLists() throws {
        let (stack, attachment, blob) = try Self.baselineWithBrokenBlob(.removed)
        try stack.stores[1].recordSync { ledger in try ledger.update { $0.ownLogsChecked = nil } }
        try stack.engines[1].syncNow()
        #expect(try Data(contentsOf: blob) == Data(contentsOf: SampleFiles.image("plain.png")))
        let joined = try stack.join()
        #expect(joined.baseline != nil && joined.waiting.isEmpty, "\(joined)")
        #expect(try stack.stores[2].blobsWithoutBytes().isEmpty)
        #expect(try stack.stores[2].attachment(attachment.id) != nil)
    }

    /// A registration's `waiting` reads back as written; one not understood is ignored, and
    /// the registration is still read.
    @Test func waitingInARegistrationReadsBackAndIsIgnoredWhenNotUnderstood() throws {
        var registration = DeviceRegistration(container: UUID(), device: UUID(), name: "laptop", modelVersion: 8)
        let other = UUID()
        registration.waiting = AwaitedFiles(logs: [other: 5], blobs: [String(repeating: "ab", count: 32)])
        let data = CloudJSON.encode(registration)
        let text = String(decoding: data, as: UTF8.self)
        #expect(
            text.contains(
                #""waiting":{"blobs":["\#(String(repeating: "ab", count: 32))"],"logs":{"\#(other.storeString)":5}}"#),
            "\(text)")
        #expect(try CloudJSON.decode(DeviceRegistration.self, from: data).get() == registration)
        let odd = text.replacingOccurrences(of: #""logs":{"\#(other.storeString)":5}"#, with: #""logs":[5]"#)
        let read = try CloudJSON.decode(DeviceRegistration.self, from: Data(odd.utf8)).get()
        #expect(read.waiting == nil && read.name == "laptop")
    }
}
