import Foundation

/// A filter of the search language: a `key:value` word that keeps the items with a property,
/// rather than a word to find in their text. ``SearchQuery`` reads them; the store turns them
/// into SQL (`Store+SearchFilters.swift`).
enum SearchFilter: Hashable {
    /// `tag:NAME`: the notes that carry the tag or a tag nested in it (`tag:a` finds `a/b`).
    case tag(String)
    /// `in:COLLECTION`: the items inside the collection, at any depth.
    case within(String)
    /// `name:TEXT`: the items whose name holds the text, ignoring case and accents.
    case name(String)
    /// `links:NOTE`: the notes whose bodies link to the note.
    case links(String)
    /// `has:attachment`, `has:image`.
    case has(Attachments)
    /// `is:trashed`: the items in the trash (which a search otherwise leaves out).
    case trashed
    /// `is:conflict`: the conflict copies, which keep the losing text of concurrent edits.
    case conflict
    /// `created:` and `modified:` with a comparison and a date.
    case date(DateProperty, DateBound)
    /// `prop:KEY` (the notes with the property) and `prop:KEY=VALUE` (whose value is the text,
    /// number or boolean, ignoring case and accents, or a list that holds it).
    case property(key: String, value: String?)

    enum Attachments: String, Hashable { case attachment, image }

    enum DateProperty: String, Hashable { case created, modified }

    /// The keys of the language, as written before the colon (in any case).
    static let keys = ["tag", "in", "name", "links", "has", "is", "created", "modified", "prop"]

    /// The filter that `key:value` writes; a ``SearchQuery/Problem`` when the value does not
    /// read, `column` being where the value starts.
    static func reading(key: String, value: String, column: Int) throws(SearchQuery.Problem) -> SearchFilter {
        switch key {
        case "tag":
            let tag = Tag.normalized(value)
            if let problem = Tag.problem(tag) {
                throw SearchQuery.Problem(column: column, reason: "'tag:\(value)': \(problem)")
            }
            return .tag(tag)
        case "in": return .within(value)
        case "prop":
            let parts = value.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false).map(String.init)
            let key = Property.normalized(parts[0])
            if let problem = Property.problem(key) {
                throw SearchQuery.Problem(column: column, reason: "'prop:\(value)': \(problem)")
            }
            return .property(key: key, value: parts.count > 1 ? parts[1] : nil)
        case "name": return .name(value)
        case "links": return .links(value)
        case "has":
            guard let kind = Attachments(rawValue: value.lowercased()) else {
                throw SearchQuery.Problem(
                    column: column, reason: "'has:' takes 'attachment' or 'image', not '\(value)'")
            }
            return .has(kind)
        case "is":
            switch value.lowercased() {
            case "trashed": return .trashed
            case "conflict": return .conflict
            default:
                throw SearchQuery.Problem(column: column, reason: "'is:' takes 'trashed' or 'conflict', not '\(value)'")
            }
        default:
            let property = DateProperty(rawValue: key) ?? .modified
            guard let bound = DateBound(value) else {
                throw SearchQuery.Problem(
                    column: column,
                    reason: "'\(key):' takes a date (2026-01-31) or an age (7d, 2w, 3m, 1y), "
                        + "after >, <, >= or <=, not '\(value)'")
            }
            return .date(property, bound)
        }
    }
}

/// The dates that `created:` and `modified:` keep: a comparison with a day or with an age.
///
/// A day is a day of the local calendar: `>2026-01-31` is from the next day on, `<=2026-01-31`
/// up to its end, and a day alone is that day. An age is a moment that long ago: `>7d` is
/// within the last 7 days (newer than 7 days ago), `<7d` older; an age alone is `>`.
struct DateBound: Hashable {
    enum Comparison: String, Hashable { case after = ">", before = "<", from = ">=", upTo = "<=", on = "" }

    enum Moment: Hashable {
        /// A day of the calendar, as written: year, month, day.
        case day(year: Int, month: Int, day: Int)
        /// An age: a count of days, weeks, months or years before now.
        case age(Int, Calendar.Component)
    }

    let comparison: Comparison
    let moment: Moment

    /// Reads `>=2026-01-31`, `<7d` and the like; nil when `text` is no such thing.
    init?(_ text: String) {
        var rest = Substring(text)
        let comparison: Comparison
        if rest.hasPrefix(">=") || rest.hasPrefix("<=") {
            comparison = rest.hasPrefix(">") ? .from : .upTo
            rest = rest.dropFirst(2)
        } else if rest.hasPrefix(">") || rest.hasPrefix("<") {
            comparison = rest.hasPrefix(">") ? .after : .before
            rest = rest.dropFirst()
        } else {
            comparison = .on
        }
        guard let moment = Self.moment(rest) else { return nil }
        // An age alone is a time since then.
        if case .age = moment, comparison == .on {
            self.init(comparison: .after, moment: moment)
        } else {
            self.init(comparison: comparison, moment: moment)
        }
    }

    init(comparison: Comparison, moment: Moment) {
        self.comparison = comparison
        self.moment = moment
    }

    private static func moment(_ text: Substring) -> Moment? {
        let parts = text.split(separator: "-", omittingEmptySubsequences: false)
        if parts.count == 3, parts[0].count == 4, parts[1].count == 2, parts[2].count == 2,
            parts.allSatisfy({ $0.allSatisfy(\.isASCII) && $0.allSatisfy(\.isNumber) }),
            let year = Int(parts[0]), let month = Int(parts[1]), let day = Int(parts[2]),
            (1...12).contains(month), (1...31).contains(day)
        {
            var components = DateComponents(year: year, month: month, day: day)
            components.calendar = calendar
            guard components.isValidDate else { return nil }
            return .day(year: year, month: month, day: day)
        }
        guard let unit = text.last, text.count > 1, text.dropLast().allSatisfy({ $0.isASCII && $0.isNumber }),
            let count = Int(text.dropLast()), count <= 10_000
        else { return nil }
        switch unit {
        case "d": return .age(count, .day)
        case "w": return .age(count * 7, .day)
        case "m": return .age(count, .month)
        case "y": return .age(count, .year)
        default: return nil
        }
    }

    /// The Gregorian calendar in the local time zone (`TZ`).
    static var calendar: Calendar {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone.current
        return calendar
    }

    /// The dates kept, as a lower bound (inclusive) and an upper bound (exclusive), either
    /// open; `now` is when ages count from.
    func range(now: Date) -> (from: Date?, before: Date?) {
        let calendar = Self.calendar
        switch moment {
        case let .age(count, unit):
            let then = calendar.date(byAdding: unit, value: -count, to: now) ?? .distantPast
            switch comparison {
            case .after, .on: return (then.addingTimeInterval(0.001), nil)
            case .from: return (then, nil)
            case .before: return (nil, then)
            case .upTo: return (nil, then.addingTimeInterval(0.001))
            }
        case let .day(year, month, day):
            let start = calendar.date(from: DateComponents(year: year, month: month, day: day)) ?? .distantPast
            let next = calendar.date(byAdding: .day, value: 1, to: start) ?? .distantFuture
            switch comparison {
            case .after: return (next, nil)
            case .from: return (start, nil)
            case .before: return (nil, start)
            case .upTo: return (nil, next)
            case .on: return (start, next)
            }
        }
    }
}
