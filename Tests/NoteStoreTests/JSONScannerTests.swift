import Foundation
@testable import NoteStore
import Testing

/// The fast JSON reader reads exactly what `JSONSerialization` reads, for the shape it takes,
/// and declines everything else.
@Suite struct JSONScannerTests {
    /// The scanner's members as `JSONSerialization` would give them.
    static func plain(_ members: [(key: String, value: JSONScanner.Value)]) -> [String: AnyHashable] {
        var result: [String: AnyHashable] = [:]
        for (key, value) in members { result[key] = plain(value) }
        return result
    }

    static func plain(_ value: JSONScanner.Value) -> AnyHashable {
        switch value {
        case let .text(text): return text
        case let .integer(number): return number
        case .null: return "<null>"
        case let .object(members): return plain(members)
        case .other: return "<other>"
        }
    }

    /// What `JSONSerialization` reads, in the same form.
    static func reference(_ text: String) -> [String: AnyHashable]? {
        guard let object = try? JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any] else {
            return nil
        }
        func convert(_ value: Any) -> AnyHashable {
            switch value {
            case let text as String: return text
            case let number as NSNumber: return number.int64Value
            case is NSNull: return "<null>"
            case let object as [String: Any]: return object.mapValues(convert) as [String: AnyHashable]
            default: return "<other>"
            }
        }
        return object.mapValues(convert)
    }

    @Test(arguments: [
        #"{}"#,
        #" { "a" : 1 , "b":"x" } "#,
        #"{"text":"line\nbreak \"quoted\" back\\slash \/ tab\t","n":-42,"z":0,"nothing":null}"#,
        #"{"accent":"\u00e9t\u00C9","emoji":"\ud83d\ude00","raw":"é 😀 ünïcödé"}"#,
        #"{"big":9223372036854775807,"small":-9223372036854775808}"#,
        #"{"values":{"name":"A","parent":null,"created":1763717400000},"stamps":{"*":"0001/x"}}"#,
        #"{"controls":"\b\f\r\u0001"}"#,
    ])
    func readsWhatJSONSerializationReads(text: String) throws {
        let scanned = try #require(JSONScanner.object(Data(text.utf8)))
        #expect(Self.plain(scanned) == Self.reference(text))
    }

    @Test(arguments: [
        #"{"a":1.5}"#, #"{"a":1e3}"#, #"{"a":true}"#, #"{"a":[1]}"#, #"{"a":01}"#, #"{"a":-}"#,
        #"{"a":9223372036854775808}"#, #"{"a":"\ud83d"}"#, #"{"a":"\x"}"#, #"{"a":1} x"#, #"{"a":1"#,
        #"[1]"#, #""#, #"{"a":{"b":{"c":{"d":1}}}}"#, "{\"a\":\"raw\ttab\"}",
    ])
    func declinesWhatItDoesNotRead(text: String) {
        #expect(JSONScanner.object(Data(text.utf8)) == nil)
    }

    @Test func declinesInvalidUTF8() {
        let bytes: [UInt8] = Array(#"{"a":""#.utf8) + [0xC3, 0x28] + Array(#""}"#.utf8)
        #expect(JSONScanner.object(Data(bytes)) == nil)
        #expect((try? JSONSerialization.jsonObject(with: Data(bytes))) == nil)
    }

    /// Random text of every kind, written by the outbox's own encoder, reads back the same.
    @Test func readsBackWhatTheOutboxWrites() {
        var random = SystemRandomNumberGenerator()
        let alphabet: [Character] = [
            "a", "Z", " ", "\"", "\\", "/", "\n", "\t", "\u{01}", "\u{1F}", "é", "😀", "中", "\u{7F}",
        ]
        for _ in 0..<300 {
            var changes = OutboxChanges()
            for index in 0..<Int.random(in: 0...6, using: &random) {
                let name = "key\(index)"
                switch Int.random(in: 0..<3, using: &random) {
                case 0:
                    changes.set(
                        name,
                        .text(
                            String(
                                (0..<Int.random(in: 0...40, using: &random)).map { _ in
                                    alphabet.randomElement(using: &random)!
                                })))
                case 1: changes.set(name, .integer(Int64.random(in: .min ... .max, using: &random)))
                default: changes.set(name, .null)
                }
            }
            let json = changes.json
            let scanned = JSONScanner.object(Data(json.utf8))
            #expect(scanned.map(Self.plain) == Self.reference(json), "\(json)")
            #expect(OutboxChanges(json: json) == changes, "\(json)")
        }
    }
}
