import Foundation
import NoteTestSupport
import Testing

@Suite struct SearchTests {
    /// Several arguments are one query, and a query that does not read is one line that
    /// says where, with status 64.
    @Test func argumentsFormOneQueryAndABadOneSaysWhere() throws {
        let fixture = CommandLineFixture()
        try fixture.add("Call Anna", body: "about the flat viewing")
        try fixture.add("Anna", body: "a house")
        let both = try JSONChecks.array(fixture.succeed(["search", "anna", "flat", "--json"]).output)
        #expect(both.compactMap { $0["name"] as? String } == ["Call Anna"])
        let phrase = try JSONChecks.array(fixture.succeed(["search", "\"flat viewing\"", "-house", "--json"]).output)
        #expect(phrase.compactMap { $0["name"] as? String } == ["Call Anna"])
        let bad = try fixture.run(["search", "anna", "(flat"])
        #expect(bad.status == 64 && bad.output.isEmpty, "\(bad)")
        #expect(
            bad.error == "notes: invalid search: '(' opens a group that no ')' closes at column 6 of the query\n",
            "\(bad)")
        let typo = try fixture.run(["search", "anna", "--limt", "3"])
        #expect(typo.status == 64 && typo.error.contains("unknown option '--limt'"), "\(typo)")
    }

    @Test func searchRanksAMatchInTheNameAboveOneInTheBody() throws {
        let fixture = CommandLineFixture()
        let shopping = try fixture.add("Shopping", body: "buy kayak wax and a map")
        let trip = try fixture.add("Kayak trip", body: "down the river")
        try fixture.add("Unrelated", body: "nothing to see")
        let results = try JSONChecks.array(fixture.succeed(["search", "kayak", "--json"]).output)
        #expect(results.compactMap { $0["id"] as? String } == [trip, shopping])
        let ranks = results.compactMap { ($0["rank"] as? NSNumber)?.doubleValue }
        #expect(ranks.count == 2 && ranks[0] <= ranks[1])
    }

    @Test func searchPrintsThePathAndASnippetWithTheMatchMarked() throws {
        let fixture = CommandLineFixture()
        let work = try fixture.makeCollection("Work")
        let id = try fixture.add("Plan", in: work, body: "first line\nthen the Launch happens")
        let lines = try fixture.succeed(["search", "launch"]).output.split(separator: "\n").map(String.init)
        #expect(lines.count == 2)
        #expect(lines.first == "\(id.prefix(8))  Work/Plan")
        let snippet = try #require(lines.last)
        #expect(snippet.hasPrefix("          "))
        #expect(snippet.contains("«Launch»"))
        #expect(snippet.trimmingCharacters(in: .whitespaces) == "then the «Launch» happens", "the line of the match")
    }

    @Test func searchNeedsEveryWord() throws {
        let fixture = CommandLineFixture()
        let both = try fixture.add("Fruit", body: "a red apple")
        try fixture.add("Other fruit", body: "a green apple")
        let results = try JSONChecks.array(fixture.succeed(["search", "apple red", "--json"]).output)
        #expect(results.compactMap { $0["id"] as? String } == [both])
    }

    @Test func searchMatchesAPrefixWithAStar() throws {
        let fixture = CommandLineFixture()
        let id = try fixture.add("Notebook", body: "")
        #expect(try JSONChecks.array(fixture.succeed(["search", "note", "--json"]).output).isEmpty)
        let results = try JSONChecks.array(fixture.succeed(["search", "note*", "--json"]).output)
        #expect(results.compactMap { $0["id"] as? String } == [id])
    }

    @Test func searchIgnoresCaseAndDiacritics() throws {
        let fixture = CommandLineFixture()
        let accented = try fixture.add("Breakfast", body: "un café noir")
        let plain = try fixture.add("CRÈME", body: "")
        let cafe = try JSONChecks.array(fixture.succeed(["search", "cafe", "--json"]).output)
        #expect(cafe.compactMap { $0["id"] as? String } == [accented])
        #expect(cafe.first?["snippet"] as? String == "un **café** noir")
        let creme = try JSONChecks.array(fixture.succeed(["search", "crème", "--json"]).output)
        #expect(creme.compactMap { $0["id"] as? String } == [plain])
        let upper = try JSONChecks.array(fixture.succeed(["search", "CAFÉ", "--json"]).output)
        #expect(upper.compactMap { $0["id"] as? String } == [accented])
    }

    @Test func searchLeavesTrashedNotesOut() throws {
        let fixture = CommandLineFixture()
        let kept = try fixture.add("Kept", body: "treasure map")
        let trashed = try fixture.add("Trashed", body: "treasure chest")
        let work = try fixture.makeCollection("Work")
        try fixture.add("Inside", in: work, body: "treasure island")
        try fixture.succeed(["rm", trashed])
        try fixture.succeed(["rm", "Work"])
        let results = try JSONChecks.array(fixture.succeed(["search", "treasure", "--json"]).output)
        #expect(results.compactMap { $0["id"] as? String } == [kept])
        #expect(try fixture.succeed(["search", "chest"]).output.isEmpty)
        try fixture.succeed(["restore", trashed])
        #expect(try JSONChecks.array(fixture.succeed(["search", "chest", "--json"]).output).count == 1)
    }

    @Test func searchFindsANoteByItsNewBodyAfterAnEdit() throws {
        let fixture = CommandLineFixture()
        let id = try fixture.add("Note", body: "old words")
        try fixture.succeed(["edit", id, "--body", "fresh words"])
        #expect(try fixture.succeed(["search", "old"]).output.isEmpty)
        let results = try JSONChecks.array(fixture.succeed(["search", "fresh", "--json"]).output)
        #expect(results.compactMap { $0["id"] as? String } == [id])
    }

    @Test func searchLimitCapsTheResults() throws {
        let fixture = CommandLineFixture()
        for index in 1...3 { try fixture.add("Note \(index)", body: "common") }
        let results = try JSONChecks.array(fixture.succeed(["search", "common", "--limit", "2", "--json"]).output)
        #expect(results.count == 2)
    }
}

