import Foundation
import Testing

@testable import NoteStore

/// The search language as ``SearchQuery`` reads it: every filter, filters alone and with words,
/// and the column of every error.
@Suite struct SearchQueryTests {
    typealias Node = SearchExpression

    func read(_ text: String) throws -> Node? { try SearchQuery.read(text) }

    func problem(_ text: String) -> SearchQuery.Problem? {
        do {
            _ = try SearchQuery.read(text)
            return nil
        } catch {
            return error
        }
    }

    @Test func everyFilterReadsItsValue() throws {
        let cases: [(String, SearchFilter)] = [
            ("tag:work", .tag("work")),
            ("TAG:#Work/Plans", .tag("Work/Plans")),
            ("in:Work/Ideas", .within("Work/Ideas")),
            ("in:\"Getting started\"", .within("Getting started")),
            ("name:plan", .name("plan")),
            ("name:\"launch plan\"", .name("launch plan")),
            ("links:Glossary", .links("Glossary")),
            ("links:\"Create a vault\"", .links("Create a vault")),
            ("has:attachment", .has(.attachment)),
            ("has:Image", .has(.image)),
            ("is:trashed", .trashed),
            ("is:conflict", .conflict),
            (
                "created:>=2026-01-31",
                .date(.created, DateBound(comparison: .from, moment: .day(year: 2026, month: 1, day: 31)))
            ),
            (
                "created:2026-02-03",
                .date(.created, DateBound(comparison: .on, moment: .day(year: 2026, month: 2, day: 3)))
            ),
            (
                "modified:<2026-02-03",
                .date(.modified, DateBound(comparison: .before, moment: .day(year: 2026, month: 2, day: 3)))
            ),
            (
                "modified:<=2026-02-03",
                .date(.modified, DateBound(comparison: .upTo, moment: .day(year: 2026, month: 2, day: 3)))
            ),
            ("modified:>7d", .date(.modified, DateBound(comparison: .after, moment: .age(7, .day)))),
            ("modified:<2w", .date(.modified, DateBound(comparison: .before, moment: .age(14, .day)))),
            ("modified:3m", .date(.modified, DateBound(comparison: .after, moment: .age(3, .month)))),
            ("created:>=1y", .date(.created, DateBound(comparison: .from, moment: .age(1, .year)))),
        ]
        for (text, filter) in cases {
            #expect(try read(text) == .filter(filter, column: 1), "\(text)")
        }
    }

    @Test func filtersStandAloneOrBesideWordsAndAreExcludedAndGroupedAsWordsAre() throws {
        #expect(
            try read("tag:work is:trashed")
                == .all(wanted: [.filter(.tag("work"), column: 1), .filter(.trashed, column: 10)], unwanted: []))
        #expect(
            try read("plan -tag:old")
                == .all(wanted: [.term("plan", prefix: false)], unwanted: [.filter(.tag("old"), column: 7)]))
        #expect(
            try read("plan NOT has:image")
                == .all(wanted: [.term("plan", prefix: false)], unwanted: [.filter(.has(.image), column: 10)]))
        #expect(
            try read("(tag:a OR word*) in:Work")
                == .all(
                    wanted: [
                        .either([.filter(.tag("a"), column: 2), .term("word", prefix: true)]),
                        .filter(.within("Work"), column: 18),
                    ], unwanted: []))
        // A key that is no filter's stays a word; so does a filter's key inside a phrase.
        #expect(try read("x:y") == .term("x:y", prefix: false))
        #expect(try read("\"tag:work\"") == .phrase("tag:work"))
    }

    @Test func aQueryOfWordsIsOneFTSExpression() throws {
        #expect(try read("a (b OR c) -d")?.fts == "(\"a\" AND (\"b\" OR \"c\")) NOT \"d\"")
        #expect(try read("a tag:x")?.fts == nil)
        #expect(try read("a tag:x")?.namesTrash == false)
        #expect(try read("a OR (b -is:trashed)")?.namesTrash == true)
    }

    @Test func aBadFilterSaysWhatAndWhere() {
        let problems: [(String, Int, String)] = [
            ("tag:", 1, "'tag:' needs a value after it"),
            ("plan -in:", 7, "'in:' needs a value after it"),
            ("name:\"\"", 1, "'name:' needs a value after it"),
            ("word has:foo", 10, "'has:' takes 'attachment' or 'image', not 'foo'"),
            ("is:deleted", 4, "'is:' takes 'trashed' or 'conflict', not 'deleted'"),
            (
                "modified:>1x", 10,
                "'modified:' takes a date (2026-01-31) or an age (7d, 2w, 3m, 1y), after >, <, >= or <=, not '>1x'"
            ),
            (
                "a created:2026-02-30", 11,
                "'created:' takes a date (2026-01-31) or an age (7d, 2w, 3m, 1y), "
                    + "after >, <, >= or <=, not '2026-02-30'"
            ),
            (
                "created:=7d", 9,
                "'created:' takes a date (2026-01-31) or an age (7d, 2w, 3m, 1y), after >, <, >= or <=, not '=7d'"
            ),
            ("tag:a,b", 5, "'tag:a,b': a tag cannot contain a comma"),
            ("-tag:x", 1, "a query needs a word or a filter to find besides those it excludes"),
            ("tag:x OR", 7, "'OR' needs a word or a phrase after it"),
            ("in:\"Getting started", 4, "'\"' opens a phrase that no '\"' closes"),
        ]
        for (text, column, reason) in problems {
            #expect(problem(text) == SearchQuery.Problem(column: column, reason: reason), "\(text)")
        }
    }

    /// Days are days of the local calendar, ages moments before now.
    @Test func datesBecomeRanges() throws {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone.current
        let day = try #require(calendar.date(from: DateComponents(year: 2026, month: 1, day: 31)))
        let next = try #require(calendar.date(byAdding: .day, value: 1, to: day))
        let now = Date(timeIntervalSince1970: 1_800_000_000)
        let week = try #require(calendar.date(byAdding: .day, value: -7, to: now))
        func range(_ text: String) throws -> (Date?, Date?) {
            let bound = try #require(DateBound(text))
            let range = bound.range(now: now)
            return (range.from, range.before)
        }
        #expect(try range(">2026-01-31") == (next, nil))
        #expect(try range(">=2026-01-31") == (day, nil))
        #expect(try range("<2026-01-31") == (nil, day))
        #expect(try range("<=2026-01-31") == (nil, next))
        #expect(try range("2026-01-31") == (day, next))
        #expect(try range(">7d") == (week.addingTimeInterval(0.001), nil))
        #expect(try range("1w") == (week.addingTimeInterval(0.001), nil))
        #expect(try range("<7d") == (nil, week))
        #expect(
            DateBound("7") == nil && DateBound("d") == nil && DateBound("2026-1-31") == nil
                && DateBound("2026-13-01") == nil)
    }
}
