import Foundation
import NoteTestSupport
import Testing

/// `search --save`, `--run`, `--saved`, `--forget`, `--stem`, and `prop:` filters, by process.
@Suite struct SavedSearchCommandTests {
    let fixture = CommandLineFixture()

    @Test func searchesAreSavedRunListedAndForgotten() throws {
        try fixture.add("Soup", body: "leeks\n")
        try fixture.add("Stew", body: "beef and leeks\n")
        try fixture.succeed(["prop", "Soup", "status", "draft"])
        #expect(try fixture.succeed(["search", "--save", "drafts", "prop:status=draft"]).output.contains("Soup"))
        try fixture.succeed(["search", "--save", "leeks", "leeks", "-beef"])
        #expect(try fixture.succeed(["search", "--saved"]).output == "drafts: prop:status=draft\nleeks: leeks -beef\n")
        let json =
            try JSONSerialization.jsonObject(
                with: Data(try fixture.succeed(["search", "--saved", "--json"]).output.utf8)) as? [[String: String]]
        #expect(json?.first == ["name": "drafts", "query": "prop:status=draft"])
        let run = try fixture.succeed(["search", "--run", "leeks"]).output
        #expect(run.contains("Soup") && !run.contains("Stew"), "\(run)")
        #expect(try fixture.succeed(["search", "--run", "drafts", "nothing"]).output.isEmpty)
        try fixture.succeed(["search", "--save", "drafts", "prop:status"])
        #expect(try fixture.succeed(["search", "--saved"]).output == "drafts: prop:status\nleeks: leeks -beef\n")
        try fixture.succeed(["search", "--forget", "drafts"])
        #expect(try fixture.succeed(["search", "--saved"]).output == "leeks: leeks -beef\n")

        fixture.expectFailure(
            try fixture.run(["search", "--run", "drafts"]), status: 65, mentioning: ["no search is saved as 'drafts'"])
        fixture.expectFailure(try fixture.run(["search", "--forget", "drafts"]), status: 65, mentioning: ["drafts"])
        fixture.expectFailure(
            try fixture.run(["search", "--save", "bad", "(open"]), status: 64, mentioning: ["column 1"])
        fixture.expectFailure(try fixture.run(["search", "--saved", "words"]), status: 64, mentioning: ["--saved"])
        fixture.expectFailure(
            try fixture.run(["search", "--save", "a", "--run", "b", "x"]), status: 64, mentioning: ["--run"])
        #expect(try fixture.succeed(["search", "--saved"]).output == "leeks: leeks -beef\n")
    }

    @Test func stemmingAndPropertyFilters() throws {
        try fixture.add("Laptop", body: "we synced the laptops\n")
        try fixture.add("Desk", body: "syncing daily\n")
        try fixture.add("Rated", body: "plain\n")
        try fixture.succeed(["prop", "Rated", "rating", "--type", "number", "4"])
        try fixture.succeed(["prop", "Desk", "aliases", "Bureau", "Table"])
        #expect(try fixture.succeed(["search", "sync"]).output.isEmpty)
        let stemmed = try fixture.succeed(["search", "--stem", "sync"]).output
        #expect(stemmed.contains("Laptop") && stemmed.contains("Desk"), "\(stemmed)")
        #expect(try fixture.succeed(["search", "prop:rating=4"]).output.contains("Rated"))
        #expect(try fixture.succeed(["search", "prop:rating=four"]).output.isEmpty)
        #expect(try fixture.succeed(["search", "prop:aliases=table"]).output.contains("Desk"))
        let having = try fixture.succeed(["search", "prop:aliases OR prop:rating"]).output
        #expect(having.contains("Desk") && having.contains("Rated") && !having.contains("Laptop"))
        fixture.expectFailure(try fixture.run(["search", "prop:=x"]), status: 64, mentioning: ["column 6"])
    }
}
