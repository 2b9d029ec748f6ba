import Foundation

extension Date {
    /// ISO 8601 in UTC with milliseconds, the precision the store keeps:
    /// `YYYY-MM-DDTHH:MM:SS.sssZ`. Made by hand: a formatter costs tens of microseconds a date,
    /// which an export of 100,000 notes feels. Years outside 0–9999 fall back to a formatter.
    public var isoText: String {
        let milliseconds = Int64((timeIntervalSince1970 * 1000).rounded())
        var seconds = time_t(milliseconds >= 0 ? milliseconds / 1000 : (milliseconds - 999) / 1000)
        var parts = tm()
        guard gmtime_r(&seconds, &parts) != nil, (0...9999).contains(Int(parts.tm_year) + 1900) else {
            return Self.fallbackLock.withLock { Self.fallbackFormatter.string(from: self) }
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

    nonisolated(unsafe) private static let fallbackFormatter: ISO8601DateFormatter = {
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        return formatter
    }()
    private static let fallbackLock = NSLock()
}
