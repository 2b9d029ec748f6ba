import Foundation
import NoteSync
import NoteTestSupport
import Testing

#if canImport(Glibc)
    import Glibc
#endif

@Suite struct CloudContainerDeviceTests {
    @Test func registrationRoundTripAndRemoval() throws {
        let fixture = try ContainerFixture()
        let container = fixture.container
        let device = UUID()
        #expect(container.registration(of: device) == .absent)

        let registration = DeviceRegistration(
            container: container.identity, device: device, name: "Kitchen “laptop”",
            registered: Date(timeIntervalSince1970: 1_750_000_000.123_9), modelVersion: 2)
        try container.register(registration)
        #expect(container.registration(of: device) == .present(registration))
        #expect(try container.devices().registrations == [registration])

        var renamed = registration
        renamed.name = "Kitchen"
        try container.register(renamed)
        #expect(container.registration(of: device).value?.name == "Kitchen")

        try container.removeRegistration(of: device)
        #expect(container.registration(of: device) == .absent)
        try container.removeRegistration(of: device)
        #expect(try container.devices().registrations.isEmpty)
        #expect(!fixture.allPaths().contains { $0.contains(".tmp-") })
    }

    /// What a device has applied and when it last synced travel in its registration; a
    /// registration of an earlier build has neither, and one whose `applied` is not understood
    /// still reads, without it.
    @Test func registrationsSayWhatTheirDeviceHasApplied() throws {
        let fixture = try ContainerFixture()
        let container = fixture.container
        var registration = DeviceRegistration(
            container: container.identity, device: UUID(), name: "laptop",
            registered: Date(timeIntervalSince1970: 1_750_000_000),
            modelVersion: 4)
        registration.applied = [UUID(): 12, UUID(): 3]
        registration.synced = Date(timeIntervalSince1970: 1_760_000_000.5)
        registration.clean = [registration.device: 4, UUID(): 12]
        try container.register(registration)
        #expect(container.registration(of: registration.device) == .present(registration))
        let path = container.url.appendingPathComponent(CloudContainer.registrationPath(of: registration.device))
        let text = try String(contentsOf: path, encoding: .utf8)
        #expect(text.contains(#""synced":"2025-10-09T08:53:20.500Z""#), "\(text)")
        let odd = text.replacingOccurrences(of: #""applied":{"#, with: #""applied":{"NOT-A-UUID":1,"#)
        try odd.write(to: path, atomically: true, encoding: .utf8)
        let read = container.registration(of: registration.device).value
        #expect(read?.applied == nil && read?.synced == registration.synced && read?.name == "laptop")
        #expect(read?.clean == registration.clean)
    }

    @Test func registerRefusesARegistrationOfAnotherContainer() throws {
        let fixture = try ContainerFixture()
        let registration = DeviceRegistration(container: UUID(), device: UUID(), name: "x", modelVersion: 2)
        #expect(throws: SyncError.self) { try fixture.container.register(registration) }
        #expect(try fixture.container.devices().registrations.isEmpty)
    }

    @Test func registrationPresenceTellsAbsenceFromFailure() throws {
        let fixture = try ContainerFixture()
        let container = fixture.container
        let device = UUID()
        try container.register(
            DeviceRegistration(container: container.identity, device: device, name: "a", modelVersion: 2))
        let relative = "devices/\(device.lowercased).json"

        fixture.faulty.fail([.list], at: fixture.cloudPath("devices"), with: EIO)
        #expect(container.registration(of: device).unreadableReason?.contains("input/output error") == true)
        fixture.faulty.heal(fixture.cloudPath("devices"))

        fixture.faulty.fail([.read], at: fixture.cloudPath(relative), with: EACCES)
        #expect(container.registration(of: device).unreadableReason?.contains("permission denied") == true)
        fixture.faulty.heal(fixture.cloudPath(relative))

        try fixture.write("{", at: relative)
        #expect(container.registration(of: device).unreadableReason?.contains("not a device registration") == true)

        try fixture.write(ContainerFixture.registrationJSON(container: UUID(), device: device), at: relative)
        #expect(container.registration(of: device).unreadableReason?.contains("foreign container") == true)

        try fixture.remove("devices")
        #expect(container.registration(of: device) == .absent)
    }

    @Test func devicesSkipsEveryKindOfBadFileAndReportsIt() throws {
        let fixture = try ContainerFixture()
        let container = fixture.container
        let identity = container.identity
        let good = UUID()
        try fixture.write(
            ContainerFixture.registrationJSON(container: identity, device: good, extra: #","later":[1]"#),
            at: "devices/\(good.lowercased).json")
        try fixture.write("half-written", at: "devices/.tmp-0123")
        try fixture.write("{}", at: "devices/.DS_Store")
        try fixture.write("hello", at: "devices/notes.txt")
        let upper = UUID()
        try fixture.write(
            ContainerFixture.registrationJSON(container: identity, device: upper),
            at: "devices/\(upper.uuidString).json")
        let linked = UUID()
        try Data(ContainerFixture.registrationJSON(container: identity, device: linked).utf8).write(
            to: fixture.outside("outside.json"))
        try fixture.link("devices/\(linked.lowercased).json", to: fixture.outside("outside.json"))
        let folder = UUID()
        try fixture.makeFolder("devices/\(folder.lowercased).json")
        let foreign = UUID()
        try fixture.write(
            ContainerFixture.registrationJSON(container: UUID(), device: foreign),
            at: "devices/\(foreign.lowercased).json")
        let misnamed = UUID()
        try fixture.write(
            ContainerFixture.registrationJSON(container: identity, device: UUID()),
            at: "devices/\(misnamed.lowercased).json")
        let garbage = UUID()
        try fixture.write("\u{0}\u{1}not json", at: "devices/\(garbage.lowercased).json")
        let huge = UUID()
        let padding = String(repeating: " ", count: 64 * 1024)
        try fixture.write(
            ContainerFixture.registrationJSON(container: identity, device: huge) + padding,
            at: "devices/\(huge.lowercased).json")
        let failing = UUID()
        try fixture.write(
            ContainerFixture.registrationJSON(container: identity, device: failing),
            at: "devices/\(failing.lowercased).json")
        fixture.faulty.fail([.read], at: fixture.cloudPath("devices/\(failing.lowercased).json"), with: EIO)

        let (registrations, skipped) = try container.devices()
        #expect(registrations.map(\.device) == [good])
        #expect(registrations.first?.name == "laptop")
        #expect(registrations.first?.modelVersion == 2)
        let expected: [SkippedFile] = [
            SkippedFile(path: "devices/\(upper.uuidString).json", reason: .badlyNamed),
            SkippedFile(path: "devices/\(linked.lowercased).json", reason: .symbolicLink),
            SkippedFile(path: "devices/\(folder.lowercased).json", reason: .notAFile),
            SkippedFile(path: "devices/\(foreign.lowercased).json", reason: .foreignContainer),
            SkippedFile(path: "devices/\(misnamed.lowercased).json", reason: .wrongDevice),
            SkippedFile(
                path: "devices/\(garbage.lowercased).json", reason: .unreadable("not a device registration: not JSON")),
            SkippedFile(path: "devices/\(huge.lowercased).json", reason: .tooLarge),
            SkippedFile(path: "devices/\(failing.lowercased).json", reason: .unreadable("input/output error")),
            SkippedFile(path: "devices/notes.txt", reason: .badlyNamed),
        ]
        #expect(skipped.sorted { $0.path < $1.path } == expected.sorted { $0.path < $1.path })
        #expect(skipped.first { $0.reason == .symbolicLink }?.description.hasSuffix(": symbolic link") == true)
    }

    @Test func devicesFailsWhenTheFolderCannotBeListedAndIsEmptyWhenItIsGone() throws {
        let fixture = try ContainerFixture()
        fixture.faulty.fail([.list], at: fixture.cloudPath("devices"), with: EACCES)
        #expect(throws: SyncError.self) { try fixture.container.devices() }
        fixture.faulty.heal(fixture.cloudPath("devices"))
        try fixture.remove("devices")
        #expect(try fixture.container.devices().registrations.isEmpty)
    }

    @Test func writesNeverRecreateAContainerThatWasRemoved() throws {
        let fixture = try ContainerFixture()
        let container = fixture.container
        try FileManager.default.removeItem(at: container.url)
        let registration = DeviceRegistration(container: container.identity, device: UUID(), name: "a", modelVersion: 2)
        #expect(throws: SyncError.self) { try container.register(registration) }
        #expect(throws: SyncError.self) { try container.writeLog(device: UUID(), sequence: 1, data: Data("x".utf8)) }
        let blob = Data("bytes".utf8)
        #expect(throws: SyncError.self) { try container.publishBlob(blob, sha256: CloudContainer.sha256(of: blob)) }
        #expect(!FileManager.default.fileExists(atPath: container.url.path))
    }
}
