import Foundation
import NoteTestSupport
import Testing

/// `notes links`, `notes backlinks`, the end of `notes show`, `notes ls --orphans` and the
/// links that `notes check` reports.
@Suite struct LinkCommandTests {
    let fixture = CommandLineFixture()

    @Test func linksBacklinksShowOrphansAndCheck() throws {
        try fixture.makeCollection("Guides")
        let vault = try fixture.add("Create a vault", in: "Guides", body: "# Steps\none\n")
        try fixture.add(
            "Start", body: "First [[Create a vault#Steps|the steps]].\nThen `[[not a link]]` and [[Nowhere]].\n")
        try fixture.add("Other", in: "Guides", body: "See ![[Create a vault]] or [the guide](Create%20a%20vault.md)\n")
        try fixture.add("Alone", body: "no links\n")

        #expect(
            try fixture.succeed(["links", "Start"]).output == """
                1: [[Create a vault#Steps]] -> Guides/Create a vault
                2: [[Nowhere]] -> nothing

                """)
        #expect(
            try fixture.succeed(["backlinks", "Guides/Create a vault"]).output == """
                Guides/Other:1: See ![[Create a vault]] or [the guide](Create%20a%20vault.md)
                Start:1: First [[Create a vault#Steps|the steps]].

                """)
        let shown = try fixture.succeed(["show", vault]).output
        #expect(
            shown.hasSuffix(
                """
                one

                linked from:
                  Guides/Other:1: See ![[Create a vault]] or [the guide](Create%20a%20vault.md)
                  Start:1: First [[Create a vault#Steps|the steps]].

                """), "\(shown)")
        let json = try fixture.show(vault)
        #expect(
            (json["linkedFrom"] as? [[String: Any]])?.compactMap { $0["path"] as? String } == ["Guides/Other", "Start"])
        let links =
            try JSONSerialization.jsonObject(with: Data(try fixture.succeed(["links", "Start", "--json"]).output.utf8))
            as? [[String: Any]]
        #expect(
            links?.map { ($0["resolved"] as? [String: Any])?["path"] as? String } == ["Guides/Create a vault", nil])
        #expect(links?.first?["fragment"] as? String == "Steps" && links?.first?["display"] as? String == "the steps")

        let linking = try fixture.succeed(["search", "links:\"Guides/Create a vault\"", "--json"]).output
        let found = try JSONSerialization.jsonObject(with: Data(linking.utf8)) as? [[String: Any]]
        #expect(Set(found?.compactMap { $0["path"] as? String } ?? []) == ["Start", "Guides/Other"])
        let both = try fixture.succeed(["search", "first links:\"Create a vault\"", "--json"]).output
        #expect(
            (try JSONSerialization.jsonObject(with: Data(both.utf8)) as? [[String: Any]])?.compactMap {
                $0["path"] as? String
            } == ["Start"])
        let unknown = try fixture.run(["search", "links:Nowhere"])
        #expect(unknown.status != 0 && unknown.error.split(separator: "\n").count == 1, "\(unknown)")
        #expect(try fixture.succeed(["ls", "--orphans"]).output.hasSuffix("  Alone\n"))
        let check = try fixture.succeed(["check"])
        #expect(check.output == "Start:2: [[Nowhere]] reaches no note\nok\n", "\(check)")
    }

    /// A rename rewrites the links that reach the note, and a link written with its old name
    /// later still reaches it; a link to a missing note is an error on one line.
    @Test func aRenameKeepsItsLinksTrueAndAMissingNoteIsAnError() throws {
        try fixture.add("Plan", body: "")
        try fixture.add("Diary", body: "see [[Plan]]\n")
        try fixture.succeed(["edit", "Plan", "--name", "Launch plan"])
        #expect(try fixture.succeed(["cat", "Diary"]).output == "see [[Launch plan]]\n")
        try fixture.add("Late", body: "written before the rename was seen: [[plan]]\n")
        #expect(
            try fixture.succeed(["backlinks", "Launch plan"]).output == """
                Diary:1: see [[Launch plan]]
                Late:1: written before the rename was seen: [[plan]]

                """)
        #expect(try fixture.succeed(["links", "Late"]).output == "1: [[plan]] -> Launch plan\n")
        let missing = try fixture.run(["backlinks", "No such note"])
        #expect(
            missing.status == 64 && missing.output.isEmpty && missing.error.split(separator: "\n").count == 1,
            "\(missing)")
    }
}
