import NoteStore
import Testing

@testable import NoteInterchange

/// Plain scalars of front matter typed as YAML 1.2's core schema types them.
@Suite struct FrontMatterYAMLTests {
    @Test(arguments: [
        ("12", PropertyValue.integer(12)), ("-3", .integer(-3)), ("+7", .integer(7)), ("007", .integer(7)),
        ("99999999999999999999", .number(1e20)), ("1.5", .number(1.5)), (".5", .number(0.5)),
        ("5.", .number(5)), ("-.5e+2", .number(-50)), ("1e3", .number(1000)), ("2E-2", .number(0.02)),
        ("", .null), ("~", .null), ("NULL", .null), ("True", .bool(true)), ("false", .bool(false)),
        ("1e", .string("1e")), (".", .string(".")), ("+", .string("+")), ("-", .string("-")),
        ("1.2.3", .string("1.2.3")), ("e3", .string("e3")), (".e3", .string(".e3")), ("0x1F", .string("0x1F")),
        ("1_000", .string("1_000")), ("12a", .string("12a")), (" 12", .string(" 12")), ("1e999", .string("1e999")),
        ("yes", .string("yes")), ("2024-03-01", .string("2024-03-01")), ("１２", .string("１２")),
    ])
    func plainScalarsResolveAsTheCoreSchema(text: String, value: PropertyValue) {
        #expect(FrontMatterYAML.resolved(text) == value)
    }

    /// Keys, plain or quoted, are text, as a property's key is: the same text twice is a
    /// duplicate, whatever YAML's core schema would type it as.
    @Test(arguments: ["a: 1\n\"a\": 2\n", "1: one\n\"1\": two\n", "true: x\n'true': y\n", "~: x\n\"~\": y\n"])
    func aKeyTwiceIsAProblem(yaml: String) throws {
        #expect(throws: FrontMatterYAML.Problem.self) { try FrontMatterYAML.read(yaml) }
    }

    @Test func keysAreText() throws {
        let pairs = try FrontMatterYAML.read("1: one\ntrue: yes\nnull: ~\n")
        #expect(pairs.map(\.key) == ["1", "true", "null"])
        #expect(pairs.map(\.value) == [.string("one"), .string("yes"), .null])
    }
}
