import Foundation
import NoteStore

/// A date as front matter writes it (Obsidian, Joplin, Hugo, zk and YAML's timestamps): a day
/// (`2024-03-01`), or a day and a time of the day with `T` or a space between them, minutes
/// or seconds or a fraction of them (`2024-03-01 16:54`, `2024-03-01T16:54:07.25`), then a
/// zone: `Z`, an offset (`-07:00`, `+0530`, `+02`), or none for UTC, with or without a space
/// before it. Anything else is not a date; an offset is never passed over.
enum FrontMatterDate {
    static func date(_ text: String) -> Date? {
        var bytes = Array(text.utf8)[...]
        func number(_ count: Int) -> Int? {
            guard bytes.count >= count else { return nil }
            var value = 0
            for byte in bytes.prefix(count) {
                guard (48...57).contains(byte) else { return nil }
                value = value * 10 + Int(byte - 48)
            }
            bytes = bytes.dropFirst(count)
            return value
        }
        func take(_ byte: UInt8) -> Bool {
            guard bytes.first == byte else { return false }
            bytes = bytes.dropFirst()
            return true
        }
        guard let year = number(4), take(0x2D), let month = number(2), take(0x2D), let day = number(2),
            (1...12).contains(month), (1...31).contains(day)
        else { return nil }
        var hour = 0, minute = 0, second = 0
        var milliseconds = 0
        var offset = 0
        if take(0x54) || take(0x74) || take(0x20) {
            guard let h = number(2), take(0x3A), let m = number(2), h < 24, m < 60 else { return nil }
            (hour, minute) = (h, m)
            if take(0x3A) {
                guard let s = number(2), s < 61 else { return nil }
                second = s
                if take(0x2E) || take(0x2C) {
                    // Milliseconds, the precision the store keeps; further digits are cut.
                    var digits = 0
                    while let byte = bytes.first, (48...57).contains(byte) {
                        if digits < 3 { milliseconds = milliseconds * 10 + Int(byte - 48) }
                        digits += 1
                        bytes = bytes.dropFirst()
                    }
                    guard digits > 0 else { return nil }
                    for _ in digits..<max(digits, 3) { milliseconds *= 10 }
                }
            }
            _ = take(0x20)
            if take(0x5A) || take(0x7A) {
                // UTC.
            } else if let sign = bytes.first, sign == 0x2B || sign == 0x2D {
                bytes = bytes.dropFirst()
                guard let hours = number(2), hours < 24 else { return nil }
                var minutes = 0
                if !bytes.isEmpty {
                    _ = take(0x3A)
                    guard let m = number(2), m < 60 else { return nil }
                    minutes = m
                }
                offset = (hours * 60 + minutes) * 60 * (sign == 0x2D ? -1 : 1)
            }
        }
        guard bytes.isEmpty else { return nil }
        return ISODate.utcDate(
            year: year, month: month, day: day, hour: hour, minute: minute, second: second, milliseconds: milliseconds,
            offsetSeconds: offset)
    }
}
