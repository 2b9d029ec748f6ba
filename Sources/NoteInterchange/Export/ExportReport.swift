import Foundation

/// What an export wrote.
public struct ExportReport: Equatable, Sendable {
    public var notes = 0
    public var collections = 0
    public var images = 0
}

/// Dates in exports: ISO 8601 in UTC with milliseconds, the precision the store keeps.
enum ExportDate {
    nonisolated(unsafe) private static let formatter: ISO8601DateFormatter = {
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        return formatter
    }()
    nonisolated(unsafe) private static let plain: ISO8601DateFormatter = {
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withInternetDateTime]
        return formatter
    }()
    private static let lock = NSLock()

    static func text(_ date: Date) -> String {
        date.isoText
    }

    /// A date written with or without fractional seconds, or a plain `YYYY-MM-DD` (midnight
    /// UTC), as other tools write front matter; nil otherwise.
    static func date(_ text: String) -> Date? {
        if let date = quickDate(text) { return date }
        return lock.withLock {
            if let date = formatter.date(from: text) ?? plain.date(from: text) { return date }
            if text.count == 10 { return plain.date(from: text + "T00:00:00Z") }
            return nil
        }
    }

    /// `YYYY-MM-DDTHH:MM:SS[.s…]Z` read by hand, as the store keeps it (whole milliseconds);
    /// nil for any other shape.
    private static func quickDate(_ text: String) -> Date? {
        let bytes = Array(text.utf8)
        guard bytes.count >= 20, bytes.last == 90, bytes[4] == 45, bytes[7] == 45, bytes[10] == 84, bytes[13] == 58, bytes[16] == 58
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
            let minute = number(14..<16), let second = number(17..<19), (1...12).contains(month), (1...31).contains(day),
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
        var parts = tm()
        parts.tm_year = Int32(year - 1900)
        parts.tm_mon = Int32(month - 1)
        parts.tm_mday = Int32(day)
        parts.tm_hour = Int32(hour)
        parts.tm_min = Int32(minute)
        parts.tm_sec = Int32(second)
        let seconds = timegm(&parts)
        guard parts.tm_mday == Int32(day) else { return nil }  // a day the month does not have
        return Date(timeIntervalSince1970: Double(Int64(seconds) * 1000 + Int64(fraction)) / 1000)
    }
}
