import Foundation
import NoteTestSupport
import Testing

@Suite struct JSONShapeTests {
    @Test func lsPrintsAnArrayOfItemObjects() throws {
        let fixture = CommandLineFixture()
        let tree = try fixture.makeTree()
        let items = try fixture.list(["--recursive"])
        #expect(items.count == 5)
        for item in items { JSONChecks.expectItemShape(item) }
        let byID = Dictionary(
            uniqueKeysWithValues: items.compactMap { item in (item["id"] as? String).map { ($0, item) } })
        #expect(byID[tree.work]?["kind"] as? String == "collection")
        #expect(byID[tree.plan]?["kind"] as? String == "note")
        #expect(byID[tree.work]?["parent"] is NSNull)
        #expect(byID[tree.home]?["parent"] is NSNull)
        #expect(byID[tree.launch]?["parent"] as? String == tree.ideas)
        #expect(byID[tree.launch]?["path"] as? String == "Work/Ideas/Launch")
        #expect(byID[tree.plan]?["trashed"] as? Bool == false)
        // A listing leaves bodies out.
        #expect(items.allSatisfy { $0["body"] == nil })
    }

    @Test func showOfANotePrintsAnObjectWithItsBody() throws {
        let fixture = CommandLineFixture()
        let tree = try fixture.makeTree()
        let note = try fixture.show(tree.launch)
        JSONChecks.expectItemShape(note)
        #expect(note["id"] as? String == tree.launch)
        #expect(note["kind"] as? String == "note")
        #expect(note["name"] as? String == "Launch")
        #expect(note["parent"] as? String == tree.ideas)
        #expect(note["path"] as? String == "Work/Ideas/Launch")
        #expect(note["body"] as? String == "a rocket")
        #expect(note["trashed"] as? Bool == false)
        #expect(note["created"] as? String == note["modified"] as? String)
    }

    @Test func showOfACollectionPrintsAnObjectWithoutBody() throws {
        let fixture = CommandLineFixture()
        let tree = try fixture.makeTree()
        let collection = try fixture.show(tree.work)
        JSONChecks.expectItemShape(collection)
        #expect(collection["kind"] as? String == "collection")
        #expect(collection["parent"] is NSNull)
        #expect(collection["path"] as? String == "Work")
        #expect(collection["body"] == nil)
    }

    @Test func trashedIsABooleanTrueInTheTrash() throws {
        let fixture = CommandLineFixture()
        let id = try fixture.add("Old")
        try fixture.succeed(["rm", id])
        let trash = try fixture.list(["--trash"])
        #expect(trash.count == 1)
        for item in trash { JSONChecks.expectItemShape(item) }
        #expect(trash.first?["trashed"] as? Bool == true)
        let shown = try fixture.show(id)
        #expect(JSONChecks.isBoolean(shown["trashed"]))
        #expect(shown["trashed"] as? Bool == true)
    }

    @Test func datesAreISO8601InUTCWithMilliseconds() throws {
        let fixture = CommandLineFixture()
        let before = Date().addingTimeInterval(-1)
        let id = try fixture.add("Dated")
        let after = Date().addingTimeInterval(1)
        let shown = try fixture.show(id)
        let text = try #require(shown["created"] as? String)
        // 2024-05-06T07:08:09.123Z
        #expect(text.count == 24)
        #expect(text.hasSuffix("Z"))
        let created = try #require(JSONChecks.date(text))
        #expect(created >= before && created <= after)
    }

    @Test func searchPrintsAnArrayOfItemsWithSnippetAndRank() throws {
        let fixture = CommandLineFixture()
        let tree = try fixture.makeTree()
        let results = try JSONChecks.array(fixture.succeed(["search", "rocket", "--json"]).output)
        #expect(results.count == 1)
        let result = try #require(results.first)
        JSONChecks.expectItemShape(result)
        #expect(result["id"] as? String == tree.launch)
        #expect(result["path"] as? String == "Work/Ideas/Launch")
        #expect(result["snippet"] as? String == "a **rocket**")
        #expect(result["rank"] is NSNumber && !JSONChecks.isBoolean(result["rank"]))
    }

    @Test func jsonOfAnEmptyListingOrSearchIsAnEmptyArray() throws {
        let fixture = CommandLineFixture()
        try fixture.add("Something")
        #expect(try JSONChecks.array(fixture.succeed(["ls", "--trash", "--json"]).output).isEmpty)
        #expect(try JSONChecks.array(fixture.succeed(["search", "nothing", "--json"]).output).isEmpty)
    }
}
