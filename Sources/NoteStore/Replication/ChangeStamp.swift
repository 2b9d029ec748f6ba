import Foundation

/// When and where a property got its value: a hybrid logical clock reading and a device.
///
/// Stamps are totally ordered, by clock and then by device id, so that every device picks the
/// same last writer. The text form, 16 hex digits of the clock, `/` and the device id, sorts
/// in the same order as the stamps (docs/sync-format.md, "Clocks and stamps").
public struct ChangeStamp: Comparable, Hashable, Sendable, CustomStringConvertible {
    public let clock: UInt64
    public let device: UUID

    public init(clock: UInt64, device: UUID) {
        self.clock = clock
        self.device = device
    }

    /// Parses the text form; nil when it is not one.
    public init?(text: String) {
        let parts = text.split(separator: "/", omittingEmptySubsequences: false)
        guard parts.count == 2, parts[0].count == 16, let clock = UInt64(parts[0], radix: 16),
            let device = UUID(storeText: String(parts[1]))
        else { return nil }
        self.init(clock: clock, device: device)
    }

    /// Written in one buffer, without formatting: every version and change of a save has one.
    public var text: String {
        let digits: StaticString = "0123456789abcdef"
        let device = device.storeString
        return String(unsafeUninitializedCapacity: 17 + device.utf8.count) { buffer in
            for index in 0..<16 {
                buffer[index] = digits.utf8Start[Int((clock >> (60 - 4 * UInt64(index))) & 0x0F)]
            }
            buffer[16] = UInt8(ascii: "/")
            var out = 17
            for byte in device.utf8 {
                buffer[out] = byte
                out += 1
            }
            return out
        }
    }

    public var description: String { text }

    /// By clock, then by device id as text, which orders as the id's bytes do (lowercase hex
    /// digits, dashes at the same places): compared without making the text.
    public static func < (lhs: ChangeStamp, rhs: ChangeStamp) -> Bool {
        if lhs.clock != rhs.clock { return lhs.clock < rhs.clock }
        return lhs.device.precedesInStoreOrder(rhs.device)
    }
}

/// The hybrid logical clock of a store: milliseconds since 1970 in the high 48 bits, a counter
/// in the low 16, never going back (https://cse.buffalo.edu/tech-reports/2014-04.pdf).
///
/// Readings never pass ``maximum``, the largest clock a log can carry (docs/sync-format.md,
/// "Clocks and stamps"): a wall clock past the year 6429 gives the largest millisecond reading,
/// and a counter that reaches the maximum stays there.
public enum HybridClock {
    /// The largest clock: logs write clocks as JSON integers that readers take as signed 64-bit
    /// numbers.
    public static let maximum = UInt64(Int64.max)

    /// The next reading after `last` at wall time `now`.
    public static func tick(after last: UInt64, now: Date = Date()) -> UInt64 {
        max(physical(now), last >= maximum ? maximum : last + 1)
    }

    /// The wall-clock part of a reading for a date.
    public static func physical(_ date: Date) -> UInt64 {
        min(UInt64(max(0, date.storeMilliseconds)), maximum >> 16) << 16
    }

    /// The milliseconds since 1970 of a reading.
    public static func milliseconds(of clock: UInt64) -> Int64 {
        Int64(clock >> 16)
    }

    /// The wall time of a reading.
    public static func date(of clock: UInt64) -> Date {
        Date(storeMilliseconds: milliseconds(of: clock))
    }
}

/// The `stamps` column of a row: a JSON object of each property's stamp.
enum StampsColumn {
    /// The SQL that sets the stamps of `properties` in the column, each bound after it as a
    /// placeholder, in the same order.
    static func assignment(of properties: some Sequence<String>) -> String {
        "stamps = json_set(stamps, \(properties.map { "'$.\($0)', ?" }.joined(separator: ", ")))"
    }
}
