import Foundation
import NoteTestSupport
import Testing

/// Styles follow --color, NO_COLOR and TERM=dumb; times for people are in one zone (local, or
/// UTC with --utc), times in JSON always in UTC.
@Suite struct DisplayTests {
    static let bold = "\u{1B}[1m", plain = "\u{1B}[0m"

    func onATerminal(_ fixture: CommandLineFixture, _ arguments: [String], environment: [String: String]) throws
        -> String
    {
        try NotesCommand.runOnTerminal(arguments, store: fixture.store, environment: environment).output
    }

    @Test func searchMatchesAreBoldOnlyWhenStylesAreWanted() throws {
        let fixture = CommandLineFixture()
        try fixture.add("Trip", body: "kayak \u{1B}[31mred")
        let always = try fixture.succeed(["search", "kayak", "--color", "always"]).output
        #expect(always.contains("\(Self.bold)kayak\(Self.plain) \\e[31mred"), "\(always)")
        for arguments in [["search", "kayak"], ["search", "kayak", "--color", "never"]] {
            let output = try fixture.succeed(arguments).output
            #expect(output.contains("«kayak» \\e[31mred") && !output.contains("\u{1B}"), "\(arguments): \(output)")
        }
        fixture.expectFailure(
            try fixture.run(["search", "kayak", "--color", "sometimes"]), status: 64, mentioning: ["--color"])
    }

    @Test func onATerminalNoColorAndADumbTerminalTurnStylesOff() throws {
        let fixture = CommandLineFixture()
        try fixture.add("Trip", body: "kayak trip")
        #expect(
            try onATerminal(fixture, ["search", "kayak"], environment: [:]).contains("\(Self.bold)kayak\(Self.plain)"))
        for environment in [["NO_COLOR": "1"], ["TERM": "dumb"]] {
            let output = try onATerminal(fixture, ["search", "kayak"], environment: environment)
            #expect(output.contains("«kayak»") && !output.contains(Self.bold), "\(environment): \(output)")
        }
        let forced = try onATerminal(fixture, ["search", "kayak", "--color", "always"], environment: ["NO_COLOR": "1"])
        #expect(forced.contains("\(Self.bold)kayak\(Self.plain)"))
    }

    @Test func lsAndShowPrintLocalTimesOrUTCAndJSONAlwaysUTC() throws {
        let fixture = CommandLineFixture()
        let id = try fixture.add("Note", body: "x")
        let created = try #require(JSONChecks.date(try fixture.show(id)["created"]))
        let tokyo = ["TZ": "Asia/Tokyo"]
        func minutes(_ date: Date, _ zone: String) -> String {
            let formatter = DateFormatter()
            formatter.locale = Locale(identifier: "en_US_POSIX")
            formatter.dateFormat = "yyyy-MM-dd HH:mm"
            formatter.timeZone = TimeZone(identifier: zone)
            return formatter.string(from: date)
        }
        #expect(try fixture.succeed(["ls"], environment: tokyo).output.contains(minutes(created, "Asia/Tokyo")))
        #expect(try fixture.succeed(["ls", "--utc"], environment: tokyo).output.contains(minutes(created, "UTC")))
        let shown = try fixture.succeed(["show", id], environment: tokyo).output
        #expect(
            shown.contains("created:  \(minutes(created, "Asia/Tokyo").replacingOccurrences(of: " ", with: "T"))"),
            "\(shown)")
        #expect(shown.contains("+09:00"), "\(shown)")
        let utc = try fixture.succeed(["show", id, "--utc"], environment: tokyo).output
        #expect(
            utc.contains("created:  \(minutes(created, "UTC").replacingOccurrences(of: " ", with: "T"))")
                && utc.contains("Z\n"), "\(utc)")
        let json = try fixture.succeed(["show", id, "--json"], environment: tokyo).output
        #expect(json.contains("Z\""), "\(json)")
        #expect(!json.contains("+09:00"))
    }
}
