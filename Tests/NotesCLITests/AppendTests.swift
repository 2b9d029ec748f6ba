import Foundation
import NoteTestSupport
import Testing

/// `notes append`: text added to the end of a body, from words or standard input.
@Suite struct AppendTests {
    let fixture = CommandLineFixture()

    @Test func wordsAreAddedAsALineOfTheirOwn() throws {
        let id = try fixture.add("Log", body: "monday")
        try fixture.succeed(["append", "Log", "tuesday:", "rain"])
        #expect(try fixture.show(id)["body"] as? String == "monday\ntuesday: rain\n")
        try fixture.succeed(["append", id, "wednesday"])
        #expect(try fixture.show(id)["body"] as? String == "monday\ntuesday: rain\nwednesday\n")
    }

    @Test func standardInputIsAddedAsItIs() throws {
        let id = try fixture.add("Log", body: "")
        try fixture.succeed(["append", "Log"], input: Data("one\ntwo".utf8))
        #expect(try fixture.show(id)["body"] as? String == "one\ntwo")
        try fixture.succeed(["append", "Log"], input: Data("three\n".utf8))
        #expect(try fixture.show(id)["body"] as? String == "one\ntwo\nthree\n")
    }

    @Test func aCollectionOrNoTextIsRefused() throws {
        try fixture.makeCollection("Box")
        fixture.expectFailure(
            try fixture.run(["append", "Box", "x"]), status: 64, mentioning: ["'Box' is a collection"])
        _ = try fixture.add("Log", body: "kept")
        fixture.expectFailure(try fixture.run(["append", "Log"]), status: 64, mentioning: ["give the text to add"])
        fixture.expectFailure(try fixture.run(["append", "Nowhere", "x"]), status: 64, mentioning: ["Nowhere"])
        #expect(try fixture.show("Log")["body"] as? String == "kept")
    }
}
