import Foundation
import Synchronization

/// Dates in ISO 8601, as every module of `notes` writes and reads them.
///
/// The store keeps dates to the millisecond and writes them in UTC as
/// `YYYY-MM-DDTHH:MM:SS.sssZ` (``Foundation/Date/isoText``): in logs, registrations, sync state
/// and exports alike, so the form is part of the sync format (docs/sync-format.md). The readers
/// differ on purpose, by what they read: the store's own texts, the container's JSON, and the
/// front matter that other tools write.
public enum ISODate {
    /// The one `ISO8601DateFormatter` of the process, for what the hand-made readers and writer
    /// leave: years outside 0–9999, other forms, other time zones. A formatter is not safe to
    /// share across threads, and costs tens of microseconds to make.
    private static let formatter = Mutex<ISO8601DateFormatter>(
        {
            let formatter = ISO8601DateFormatter()
            formatter.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
            return formatter
        }())

    /// How the container's files are read: any ISO 8601 form with a time zone.
    private static let readingStyle = Date.ISO8601FormatStyle(includingFractionalSeconds: true, timeZone: .gmt)

    /// The date in `text`, written with fractional seconds and a time zone, as the store
    /// writes its own dates (logs, sync state); nil otherwise.
    public static func date(from text: String) -> Date? {
        // The store's own form, read by hand: the formatter takes a hundred microseconds or so,
        // which every log imported would pay for its header.
        if text.utf8.count == 24, let date = quickDate(text) { return date }
        return formatter.withLock { $0.date(from: text) }
    }

    /// The date in `text`, in any ISO 8601 form with a time zone, with or without fractional
    /// seconds, as the container's JSON files are read (docs/sync-format.md).
    public static func date(fromAnyForm text: String) -> Date? {
        try? readingStyle.parse(text)
    }

    /// A date written with or without fractional seconds, or a plain `YYYY-MM-DD` (midnight
    /// UTC), as other tools write front matter; nil otherwise.
    public static func date(fromFrontMatter text: String) -> Date? {
        if let date = quickDate(text) { return date }
        return formatter.withLock { formatter in
            if let date = formatter.date(from: text) { return date }
            let options = formatter.formatOptions
            formatter.formatOptions = [.withInternetDateTime]
            defer { formatter.formatOptions = options }
            if let date = formatter.date(from: text) { return date }
            if text.count == 10 { return formatter.date(from: text + "T00:00:00Z") }
            return nil
        }
    }

    /// ISO 8601 with milliseconds in `zone`, with its offset (`Z` for UTC), for people.
    public static func text(_ date: Date, in zone: TimeZone) -> String {
        formatter.withLock { formatter in
            let utc = formatter.timeZone
            formatter.timeZone = zone
            defer { formatter.timeZone = utc }
            return formatter.string(from: date)
        }
    }

    /// `date` in the store's form, for years outside what ``Foundation/Date/isoText`` makes by hand.
    fileprivate static func fallbackText(_ date: Date) -> String {
        formatter.withLock { $0.string(from: date) }
    }

    /// `YYYY-MM-DDTHH:MM:SS[.s…]Z` read by hand, as the store keeps it (whole milliseconds);
    /// nil for any other shape.
    private static func quickDate(_ text: String) -> Date? {
        let bytes = Array(text.utf8)
        guard bytes.count >= 20, bytes.last == 90, bytes[4] == 45, bytes[7] == 45, bytes[10] == 84, bytes[13] == 58,
            bytes[16] == 58
        else { return nil }
        func number(_ range: Range<Int>) -> Int? {
            var value = 0
            for index in range {
                guard (48...57).contains(bytes[index]) else { return nil }
                value = value * 10 + Int(bytes[index] - 48)
            }
            return value
        }
        guard let year = number(0..<4), let month = number(5..<7), let day = number(8..<10), let hour = number(11..<13),
            let minute = number(14..<16), let second = number(17..<19), (1...12).contains(month),
            (1...31).contains(day),
            hour < 24, minute < 60, second < 61
        else { return nil }
        var fraction = 0
        if bytes.count > 20 {
            guard bytes[19] == 46, bytes.count > 21, let digits = number(20..<(bytes.count - 1)) else { return nil }
            let count = bytes.count - 21
            fraction = count >= 3 ? digits / Int(pow(10, Double(count - 3))) : digits * Int(pow(10, Double(3 - count)))
        } else if bytes[19] != 90 {
            return nil
        }
        return utcDate(
            year: year, month: month, day: day, hour: hour, minute: minute, second: second, milliseconds: fraction)
    }

    /// The moment of a date and a time of day in UTC, less `offsetSeconds` (a zone's offset);
    /// nil for a day the month does not have.
    public static func utcDate(
        year: Int, month: Int, day: Int, hour: Int, minute: Int, second: Int, milliseconds: Int, offsetSeconds: Int = 0
    ) -> Date? {
        var parts = tm()
        parts.tm_year = Int32(year - 1900)
        parts.tm_mon = Int32(month - 1)
        parts.tm_mday = Int32(day)
        parts.tm_hour = Int32(hour)
        parts.tm_min = Int32(minute)
        parts.tm_sec = Int32(second)
        let seconds = timegm(&parts)
        guard parts.tm_mday == Int32(day) else { return nil }
        return Date(
            timeIntervalSince1970: Double((Int64(seconds) - Int64(offsetSeconds)) * 1000 + Int64(milliseconds)) / 1000)
    }
}

extension Date {
    /// ISO 8601 in UTC with milliseconds, the precision the store keeps:
    /// `YYYY-MM-DDTHH:MM:SS.sssZ`. Made by hand: a formatter costs tens of microseconds a date,
    /// which an export of 100,000 notes feels. Years outside 0–9999 fall back to a formatter.
    public var isoText: String {
        let milliseconds = Int64((timeIntervalSince1970 * 1000).rounded())
        var seconds = time_t(milliseconds >= 0 ? milliseconds / 1000 : (milliseconds - 999) / 1000)
        var parts = tm()
        guard gmtime_r(&seconds, &parts) != nil, (0...9999).contains(Int(parts.tm_year) + 1900) else {
            return ISODate.fallbackText(self)
        }
        var bytes = [UInt8]()
        bytes.reserveCapacity(24)
        func digits(_ value: Int, _ count: Int) {
            var divisor = 1
            for _ in 1..<count { divisor *= 10 }
            var value = value
            for _ in 0..<count {
                bytes.append(UInt8(48 + value / divisor))
                value %= divisor
                divisor /= 10
            }
        }
        digits(Int(parts.tm_year) + 1900, 4); bytes.append(45)
        digits(Int(parts.tm_mon) + 1, 2); bytes.append(45)
        digits(Int(parts.tm_mday), 2); bytes.append(84)
        digits(Int(parts.tm_hour), 2); bytes.append(58)
        digits(Int(parts.tm_min), 2); bytes.append(58)
        digits(Int(parts.tm_sec), 2); bytes.append(46)
        digits(Int(milliseconds - Int64(seconds) * 1000), 3); bytes.append(90)
        return String(decoding: bytes, as: UTF8.self)
    }
}