/// The filters of the search language through the binary.
@Suite struct SearchFilterCommandTests {
    let fixture = CommandLineFixture()

    @Test func aQueryMayBeFiltersAlone() throws {
        try fixture.makeTree()
        try fixture.succeed(["tag", "Work/Plan", "work"])
        try fixture.succeed(["tag", "Home", "work/home"])
        try fixture.succeed(["rm", "Home"])
        func paths(_ arguments: String...) throws -> [String] {
            try JSONChecks.array(fixture.succeed(["search"] + arguments + ["--json"]).output).compactMap {
                $0["path"] as? String
            }
        }
        #expect(try paths("tag:work") == ["Work/Plan"])
        #expect(try paths("tag:work", "is:trashed") == ["Home"])
        #expect(try paths("in:work/ideas") == ["Work/Ideas/Launch"])
        #expect(try paths("in:Work", "-name:plan") == ["Work/Ideas/Launch"])
        #expect(try paths("rocket", "modified:>7d") == ["Work/Ideas/Launch"])
        #expect(try paths("rocket", "modified:<7d").isEmpty)
        #expect(try paths("has:image").isEmpty)
        let image = SampleFiles.image("plain.png").path
        try fixture.succeed(["attach", "Work/Plan", image])
        #expect(try paths("has:image", "OR", "rocket").sorted() == ["Work/Ideas/Launch", "Work/Plan"])
    }

    @Test func aBadFilterIsOneLineThatGivesItsColumn() throws {
        try fixture.makeTree()
        let snapshot = try fixture.snapshot()
        let cases: [([String], String)] = [
            (["plan", "is:deleted"], "'is:' takes 'trashed' or 'conflict', not 'deleted' at column 9 of the query"),
            (
                ["modified:>7x"],
                "'modified:' takes a date (2026-01-31) or an age (7d, 2w, 3m, 1y), after >, <, >= or <=, "
                    + "not '>7x' at column 10 of the query"
            ),
            (["tag:"], "'tag:' needs a value after it at column 1 of the query"),
            (["plan", "in:Nowhere"], "'in:' names no item 'Nowhere' at column 6 of the query"),
            (["in:Work/Plan"], "'in:' takes a collection, and 'Work/Plan' is a note at column 1 of the query"),
        ]
        for (arguments, problem) in cases {
            let result = try fixture.run(["search"] + arguments)
            #expect(result.status == 64 && result.output.isEmpty, "\(result)")
            #expect(result.error == "notes: invalid search: \(problem)\n", "\(result)")
        }
        #expect(try fixture.snapshot() == snapshot)
    }
}
