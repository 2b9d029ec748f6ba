import Foundation
import NoteTestSupport
import Testing

@Suite struct ReferenceTests {
    @Test func aFullIDNamesAnItem() throws {
        let fixture = CommandLineFixture()
        let tree = try fixture.makeTree()
        #expect(try fixture.show(tree.launch)["name"] as? String == "Launch")
        #expect(try fixture.show(tree.launch.uppercased())["id"] as? String == tree.launch)
    }

    @Test func aUniqueIDPrefixOfFourCharactersNamesAnItem() throws {
        let fixture = CommandLineFixture()
        let tree = try fixture.makeTree()
        #expect(try fixture.show(String(tree.plan.prefix(4)))["id"] as? String == tree.plan)
        #expect(try fixture.show(String(tree.plan.prefix(13)))["id"] as? String == tree.plan)
        try fixture.succeed(["mv", String(tree.home.prefix(6)), "--to", String(tree.work.prefix(5))])
        #expect(try fixture.show(tree.home)["path"] as? String == "Work/Home")
    }

    @Test func anIDPrefixOfThreeCharactersIsRefused() throws {
        let fixture = CommandLineFixture()
        let id = try fixture.add("Note")
        let prefix = String(id.prefix(3))
        fixture.expectFailure(try fixture.run(["show", prefix]), status: 64, mentioning: ["'\(prefix)'"])
    }

    @Test func aPathOfNamesNamesAnItem() throws {
        let fixture = CommandLineFixture()
        try fixture.makeCollection("A")
        let b = try fixture.makeCollection("B", in: "A")
        let c = try fixture.add("C", in: "A/B", body: "deep")
        #expect(try fixture.show("A/B/C")["id"] as? String == c)
        #expect(try fixture.show("A/B")["id"] as? String == b)
        #expect(try fixture.succeed(["show", "A/B/C"]).output.hasSuffix("\n\ndeep\n"))
        fixture.expectFailure(try fixture.run(["show", "A/C"]), status: 64, mentioning: ["'A/C'"])
        fixture.expectFailure(try fixture.run(["show", "B/C"]), status: 64, mentioning: ["'B/C'"])
    }

    @Test func anAmbiguousPathFailsAndListsEveryCandidate() throws {
        let fixture = CommandLineFixture()
        let first = try fixture.add("Todo", body: "one")
        let second = try fixture.add("Todo", body: "two")
        let snapshot = try fixture.snapshot()
        for arguments in [["show", "Todo"], ["rm", "Todo"], ["edit", "Todo", "--body", "three"]] {
            let result = try fixture.run(arguments)
            fixture.expectFailure(
                result, status: 64, mentioning: ["'Todo'", String(first.prefix(8)), String(second.prefix(8))])
        }
        #expect(try fixture.snapshot() == snapshot)
        #expect(try fixture.show(first)["body"] as? String == "one")
    }

    @Test func aSlashInsideANameIsWrittenBackslashSlash() throws {
        let fixture = CommandLineFixture()
        let folder = try fixture.makeCollection("Q1/Q2")
        let note = try fixture.add("Report", in: "Q1\\/Q2")
        let shown = try fixture.show("Q1\\/Q2/Report")
        #expect(shown["id"] as? String == note)
        #expect(shown["parent"] as? String == folder)
        #expect(shown["path"] as? String == "Q1\\/Q2/Report")
        #expect(try fixture.show(folder)["name"] as? String == "Q1/Q2")
        fixture.expectFailure(try fixture.run(["show", "Q1/Q2/Report"]), status: 64)
    }

    @Test func aPathFindsTrashedItemsForRestoreAndLiveOnesOtherwise() throws {
        let fixture = CommandLineFixture()
        let old = try fixture.add("Draft", body: "old")
        try fixture.succeed(["rm", old])
        let new = try fixture.add("Draft", body: "new")
        #expect(try fixture.show("Draft")["id"] as? String == new)
        try fixture.succeed(["rm", "Draft"])
        fixture.expectFailure(try fixture.run(["restore", "Draft"]), status: 64, mentioning: [String(old.prefix(8)), String(new.prefix(8))])
        try fixture.succeed(["restore", old])
        #expect(try fixture.show("Draft")["id"] as? String == old)
    }
}
