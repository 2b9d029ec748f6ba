import Foundation
import Testing

@testable import NoteStore

@Suite struct IdentifierTests {
    @Test func theStoreFormOfAnIdIsItsLowercaseString() {
        for _ in 0..<1000 {
            let id = UUID()
            #expect(id.storeString == id.uuidString.lowercased())
        }
        let edges = [
            UUID(uuid: (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)),
            UUID(uuid: (255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255)),
        ]
        #expect(
            edges.map(\.storeString) == [
                "00000000-0000-0000-0000-000000000000", "ffffffff-ffff-ffff-ffff-ffffffffffff",
            ])
    }

    /// A stamp's text is 16 hex digits of its clock, `/` and its device's id, and stamps order
    /// as their texts do (docs/sync-format.md, "Clocks and stamps").
    @Test func aStampsTextAndOrderAreThoseOfTheFormat() {
        var generator = SystemRandomNumberGenerator()
        var stamps: [ChangeStamp] = []
        let devices = (0..<5).map { _ in UUID() }
        for _ in 0..<2_000 {
            let clock: UInt64 = [
                0, 1, 0xFFFF_FFFF_FFFF_FFFF, 0x01A2_09CD_927C_0000, generator.next() >> UInt64.random(in: 0..<64),
            ].randomElement()!
            stamps.append(ChangeStamp(clock: clock, device: devices.randomElement()!))
        }
        for stamp in stamps {
            let hex = String(stamp.clock, radix: 16)
            #expect(
                stamp.text == String(repeating: "0", count: 16 - hex.count) + hex + "/"
                    + stamp.device.uuidString.lowercased())
            #expect(ChangeStamp(text: stamp.text) == stamp)
        }
        for (left, right) in zip(stamps, stamps.shuffled()) {
            #expect((left < right) == (left.text < right.text), "\(left) \(right)")
        }
    }

    /// Ids read from text are those `UUID(uuidString:)` reads, for the usual form in either
    /// case and for every other text (which it is left to).
    @Test func anIdReadFromTextIsFoundationsReading() {
        var generator = SystemRandomNumberGenerator()
        var texts: [String] = []
        for _ in 0..<2_000 {
            let id = UUID()
            texts += [id.uuidString, id.storeString, String(id.storeString.prefix(35)), id.storeString + "0"]
            var characters = Array(id.uuidString)
            characters[Int.random(in: 0..<36, using: &generator)] = ["g", "-", " ", "x", "G", "é", "0"].randomElement(
                using: &generator)!
            texts.append(String(characters))
        }
        texts += [
            "", "not an id", " 0000000-0000-0000-0000-000000000000", "0x000000-0000-0000-0000-000000000000",
            "00000000000000000000000000000000",
            "{00000000-0000-0000-0000-000000000000}", "+0000000-0000-0000-0000-000000000000",
        ]
        for text in texts {
            #expect(UUID(storeText: text) == UUID(uuidString: text), "\(text)")
        }
    }

    /// Names of ASCII characters sort as Foundation's comparison sorts them, without it;
    /// others go to it.
    @Test func namesSortAsFoundationSortsThem() {
        var generator = SystemRandomNumberGenerator()
        let digitsAndLetters = Array("aAbBzZ0019 -_.~[`{".utf8)
        let ascii = (UInt8(1)...UInt8(127)).map { $0 }
        func name(_ alphabet: [UInt8]) -> String {
            String(
                decoding: (0..<Int.random(in: 0...10, using: &generator)).map { _ in
                    alphabet.randomElement(using: &generator)!
                }, as: UTF8.self)
        }
        var pairs: [(String, String)] = [
            ("a01", "a1"), ("a001", "a01"), ("a1b", "a01c"), ("x99999999999999999999999", "x100000000000000000000000"),
            ("Note 9", "note 10"), ("0", "00"), ("_", "A"), ("Z", "_"), ("", "a"), ("é", "e"), ("<\u{338}", "="),
            ("Ab", "a\u{301}c"),
            ("10000000000000000000", "1000000000000000000a"), ("9300000000000000000", "9200000000000000000"),
            ("\r\nA", "\rA"),
            ("n123456789012345678", "n123456789012345679"), ("n0123456789012345678x", "n123456789012345678y"),
        ]
        for _ in 0..<100_000 { pairs.append((name(digitsAndLetters), name(digitsAndLetters))) }
        for _ in 0..<100_000 { pairs.append((name(ascii), name(ascii))) }
        for (left, right) in pairs {
            #expect(
                ItemSort.compareNames(left, right)
                    == left.compare(right, options: [.caseInsensitive, .diacriticInsensitive, .numeric]),
                "'\(left)' '\(right)'")
        }
    }
}
