import Foundation
import NoteStore
import Testing

@Suite struct IdentifierTests {
    @Test func theStoreFormOfAnIdIsItsLowercaseString() {
        for _ in 0..<1000 {
            let id = UUID()
            #expect(id.storeString == id.uuidString.lowercased())
        }
        let edges = [UUID(uuid: (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)),
                     UUID(uuid: (255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255))]
        #expect(edges.map(\.storeString) == ["00000000-0000-0000-0000-000000000000", "ffffffff-ffff-ffff-ffff-ffffffffffff"])
    }

    /// A stamp's text is 16 hex digits of its clock, `/` and its device's id, and stamps order
    /// as their texts do (docs/sync-format.md, "Clocks and order").
    @Test func aStampsTextAndOrderAreThoseOfTheFormat() {
        var generator = SystemRandomNumberGenerator()
        var stamps: [ChangeStamp] = []
        let devices = (0..<5).map { _ in UUID() }
        for _ in 0..<2_000 {
            let clock: UInt64 = [0, 1, 0xFFFF_FFFF_FFFF_FFFF, 0x01A2_09CD_927C_0000, generator.next() >> UInt64.random(in: 0..<64)].randomElement()!
            stamps.append(ChangeStamp(clock: clock, device: devices.randomElement()!))
        }
        for stamp in stamps {
            let hex = String(stamp.clock, radix: 16)
            #expect(stamp.text == String(repeating: "0", count: 16 - hex.count) + hex + "/" + stamp.device.uuidString.lowercased())
            #expect(ChangeStamp(text: stamp.text) == stamp)
        }
        for (left, right) in zip(stamps, stamps.shuffled()) {
            #expect((left < right) == (left.text < right.text), "\(left) \(right)")
        }
    }
}
