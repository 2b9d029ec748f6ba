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
        fixture.expectFailure(
            try fixture.run(["restore", "Draft"]), status: 64,
            mentioning: [String(old.prefix(8)), String(new.prefix(8))])
        try fixture.succeed(["restore", old])
        #expect(try fixture.show("Draft")["id"] as? String == old)
    }
}

/// References typed as a person half remembers them, through the binary: every command that
/// takes an item reads them ignoring case and accents; `--exact` and `--json` are for scripts.
@Suite struct ForgivingReferenceCommandTests {
    let fixture = CommandLineFixture()

    @Test func aNameOrAPathIgnoringCaseAndAccentsNamesTheItem() throws {
        let tree = try fixture.makeTree()
        let cafe = try fixture.add("Café", in: "Work", body: "espresso")
        #expect(try fixture.show("launch")["id"] as? String == tree.launch)
        #expect(try fixture.show("WORK/ideas/launch")["id"] as? String == tree.launch)
        #expect(try fixture.succeed(["cat", "cafe"]).output.hasPrefix("espresso"))
        try fixture.succeed(["append", "work/CAFE", "and milk"])
        try fixture.succeed(["mv", "launch", "--to", "work"])
        #expect(try fixture.show(tree.launch)["path"] as? String == "Work/Launch")
        try fixture.succeed(["add", "Draft", "--in", "ideas"])
        #expect(try fixture.list(["work/ideas"]).compactMap { $0["name"] as? String } == ["Draft"])
        try fixture.succeed(["tag", "café", "drinks"])
        #expect(try fixture.show(cafe)["tags"] as? [String] == ["drinks"])
        try fixture.succeed(["rm", "cafe"])
        try fixture.succeed(["restore", "CAFÉ"])
        #expect(try fixture.show(cafe)["body"] as? String == "espresso\nand milk\n")
    }

    @Test func exactRefusesWhatIsNotWrittenAndNamesTheClosest() throws {
        let tree = try fixture.makeTree()
        fixture.expectFailure(
            try fixture.run(["show", "--exact", "launch"]), status: 64,
            mentioning: ["no item matches 'launch'", "the closest: \(tree.launch.prefix(8)) Work/Ideas/Launch"])
        fixture.expectFailure(try fixture.run(["cat", "laucnh"]), status: 64, mentioning: ["Work/Ideas/Launch"])
        fixture.expectFailure(
            try fixture.run(["mv", "Work/Plan", "--to", "idea", "--exact"]), status: 64,
            mentioning: ["'idea'", "Work/Ideas"])
        #expect(try fixture.show(tree.plan)["path"] as? String == "Work/Plan")
    }

    /// Several items that match forgivingly: one line that lists them, and nothing changed.
    @Test func anAmbiguousReferenceListsItsCandidatesAndChangesNothing() throws {
        try fixture.makeTree()
        let first = try fixture.add("Todo", in: "Work", body: "one")
        let second = try fixture.add("TODO", in: "Work/Ideas", body: "two")
        let snapshot = try fixture.snapshot()
        for arguments in [
            ["rm", "todo"], ["edit", "todo", "--body", "three"], ["tag", "todo", "x"], ["append", "todo", "more"],
        ] {
            fixture.expectFailure(
                try fixture.run(arguments), status: 64,
                mentioning: [
                    "'todo' matches 2 items", "\(first.prefix(8)) Work/Todo", "\(second.prefix(8)) Work/Ideas/TODO",
                ])
        }
        #expect(try fixture.snapshot() == snapshot)
    }

    /// With --json, the failure is a JSON object on standard output too, with the candidates.
    @Test func jsonModePrintsTheCandidatesAsJSON() throws {
        let tree = try fixture.makeTree()
        let second = try fixture.add("Launch", in: "Work")
        let ambiguous = try fixture.run(["show", "--json", "launch"])
        #expect(ambiguous.status == 64 && ambiguous.error.hasPrefix("notes: 'launch' matches 2 items"), "\(ambiguous)")
        let object = try JSONChecks.object(ambiguous.output)
        #expect(object["error"] as? String == "ambiguous" && object["reference"] as? String == "launch")
        let candidates = try #require(object["candidates"] as? [[String: Any]])
        #expect(Set(candidates.compactMap { $0["id"] as? String }) == [tree.launch, second])
        #expect(Set(candidates.compactMap { $0["path"] as? String }) == ["Work/Ideas/Launch", "Work/Launch"])
        #expect(candidates.allSatisfy { $0["kind"] as? String == "note" && JSONChecks.isBoolean($0["trashed"]) })
        let unknown = try fixture.run(["history", "--json", "--exact", "Lunch"])
        #expect(unknown.status == 64, "\(unknown)")
        let missing = try JSONChecks.object(unknown.output)
        #expect(missing["error"] as? String == "unknown")
        #expect(
            (missing["candidates"] as? [[String: Any]])?.compactMap { $0["path"] as? String }.sorted() == [
                "Work/Ideas/Launch", "Work/Launch",
            ])
        let none = try JSONChecks.object(try fixture.run(["ls", "--json", "zzzz"]).output)
        #expect((none["candidates"] as? [Any])?.isEmpty == true)
    }
}
