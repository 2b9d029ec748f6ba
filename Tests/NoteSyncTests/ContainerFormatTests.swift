import Foundation
import NoteSync
import Testing

@Suite struct ContainerFormatTests {
    private func object(_ data: Data) throws -> [String: Any] {
        try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
    }

    @Test func descriptorIsWrittenAsTheFormatSays() throws {
        let identity = UUID()
        let descriptor = ContainerDescriptor(
            container: identity, created: Date(timeIntervalSince1970: 1_700_000_000.123_456))
        let json = try object(try JSONEncoder().encode(descriptor))
        #expect(Set(json.keys) == ["format", "formatVersion", "container", "created"])
        #expect(json["format"] as? String == "note-collector-container")
        #expect(json["formatVersion"] as? Int == 1)
        #expect(json["container"] as? String == identity.uuidString.lowercased())
        #expect(json["created"] as? String == "2023-11-14T22:13:20.123Z")
        #expect(
            try JSONDecoder().decode(ContainerDescriptor.self, from: try JSONEncoder().encode(descriptor)) == descriptor
        )
    }

    @Test func registrationIsWrittenAsTheFormatSays() throws {
        let registration = DeviceRegistration(
            container: UUID(), device: UUID(), name: "Desk", registered: Date(timeIntervalSince1970: 0.5),
            modelVersion: 3)
        let json = try object(try JSONEncoder().encode(registration))
        #expect(
            Set(json.keys) == ["format", "formatVersion", "container", "device", "name", "registered", "modelVersion"])
        #expect(json["format"] as? String == "note-collector-device")
        #expect(json["formatVersion"] as? Int == 1)
        #expect(json["device"] as? String == registration.device.uuidString.lowercased())
        #expect(json["registered"] as? String == "1970-01-01T00:00:00.500Z")
        #expect(json["modelVersion"] as? Int == 3)
        #expect(
            try JSONDecoder().decode(DeviceRegistration.self, from: try JSONEncoder().encode(registration))
                == registration)
    }

    @Test func datesKeepMillisecondsAndReadBackExactly() throws {
        let cases: [(TimeInterval, String)] = [
            (0, "1970-01-01T00:00:00.000Z"),
            (-0.5, "1969-12-31T23:59:59.500Z"),
            (1_700_000_000.999_7, "2023-11-14T22:13:21.000Z"),
            (1_700_000_000.040_298_5, "2023-11-14T22:13:20.040Z"),
        ]
        for (seconds, text) in cases {
            let descriptor = ContainerDescriptor(container: UUID(), created: Date(timeIntervalSince1970: seconds))
            let json = try object(try JSONEncoder().encode(descriptor))
            #expect(json["created"] as? String == text)
        }
        for _ in 0..<1000 {
            let descriptor = ContainerDescriptor(created: Date(timeIntervalSince1970: .random(in: 0...4_000_000_000)))
            #expect(
                try JSONDecoder().decode(ContainerDescriptor.self, from: try JSONEncoder().encode(descriptor))
                    == descriptor)
        }
    }

    @Test func readingIgnoresUnknownKeysAndAcceptsOtherISODates() throws {
        let text = """
            {"future":{"a":[1,2]},"format":"note-collector-container","formatVersion":1,
             "container":"0f8fad5b-d9cb-469f-a165-70867728950e","created":"2025-06-01T12:00:00+02:00"}
            """
        let descriptor = try JSONDecoder().decode(ContainerDescriptor.self, from: Data(text.utf8))
        #expect(descriptor.container == UUID(uuidString: "0F8FAD5B-D9CB-469F-A165-70867728950E"))
        #expect(descriptor.created == Date(timeIntervalSince1970: 1_748_772_000))
        #expect(!descriptor.isNewerFormat)
    }

    @Test func readingRefusesWhatIsNotExactlyTheFormat() throws {
        let good =
            #""container":"0f8fad5b-d9cb-469f-a165-70867728950e","#
            + #""device":"0f8fad5b-d9cb-469f-a165-70867728950f","name":"x","#
            + #""registered":"2025-01-01T00:00:00.000Z","modelVersion":1"#
        let capitals = good.replacingOccurrences(
            of: "0f8fad5b-d9cb-469f-a165-70867728950f", with: "0F8FAD5B-D9CB-469F-A165-70867728950F")
        let bad = [
            #"{"format":"note-collector-container","formatVersion":1,\#(good)}"#,
            #"{"format":"note-collector-device","formatVersion":"1",\#(good)}"#,
            #"{"format":"note-collector-device","formatVersion":1,\#(capitals)}"#,
            #"{"format":"note-collector-device","formatVersion":1,"#
                + #"\#(good.replacingOccurrences(of: "2025-01-01T00:00:00.000Z", with: "yesterday"))}"#,
            #"{"format":"note-collector-device","formatVersion":1,"#
                + #"\#(good.replacingOccurrences(of: "\"name\":\"x\"", with: "\"name\":null"))}"#,
        ]
        for text in bad {
            #expect(throws: (any Error).self, "\(text)") {
                try JSONDecoder().decode(DeviceRegistration.self, from: Data(text.utf8))
            }
        }
        let fine = #"{"format":"note-collector-device","formatVersion":1,\#(good)}"#
        #expect(try JSONDecoder().decode(DeviceRegistration.self, from: Data(fine.utf8)).name == "x")
    }
}
